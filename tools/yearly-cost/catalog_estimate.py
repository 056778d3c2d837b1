#!/usr/bin/env python3
"""A catalog plan's estimated yearly cost for a household, recomputed from the YAML apart from the engine.

The expected figures of tests/scenarios/yearly_cost.yaml come from here, not from the engine's Rust code.

The out-of-pocket part is oopc_reference.calculate (the Python port of CMS's out-of-pocket cost
calculator that reproduces engine/tests/fixtures/oopc_cases.yaml), given a plan built from the files:
- services, free primary care visits, the specialty cap: the plan's design in
  rules/catalog/<year>/cost_sharing.yaml, with the plan's own `services` replacing the design's lines
  (rules/README.md, "Cost sharing");
- deductibles, from rules/catalog/<year>/medical.yaml: one of scope combined (medical when the design
  has a `drug_deductible`) with individual = per_person = ded_ind and family = ded_fam (ded_ind when
  absent), except an HSA plan's (`hsa: true`), which has no per-person amount (aggregate); with a `drug_deductible`, a second one of scope drugs (individual = per_person = its
  individual, family = its family);
- one combined out-of-pocket maximum: individual = per_person = max_ind_oop, family = max_2p_oop for
  a household of exactly 2 (max_fam_oop when the plan has none), else max_fam_oop (max_ind_oop when
  absent). A household of one uses the individual amounts only (oopc_reference.make_groups).
Each member's row of rules/yearly_cost/utilization.yaml is the member's age at the effective date,
sex (F/M) and use (low/medium/high).

The yearly result, in dollars to the cent: premium = 12 x the monthly premium; deductible and
cost_sharing = the calculation's, each rounded to the cent (half away from zero); total = premium +
deductible + cost_sharing; worst_case = premium + the maximum (max_ind_oop for one member, else the
family maximum above).

The monthly premium is taken (--premium) or computed from the catalog (--county): each member's rate
= the plan's age-21 rate in the county's rating area (rules/catalog/counties.yaml) x the factor of
the member's age at the effective date on the plan's age curve (rules/catalog/age_curves.yaml,
federal unless the plan says) x the plan's tobacco_factor (tobacco users of `tobacco_age` or older,
rules/catalog/rating.yaml), rounded half up to the cent; of the dependents under `child_age` only the
`children_charged` oldest are charged.

    # one member: AGE-or-BIRTH-DATE/SEX/USE[/tobacco]; the first is the subscriber, with --spouse the
    # second is the spouse, the others are dependents
    python3 tools/yearly-cost/catalog_estimate.py --plan 521 --premium 289.07 --member 40/F/high
    python3 tools/yearly-cost/catalog_estimate.py --plan 521 --county 161 --effective 2025-01-01 \\
        --member 1984-06-01/F/high
    python3 tools/yearly-cost/catalog_estimate.py --plan 529 --county 161 --spouse \\
        --member 1984-06-01/M/medium --member 1986-02-10/F/high --member 2014-06-01/F/low
    python3 tools/yearly-cost/catalog_estimate.py --plan 521 --county 161 --member 40/F/high --yaml
                  # prints the scenario lines: premiums: {...} and yearly_cost: {...}
    python3 tools/yearly-cost/catalog_estimate.py --scenarios     # recomputes every `premiums` and
                  # `yearly_cost` of tests/scenarios/yearly_cost.yaml (or --scenarios FILE) and checks
                  # each plan is one the scenario's agent offers in its county; exit 1 on a difference

--year defaults to the effective date's year (2025 without one). Needs PyYAML. Deterministic.
"""

import argparse
import datetime
import math
import os
import sys
from decimal import ROUND_HALF_UP, Decimal

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import oopc_reference  # noqa: E402

ROOT = oopc_reference.ROOT
CATALOG = os.path.join(ROOT, "rules", "catalog")
SCENARIOS = os.path.join(ROOT, "tests", "scenarios", "yearly_cost.yaml")
PARTS = ("premium", "deductible", "cost_sharing", "total", "worst_case")


def _load(*path):
    with open(os.path.join(*path), encoding="utf-8") as f:
        return yaml.safe_load(f)


def cents(dollars):
    """Dollars (a float) to whole cents, half away from zero, as the engine's Money::from_dollars."""
    x = dollars * 100.0
    whole = math.floor(abs(x))
    if abs(x) - whole >= 0.5:
        whole += 1
    return int(whole) if x >= 0 else -int(whole)


def money(c):
    return Decimal(c).scaleb(-2)


def age_at(birth, on):
    return on.year - birth.year - ((on.month, on.day) < (birth.month, birth.day))


def date(text):
    return text if isinstance(text, datetime.date) else datetime.date.fromisoformat(str(text))


class Catalog:
    def __init__(self, year):
        self.year = year
        self.utilization = oopc_reference.load(oopc_reference.UTILIZATION, True)
        self.medical = {p["id"]: p for p in _load(CATALOG, str(year), "medical.yaml")["plans"]}
        self.cost_sharing = _load(CATALOG, str(year), "cost_sharing.yaml")
        if self.cost_sharing.get("plan_year") != year:
            raise SystemExit("%d/cost_sharing.yaml says plan_year %r" % (year, self.cost_sharing.get("plan_year")))
        self.curves = _load(CATALOG, "age_curves.yaml")["curves"]
        self.rule = _load(CATALOG, "rating.yaml")
        self.areas = {c["id"]: c["rating_area"] for c in _load(CATALOG, "counties.yaml")["counties"]}
        self.carriers = {c["id"]: c for c in _load(CATALOG, "carriers.yaml")["carriers"]}
        self.max_age = {m["id"]: m.get("max_age") for m in _load(CATALOG, "lists.yaml")["metals"]}

    # -- the plan ------------------------------------------------------------------------------

    def plan(self, plan_id, size):
        """oopc_reference's plan dict for a household of `size`."""
        p = self.medical.get(plan_id)
        if p is None:
            raise SystemExit("plan %s is not a medical plan of %d" % (plan_id, self.year))
        entry = self.cost_sharing["plans"].get(plan_id)
        if entry is None:
            raise SystemExit("plan %s has no line in %d/cost_sharing.yaml" % (plan_id, self.year))
        if isinstance(entry, str):
            name, changes = entry, {}
        else:
            name, changes = entry["design"], entry.get("services") or {}
        design = self.cost_sharing["designs"][name]
        services = dict(design["services"])
        services.update(changes)  # each line given replaces the design's whole
        missing = [s for s in self.utilization["services"] if s not in services]
        if missing:
            raise SystemExit("plan %s (design %s) lacks %s" % (plan_id, name, ", ".join(missing)))
        drug = design.get("drug_deductible")
        deductibles = []
        if p.get("ded_ind") is not None:
            ind = float(p["ded_ind"])
            fam = float(p["ded_fam"]) if p.get("ded_fam") is not None else ind
            deductibles.append({"scope": "medical" if drug else "combined",
                                "individual": ind,
                                # An HSA plan's deductible is the family's only (aggregate).
                                "per_person": None if p.get("hsa") else ind, "family": fam})
        if drug:
            deductibles.append({"scope": "drugs", "individual": float(drug["individual"]),
                                "per_person": float(drug["individual"]), "family": float(drug["family"])})
        maximums = []
        if p.get("max_ind_oop") is not None:
            ind = float(p["max_ind_oop"])
            fam = p.get("max_2p_oop") if size == 2 else None
            if fam is None:
                fam = p.get("max_fam_oop")
            maximums.append({"scope": "combined", "individual": ind, "per_person": ind,
                             "family": float(fam) if fam is not None else ind})
        return {
            "design": name,
            "deductibles": deductibles,
            "maximums": maximums,
            "services": services,
            "free_primary_care_visits": design.get("free_primary_care_visits") or 0,
            "specialty_max_per_script": design.get("specialty_max_per_script"),
        }

    # -- the premium ---------------------------------------------------------------------------

    def factor(self, plan, age):
        for band in self.curves[plan.get("age_curve", "federal")]:
            if band["from"] <= age and ("to" not in band or age <= band["to"]):
                return Decimal(str(band["factor"]))
        raise SystemExit("no age factor for age %d" % age)

    def premium(self, plan_id, county, members):
        """The monthly premium (cents) and each member's charge (cents; 0 = not charged).
        members: dicts of role, age, tobacco, birth_date (None when given by age)."""
        plan = self.medical[plan_id]
        area = self.areas.get(county)
        if area is None:
            raise SystemExit("county %s is not in counties.yaml" % county)
        base = Decimal(str(plan["rates"][area]))
        tobacco = Decimal(str(plan.get("tobacco_factor", 1)))
        young = [i for i, m in enumerate(members)
                 if m["role"] == "dependent" and m["age"] < self.rule["child_age"]]
        # Oldest first: the earlier birth date (or the greater age), the household's order breaking ties.
        young.sort(key=lambda i: (members[i]["birth_date"] or datetime.date.max, -members[i]["age"], i))
        not_charged = set(young[self.rule["children_charged"]:])
        charges = []
        for i, m in enumerate(members):
            if i in not_charged:
                charges.append(0)
                continue
            rate = base * self.factor(plan, m["age"])
            if m["tobacco"] and m["age"] >= self.rule["tobacco_age"]:
                rate *= tobacco
            charges.append(int(rate.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP) * 100))
        return sum(charges), charges

    def offered(self, plan_id, county, offers, members):
        """Why the plan would not be quoted for this household by an agent with these flags (None: it is)."""
        p = self.medical[plan_id]
        counties = p.get("counties", "all")
        if counties != "all" and county not in counties:
            return "not sold in county %s" % county
        flag = self.carriers[p["carrier"]].get("agent_flag")
        if flag is not None and flag not in offers:
            return "carrier %s needs the agent flag %s" % (p["carrier"], flag)
        limit = self.max_age.get(p.get("metal"))
        if limit is not None and max(m["age"] for m in members) > limit:
            return "metal %s is for households of %d or younger" % (p.get("metal"), limit)
        return None

    # -- the estimate --------------------------------------------------------------------------

    def estimate(self, plan_id, monthly_cents, members):
        """The yearly figures in cents, and oopc_reference's outcome."""
        plan = self.plan(plan_id, len(members))
        household = [{"age": m["age"], "sex": m["sex"], "use": m["use"]} for m in members]
        out = oopc_reference.calculate(plan, household, self.utilization)
        premium = 12 * monthly_cents
        deductible = cents(out["deductible"])
        cost_sharing = cents(out["cost_sharing"])
        m = plan["maximums"][0] if plan["maximums"] else None
        maximum = 0 if m is None else cents(m["individual"] if len(members) <= 1 else m["family"])
        figures = {
            "premium": premium,
            "deductible": deductible,
            "cost_sharing": cost_sharing,
            "total": premium + deductible + cost_sharing,
            "worst_case": premium + maximum,
        }
        return figures, out, plan


# ---------------------------------------------------------------------------------------------


def parse_member(text, n, spouse, effective):
    parts = text.split("/")
    if len(parts) not in (3, 4) or (len(parts) == 4 and parts[3] != "tobacco"):
        raise SystemExit("--member %r: AGE-or-BIRTH-DATE/SEX/USE[/tobacco]" % text)
    who, sex, use = parts[:3]
    if sex not in ("F", "M"):
        raise SystemExit("--member %r: the sex is F or M" % text)
    if use not in ("low", "medium", "high"):
        raise SystemExit("--member %r: the use is low, medium or high" % text)
    if who.isdigit():
        birth, age = None, int(who)
    else:
        birth = date(who)
        age = age_at(birth, effective)
    role = "subscriber" if n == 0 else "spouse" if (n == 1 and spouse) else "dependent"
    return {"role": role, "birth_date": birth, "age": age, "sex": sex, "use": use, "tobacco": len(parts) == 4}


def scenario_members(app):
    """The household of a scenario's app (census, care.uses), in the engine's order."""
    census = app["census"]
    effective = date(app["effective_date"])
    uses = ((app.get("care") or {}).get("uses")) or []
    people = [("subscriber", census["sub_birth_date"], census.get("sub_gender"), census.get("sub_tobacco"))]
    if census.get("spouse"):
        s = census["spouse"]
        people.append(("spouse", s["birth_date"], s.get("gender"), s.get("tobacco")))
    for d in census.get("dependents") or []:
        people.append(("dependent", d["birth_date"], d.get("gender"), d.get("tobacco")))
    members = []
    for i, (role, birth, sex, tobacco) in enumerate(people):
        birth = date(birth)
        members.append({"role": role, "birth_date": birth, "age": age_at(birth, effective), "sex": sex,
                        "use": uses[i] if i < len(uses) else "medium", "tobacco": tobacco == 1})
    return members, census["residential_county_id"], effective


def check_scenarios(path):
    with open(path, encoding="utf-8") as f:
        suite = yaml.safe_load(f)
    catalogs = {}
    problems, checked = [], 0
    for sc in suite:
        app = sc.get("app") or {}
        if "census" not in app:
            continue
        members, county, effective = scenario_members(app)
        if effective.year not in catalogs:
            catalogs[effective.year] = Catalog(effective.year)
        cat = catalogs[effective.year]
        offers = ((sc.get("context") or {}).get("agent") or {}).get("offers") or []
        who = ", ".join("%s %d %s %s" % (m["role"], m["age"], m["sex"], m["use"]) for m in members)
        print("%s\n  %s; county %s; effective %s" % (sc["name"], who, county, effective))
        for step in sc.get("steps") or []:
            if step.get("quote") != "medical":
                continue
            expect = step.get("expect") or {}
            premiums = expect.get("premiums") or {}
            for plan_id in sorted(set(premiums) | set(expect.get("yearly_cost") or {})):
                pid = int(plan_id)
                why = cat.offered(pid, county, offers, members)
                if why:
                    problems.append("%s: plan %s is %s" % (sc["name"], pid, why))
                monthly, charges = cat.premium(pid, county, members)
                if plan_id in premiums:
                    checked += 1
                    if cents(float(premiums[plan_id])) != monthly:
                        problems.append("%s: plan %s premium %s, recomputed %s"
                                        % (sc["name"], pid, premiums[plan_id], money(monthly)))
                want = (expect.get("yearly_cost") or {}).get(plan_id)
                if want is None:
                    continue
                got, out, plan = cat.estimate(pid, monthly, members)
                cols = []
                for part in PARTS:
                    mark = ""
                    if part in want:
                        checked += 1
                        if cents(float(want[part])) != got[part]:
                            mark = "!"
                            problems.append("%s: plan %s %s %s, recomputed %s"
                                            % (sc["name"], pid, part, want[part], money(got[part])))
                    cols.append("%s %s%s" % (part, money(got[part]), mark))
                print("  %s (%s, %s/month): %s; %d spending steps"
                      % (pid, plan["design"], money(monthly), ", ".join(cols), out["iterations"]))
    print()
    print("%d figures checked; %d differences or problems" % (checked, len(problems)))
    for p in problems:
        print("  " + p)
    return 1 if problems else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog="\n".join(__doc__.split("\n")[1:]))
    parser.add_argument("--plan", type=int, help="the medical plan's id")
    parser.add_argument("--year", type=int, help="the plan year (default: the effective date's, else 2025)")
    parser.add_argument("--premium", help="the household's monthly premium in dollars (else --county)")
    parser.add_argument("--county", type=int, help="compute the premium for this county id from the catalog")
    parser.add_argument("--effective", help="the effective date (YYYY-MM-DD; default: January 1 of --year)")
    parser.add_argument("--spouse", action="store_true", help="the second --member is the spouse")
    parser.add_argument("--member", action="append", default=[], help="AGE-or-BIRTH-DATE/SEX/USE[/tobacco]")
    parser.add_argument("--yaml", action="store_true", help="print the scenario's premiums and yearly_cost lines")
    parser.add_argument("--scenarios", nargs="?", const=SCENARIOS, help="check a scenario suite's figures")
    args = parser.parse_args()

    if args.scenarios:
        sys.exit(check_scenarios(args.scenarios))
    if args.plan is None or not args.member:
        parser.error("give --plan and at least one --member (or --scenarios)")
    year = args.year or (date(args.effective).year if args.effective else 2025)
    effective = date(args.effective) if args.effective else datetime.date(year, 1, 1)
    cat = Catalog(year)
    members = [parse_member(t, n, args.spouse, effective) for n, t in enumerate(args.member)]
    if args.premium is not None:
        monthly, charges = cents(float(args.premium)), None
    elif args.county is not None:
        monthly, charges = cat.premium(args.plan, args.county, members)
    else:
        parser.error("give --premium or --county")
    figures, out, plan = cat.estimate(args.plan, monthly, members)
    if args.yaml:
        print("premiums: { %d: %s }" % (args.plan, money(monthly)))
        print("yearly_cost: { %d: { %s } }" % (args.plan, ", ".join("%s: %s" % (p, money(figures[p])) for p in PARTS)))
        return
    p = cat.medical[args.plan]
    print("plan %d %s (%d; design %s)" % (args.plan, p["name"], year, plan["design"]))
    for d in plan["deductibles"]:
        print("  deductible %-8s individual %s, per person %s, family %s"
              % (d["scope"], d["individual"], d["per_person"], d["family"]))
    for m in plan["maximums"]:
        print("  maximum    %-8s individual %s, per person %s, family %s"
              % (m["scope"], m["individual"], m["per_person"], m["family"]))
    for i, m in enumerate(members):
        charge = "" if charges is None else ", charged %s/month" % money(charges[i])
        print("  %s: age %d %s %s%s%s" % (m["role"], m["age"], m["sex"], m["use"],
                                         " tobacco" if m["tobacco"] else "", charge))
    if args.county is not None and args.premium is None:
        print("monthly premium %s (county %d, effective %s)" % (money(monthly), args.county, effective))
    print("allowed cost of the year %.2f; out of pocket %.4f (deductible %.4f + cost sharing %.4f); "
          "paid by the plan after the maximum %.2f; %d spending steps"
          % (out["total_cost"], out["out_of_pocket"], out["deductible"], out["cost_sharing"],
             out["plan_after_maximum"], out["iterations"]))
    for part in PARTS:
        print("%-13s %s" % (part, money(figures[part])))


if __name__ == "__main__":
    main()
