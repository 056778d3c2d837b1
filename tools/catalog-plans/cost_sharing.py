#!/usr/bin/env python3
"""Generate the medical plans' cost sharing per service: rules/catalog/<year>/cost_sharing.yaml.

    python3 tools/catalog-plans/cost_sharing.py            # writes one file per plan year (run from anywhere)
    python3 tools/catalog-plans/cost_sharing.py --check    # writes nothing: checks the designs below
                                                           # and the files as they are (hand edits included)

What it writes: for every plan year folder of rules/catalog/ that has a medical.yaml (2024, 2025),
the copay, coinsurance and deductible rule of each of the 26 services of the CMS out-of-pocket cost
calculator (docs/yearly-cost-sources.md, sections 1.3 and 2) under a few named designs, and the
design of every medical plan of the year. The yearly cost estimate reads it with the plan's own
deductibles and out-of-pocket maximums, which stay in medical.yaml. Format: rules/README.md,
"Cost sharing"; schema: schemas/cost_sharing.schema.json.

How a plan gets its design: from its kind and metal level in medical.yaml (the files as they are,
hand edits included, not generate.py's tables) and its own `coins`:
- catastrophic: everything but preventive care under the deductible (which is the out-of-pocket
  maximum), 0% after it, and three primary care visits free (45 CFR 156.155);
- HSA plans (hsa: true): nothing but preventive care before the deductible (IRS Notice 2004-23),
  then the plan's coinsurance;
- bronze, expanded bronze, silver, gold and platinum: the shape of the CMS standardized plan options
  of the year's Notice of Benefit and Payment Parameters (45 CFR 156.201): office visits, lab and the
  cheaper drug tiers as copays before the deductible, more of them the richer the metal; imaging,
  surgery, hospital stays and the rest under the deductible, then the plan's coinsurance. HMOs have
  lower visit copays than PPOs and EPOs of the same metal. Mental health visits cost what primary
  care visits do (mental health parity, 45 CFR 146.136).
Design names say the metal, kind and coinsurance: `silver_hmo_30`, `gold_20`, `bronze_hsa_0`.
The amounts are demo data modelled on those sources, not any carrier's filed benefits.

Checked before anything is written, and by --check on the files as they are: every medical plan of
the year has a design and no other id does; every design gives the 26 services; preventive is
{ deductible: false } and other { deductible: true }; HSA plans pay nothing but preventive care
before the deductible; catastrophic plans are { deductible: true } everywhere with 3 free visits; a
coinsurance after the deductible is the plan's `coins`; no copay or drug deductible above the plan's
out-of-pocket maximum; and, when jsonschema is importable, schemas/cost_sharing.schema.json.

Python 3 standard library; PyYAML is used when importable (else a small reader of the generated
medical.yaml layout, and --check compares the files with what would be written but cannot read
hand edits). Deterministic: the same medical.yaml files give byte-identical output. The generated files say they
were generated; analysts may edit them directly afterwards (re-running this script overwrites the
edits). After any change run `enrollflow check` (the catalog loader reads and checks the files).

To change the designs here: edit the tables below (PRE_DEDUCTIBLE, AFTER_DEDUCTIBLE, EXTRAS,
PLAN_CHANGES), run the script, then `enrollflow check`.
"""

import json
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
CATALOG = os.path.join(ROOT, "rules", "catalog")
SCHEMA = os.path.join(ROOT, "schemas", "cost_sharing.schema.json")
FILE = "cost_sharing.yaml"

# The 26 services of the CMS out-of-pocket cost calculator, in its order (docs/yearly-cost-sources.md
# 1.1; its 27th, op_er_prof, is not in use). Written in this order in every design.
SERVICES = [
    "inpatient_facility", "inpatient_physician", "ambulance", "chiropractic", "imaging",
    "diagnostic_cardiology", "dialysis", "medical_equipment", "emergency_room", "eye_exam",
    "chemotherapy", "lab", "mental_health", "outpatient_facility", "other", "preventive",
    "primary_care", "rehabilitation", "specialist", "outpatient_surgery", "ultrasound", "xray",
    "generic_drugs", "preferred_brand_drugs", "non_preferred_brand_drugs", "specialty_drugs",
]
DRUGS = SERVICES[-4:]

PPO, HMO, EPO = 1, 2, 3
CAT, BRONZE, EXP_BRONZE, SILVER, GOLD, PLATINUM = 1, 2, 3, 4, 5, 6
METAL_KEY = {CAT: "catastrophic", BRONZE: "bronze", EXP_BRONZE: "expanded_bronze", SILVER: "silver",
             GOLD: "gold", PLATINUM: "platinum"}
METAL_NAME = {CAT: "Catastrophic", BRONZE: "Bronze", EXP_BRONZE: "Expanded bronze", SILVER: "Silver",
              GOLD: "Gold", PLATINUM: "Platinum"}

# ---------------------------------------------------------------------------------------------
# Designs (bronze to platinum, not HSA)
# ---------------------------------------------------------------------------------------------

# Copays charged from the first dollar, the deductible not applying (deductible: false), by metal:
# (PPO and EPO, HMO) in dollars per visit, test or script. Every service not listed here (nor in
# AFTER_DEDUCTIBLE) takes the deductible, then the plan's own coinsurance (`coins`).
# Modelled on the CMS standardized options: bronze pays primary care, mental health and generics
# before the deductible; expanded bronze adds specialists, therapy and preferred brands (45 CFR
# 156.140(c): at least one major service before the deductible); silver adds lab; gold and platinum
# add non-preferred brands and the emergency room.
PRE_DEDUCTIBLE = {
    BRONZE: {
        "primary_care": (50, 40), "mental_health": (50, 40), "eye_exam": (50, 40),
        "generic_drugs": (25, 25),
    },
    EXP_BRONZE: {
        "primary_care": (50, 40), "mental_health": (50, 40), "eye_exam": (50, 40),
        "specialist": (100, 80), "rehabilitation": (50, 40), "chiropractic": (50, 40),
        "generic_drugs": (25, 25), "preferred_brand_drugs": (50, 50),
    },
    SILVER: {
        "primary_care": (40, 30), "mental_health": (40, 30), "eye_exam": (40, 30),
        "specialist": (80, 60), "rehabilitation": (40, 30), "chiropractic": (40, 30),
        "lab": (40, 40),
        "generic_drugs": (20, 20), "preferred_brand_drugs": (40, 40),
    },
    GOLD: {
        "primary_care": (25, 20), "mental_health": (25, 20), "eye_exam": (25, 20),
        "specialist": (50, 40), "rehabilitation": (25, 20), "chiropractic": (25, 20),
        "lab": (25, 25), "emergency_room": (350, 350),
        "generic_drugs": (10, 10), "preferred_brand_drugs": (30, 30), "non_preferred_brand_drugs": (60, 60),
    },
    PLATINUM: {
        "primary_care": (10, 5), "mental_health": (10, 5), "eye_exam": (10, 5),
        "specialist": (20, 15), "rehabilitation": (10, 5), "chiropractic": (10, 5),
        "lab": (10, 10), "emergency_room": (150, 150),
        "generic_drugs": (5, 5), "preferred_brand_drugs": (15, 15), "non_preferred_brand_drugs": (30, 30),
    },
}

# Copays after the deductible (deductible: true, no coinsurance), by metal.
AFTER_DEDUCTIBLE = {
    PLATINUM: {"inpatient_facility": dict(copay=250, per="day", max_days=5)},
}

# Design-wide terms by metal: a separate drug deductible (individual, family) for the drugs that
# take a deductible (expanded bronze: non-preferred brand and specialty drugs), and a cap in dollars
# on a specialty script's coinsurance.
EXTRAS = {
    EXP_BRONZE: dict(drug_deductible=(500, 1000)),
    GOLD: dict(specialty_max_per_script=250),
    PLATINUM: dict(specialty_max_per_script=150),
}

# Plans that differ from their design, by plan name (every year that has the plan): the services
# given replace the design's entries whole.
PLAN_CHANGES = {
    # Blue Cross's low-deductible silver: $30 primary care and mental health visits (silver PPO: $40).
    "Blue Cross Premier PPO Silver Extra": {
        "primary_care": dict(copay=30, deductible=False),
        "mental_health": dict(copay=30, deductible=False),
    },
}

FREE_PRIMARY_CARE_VISITS = 3  # catastrophic plans, 45 CFR 156.155

# ---------------------------------------------------------------------------------------------
# Sources (written into each file)
# ---------------------------------------------------------------------------------------------

PAYMENT_NOTICE = {
    2024: "HHS Notice of Benefit and Payment Parameters for 2024, final rule (April 2023)",
    2025: "HHS Notice of Benefit and Payment Parameters for 2025, final rule, 89 Fed. Reg. 26218 (April 15, 2024)",
}


def sources(year):
    if year not in PAYMENT_NOTICE:
        raise SystemExit(f"{year}: name the year's Payment Notice in PAYMENT_NOTICE (tools/catalog-plans/cost_sharing.py)")
    return [
        f"Shape of the bronze to platinum designs: the CMS standardized plan options for plan year {year} "
        f"(45 CFR 156.201), {PAYMENT_NOTICE[year]}: visits, lab and the cheaper drug tiers as copays before "
        "the deductible; imaging, surgery and hospital stays under the deductible, then coinsurance.",
        "Expanded bronze: at least one major service other than preventive care before the deductible (45 CFR 156.140(c)).",
        "Preventive care without cost sharing (45 CFR 147.130).",
        "Catastrophic plans: three primary care visits covered before the deductible, which equals the out-of-pocket maximum (45 CFR 156.155).",
        "HSA plans (hsa: true): nothing but preventive care paid before the deductible (26 U.S.C. 223(c)(2); IRS Notice 2004-23).",
        "Mental health visits cost what primary care visits do (mental health parity, 45 CFR 146.136).",
        "Services: the 26 of the CMS out-of-pocket cost calculator (CMSgov/oopc-calculations; docs/yearly-cost-sources.md 1.3).",
        "Demo data modelled on the above, not any carrier's filed benefits; coinsurance after the deductible "
        "is each plan's own `coins`, deductibles and out-of-pocket maximums are the plan's in medical.yaml.",
    ]


# ---------------------------------------------------------------------------------------------
# Reading medical.yaml
# ---------------------------------------------------------------------------------------------

try:
    import yaml  # PyYAML, optional
except ImportError:  # pragma: no cover - depends on the machine
    yaml = None

MEDICAL_FIELDS = ("id", "name", "network", "metal", "hsa", "coins", "ded_ind", "ded_fam", "max_ind_oop", "max_fam_oop")


def scalar(text):
    text = text.split(" #", 1)[0].strip()
    if text in ("true", "false"):
        return text == "true"
    if text.startswith('"') and text.endswith('"'):
        return json.loads(text)
    try:
        return int(text)
    except ValueError:
        try:
            return float(text)
        except ValueError:
            return text


def read_medical(year):
    """The year's medical plans: the fields this script needs, in file order."""
    path = os.path.join(CATALOG, str(year), "medical.yaml")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if yaml is not None:
        plans = yaml.safe_load(text)["plans"]
    else:  # the generated layout: "  - id: 520" then "    key: value"
        plans, cur = [], None
        for line in text.splitlines():
            m = re.match(r"^  - (\w+): (.*)$", line) or re.match(r"^    (\w+): (.*)$", line)
            if not m:
                continue
            if line.startswith("  - "):
                cur = {}
                plans.append(cur)
            cur[m.group(1)] = scalar(m.group(2))
    out = []
    for p in plans:
        missing = [k for k in MEDICAL_FIELDS if k not in p]
        if missing:
            raise SystemExit(f"{path}: plan {p.get('id')} lacks {', '.join(missing)}")
        out.append({k: p[k] for k in MEDICAL_FIELDS})
    return out


def plan_years():
    return sorted(int(d) for d in os.listdir(CATALOG)
                  if d.isdigit() and os.path.isfile(os.path.join(CATALOG, d, "medical.yaml")))


# ---------------------------------------------------------------------------------------------
# Building the designs
# ---------------------------------------------------------------------------------------------


def share(copay=0, coinsurance=0, deductible=True, copay_before_deductible=False, per=None, max_days=None):
    """A service entry as written: zero and false parts left out."""
    s = {}
    if copay:
        s["copay"] = copay
    if coinsurance:
        s["coinsurance"] = coinsurance
    s["deductible"] = deductible
    if copay_before_deductible:
        s["copay_before_deductible"] = True
    if per:
        s["per"] = per
    if max_days:
        s["max_days"] = max_days
    return s


def design_key(p):
    """(name, metal, hmo, hsa, coins) of the design a medical plan follows."""
    metal, hsa, coins = p["metal"], p["hsa"], p["coins"]
    if metal == CAT:
        return ("catastrophic", CAT, False, False, 0)
    hmo = p["network"] == HMO and not hsa  # HSA designs are the same in every network
    name = METAL_KEY[metal] + ("_hmo" if hmo else "") + ("_hsa" if hsa else "") + f"_{coins}"
    return (name, metal, hmo, hsa, coins)


def money(n):
    return f"${n:,}"


def build_design(metal, hmo, hsa, coins):
    d = {}
    if metal == CAT:
        d["description"] = (f"Catastrophic: {FREE_PRIMARY_CARE_VISITS} primary care visits free, everything else but "
                            "preventive care under the deductible (the out-of-pocket maximum), nothing after it.")
        d["free_primary_care_visits"] = FREE_PRIMARY_CARE_VISITS
        services = {s: share() for s in SERVICES}
    elif hsa:
        after = f"then {coins}% coinsurance" if coins else "then free"
        d["description"] = f"{METAL_NAME[metal]} HSA: only preventive care before the deductible, {after}."
        services = {s: share(coinsurance=coins) for s in SERVICES}
    else:
        extras = EXTRAS.get(metal, {})
        if "specialty_max_per_script" in extras:
            d["specialty_max_per_script"] = extras["specialty_max_per_script"]
        if "drug_deductible" in extras:
            ind, fam = extras["drug_deductible"]
            d["drug_deductible"] = {"individual": ind, "family": fam}
        services = {s: share(coinsurance=coins) for s in SERVICES}
        pre = PRE_DEDUCTIBLE[metal]
        for s, (ppo_copay, hmo_copay) in pre.items():
            services[s] = share(copay=hmo_copay if hmo else ppo_copay, deductible=False)
        for s, terms in AFTER_DEDUCTIBLE.get(metal, {}).items():
            services[s] = share(deductible=True, **terms)
        d["description"] = describe(metal, hmo, coins, services, d)
    services["other"] = share(deductible=True)
    services["preventive"] = share(deductible=False)
    d["services"] = {s: services[s] for s in SERVICES}
    return d


def describe(metal, hmo, coins, services, d):
    """One line: the copays before the deductible, then the rest."""
    def c(s):
        return money(services[s]["copay"])

    def before(*keys):
        return all(not services[k]["deductible"] and "copay" in services[k] for k in keys)

    groups = [  # (services, label) of the copays before the deductible
        (("primary_care", "mental_health", "eye_exam"), "primary care, mental health and eye exam"),
        (("specialist",), "specialist"),
        (("rehabilitation", "chiropractic"), "therapy and chiropractic"),
        (("lab",), "lab"),
        (("emergency_room",), "emergency room"),
    ]
    parts = [f"{c(keys[0])} {label}" for keys, label in groups if before(*keys)]
    tiers = [(s, label) for s, label in zip(DRUGS, ("generic", "preferred", "non-preferred", "specialty")) if before(s)]
    if tiers:
        parts.append("drugs " + " / ".join(f"{c(s)} {label}" for s, label in tiers)
                     + (" brand" if len(tiers) > 1 else ""))
    rest = f"at {coins}%" if coins else "free"
    line = (f"{METAL_NAME[metal]}{' HMO' if hmo else ''}, {coins}% coinsurance: before the deductible "
            + ", ".join(parts) + f"; the rest after the deductible, {rest}")
    inpatient = services["inpatient_facility"]
    if "copay" in inpatient:
        line += f"; hospital {c('inpatient_facility')} a {inpatient['per']} after the deductible"
        line += f" ({inpatient['max_days']} days at most)" if "max_days" in inpatient else ""
    if "drug_deductible" in d:
        line += f"; other drugs after a {money(d['drug_deductible']['individual'])} drug deductible"
    if "specialty_max_per_script" in d:
        line += f"; specialty drugs at most {money(d['specialty_max_per_script'])} a script"
    return line + "."


def build(year, medical):
    """The year's file as data: {plan_year, sources, designs, plans} (plans: id -> name or dict)."""
    keys = {p["id"]: design_key(p) for p in medical}
    order = sorted(set(keys.values()), key=lambda k: (k[1], k[3], k[2], -k[4]))  # metal, HSA last, HMO, coins
    designs = {k[0]: build_design(*k[1:]) for k in order}
    plans = {}
    for p in medical:
        name = keys[p["id"]][0]
        changes = PLAN_CHANGES.get(p["name"])
        plans[p["id"]] = {"design": name, "services": {s: share(**changes[s]) for s in SERVICES if s in changes}} \
            if changes else name
    return {"plan_year": year, "sources": sources(year), "designs": designs, "plans": plans}


def check_tables():
    """The tables' own consistency: HMOs never dearer than PPOs, richer metals never dearer."""
    problems = []
    ladder = [BRONZE, EXP_BRONZE, SILVER, GOLD, PLATINUM]
    for metal, pre in PRE_DEDUCTIBLE.items():
        for s, (ppo, hmo) in pre.items():
            if s not in SERVICES:
                problems.append(f"PRE_DEDUCTIBLE {METAL_KEY[metal]}: unknown service {s}")
            elif hmo > ppo:
                problems.append(f"PRE_DEDUCTIBLE {METAL_KEY[metal]} {s}: the HMO copay is above the PPO's")
        if pre.get("mental_health") != pre.get("primary_care"):
            problems.append(f"PRE_DEDUCTIBLE {METAL_KEY[metal]}: mental health must cost what primary care does")
    for lower, richer in zip(ladder, ladder[1:]):
        for s, (ppo, hmo) in PRE_DEDUCTIBLE[richer].items():
            if s in PRE_DEDUCTIBLE[lower]:
                lp, lh = PRE_DEDUCTIBLE[lower][s]
                if ppo > lp or hmo > lh:
                    problems.append(f"{s}: {METAL_KEY[richer]} copay above {METAL_KEY[lower]}'s")
        missing = set(PRE_DEDUCTIBLE[lower]) - set(PRE_DEDUCTIBLE[richer])
        if missing:
            problems.append(f"{METAL_KEY[richer]} takes the deductible for {sorted(missing)}, {METAL_KEY[lower]} does not")
    for changes in PLAN_CHANGES.values():
        for s in changes:
            if s not in SERVICES:
                problems.append(f"PLAN_CHANGES: unknown service {s}")
    return problems


# ---------------------------------------------------------------------------------------------
# Checking a file's data (generated or as edited) against the year's medical plans
# ---------------------------------------------------------------------------------------------

SHARE_KEYS = {"copay", "coinsurance", "deductible", "copay_before_deductible"}
INPATIENT_KEYS = SHARE_KEYS | {"per", "max_days"}
DESIGN_KEYS = {"description", "free_primary_care_visits", "specialty_max_per_script", "drug_deductible", "services"}


def num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def share_problems(s, sh):
    if not isinstance(sh, dict):
        return [f"{s}: not a mapping"]
    out = []
    allowed = INPATIENT_KEYS if s == "inpatient_facility" else SHARE_KEYS
    for k in sh:
        if k not in allowed:
            out.append(f"{s}: unknown key `{k}`")
    if not isinstance(sh.get("deductible"), bool):
        out.append(f"{s}: `deductible: true|false` is required")
    copay, coins = sh.get("copay", 0), sh.get("coinsurance", 0)
    if not (num(copay) and copay >= 0):
        out.append(f"{s}: copay must be a number of dollars, 0 or more")
        copay = 0
    if not (num(coins) and 0 <= coins <= 100):
        out.append(f"{s}: coinsurance must be a percent, 0 to 100")
        coins = 0
    if s == "other" and sh != {"deductible": True}:
        out.append("other: must be { deductible: true } (the estimate gives it the average rate of the rest)")
    if s == "preventive" and sh != {"deductible": False}:
        out.append("preventive: must be { deductible: false } (free under the ACA)")
    if sh.get("copay_before_deductible") and (sh.get("deductible") is not True or not copay):
        out.append(f"{s}: copay_before_deductible needs a copay and deductible: true")
    if s == "inpatient_facility":
        if copay and sh.get("per") not in ("day", "stay"):
            out.append("inpatient_facility: a copay needs `per: day` or `per: stay`")
        if "per" in sh and not copay:
            out.append("inpatient_facility: `per` without a copay")
        if "max_days" in sh and (sh.get("per") != "day" or not (isinstance(sh["max_days"], int) and sh["max_days"] >= 1)):
            out.append("inpatient_facility: `max_days` is a number of days, 1 or more, for a copay per day")
    return out


def check_doc(year, doc, medical):
    """Every problem of a cost-sharing file's data for the year's medical plans."""
    problems = []
    where = f"{year}/{FILE}"

    def bad(msg):
        problems.append(f"{where}: {msg}")

    if not isinstance(doc, dict):
        return [f"{where}: not a mapping"]
    for k in doc:
        if k not in ("plan_year", "sources", "designs", "plans"):
            bad(f"unknown key `{k}`")
    if doc.get("plan_year") != year:
        bad(f"plan_year {doc.get('plan_year')} is not the folder's year")
    if not (isinstance(doc.get("sources"), list) and doc["sources"] and all(isinstance(s, str) and s for s in doc["sources"])):
        bad("`sources` must list the sources, one line each")
    designs = doc.get("designs") or {}
    for name, d in designs.items():
        if not re.match(r"^[a-z][a-z0-9_]*$", str(name)):
            bad(f"design name `{name}`: lowercase letters, digits and _")
        if not isinstance(d, dict):
            bad(f"design `{name}`: not a mapping")
            continue
        for k in d:
            if k not in DESIGN_KEYS:
                bad(f"design `{name}`: unknown key `{k}`")
        services = d.get("services") or {}
        for s in SERVICES:
            if s not in services:
                bad(f"design `{name}`: no `{s}`")
            else:
                problems.extend(f"{where}: design `{name}`: {m}" for m in share_problems(s, services[s]))
        for s in services:
            if s not in SERVICES:
                bad(f"design `{name}`: unknown service `{s}`")
        fv = d.get("free_primary_care_visits", 0)
        if not (isinstance(fv, int) and not isinstance(fv, bool) and fv >= 0):
            bad(f"design `{name}`: free_primary_care_visits is a number of visits")
        if "specialty_max_per_script" in d and not (num(d["specialty_max_per_script"]) and d["specialty_max_per_script"] > 0):
            bad(f"design `{name}`: specialty_max_per_script is dollars, above 0")
        dd = d.get("drug_deductible")
        if dd is not None and not (isinstance(dd, dict) and set(dd) == {"individual", "family"}
                                   and num(dd["individual"]) and num(dd["family"]) and 0 <= dd["individual"] <= dd["family"]):
            bad(f"design `{name}`: drug_deductible is {{ individual, family }}, the family's at least the individual's")
    plans = doc.get("plans") or {}
    by_id = {p["id"]: p for p in medical}
    for pid in plans:
        if pid not in by_id:
            bad(f"plan {pid} is not a medical plan of {year}")
    for pid, p in by_id.items():
        if pid not in plans:
            bad(f"medical plan {pid} ({p['name']}) is missing from `plans`")
            continue
        entry = plans[pid]
        changes = {}
        if isinstance(entry, dict):
            if set(entry) != {"design", "services"} or not isinstance(entry.get("services"), dict):
                bad(f"plan {pid}: write {{ design: <name>, services: {{ ... }} }}")
                continue
            name, changes = entry["design"], entry["services"]
            for s, sh in changes.items():
                if s not in SERVICES:
                    bad(f"plan {pid}: unknown service `{s}`")
                else:
                    problems.extend(f"{where}: plan {pid}: {m}" for m in share_problems(s, sh))
        else:
            name = entry
        d = designs.get(name)
        if not isinstance(d, dict):
            bad(f"plan {pid}: there is no design `{name}`")
            continue
        services = dict(d.get("services") or {})
        services.update(changes)
        problems.extend(f"{where}: plan {pid} ({p['name']}, design `{name}`): {m}" for m in plan_problems(p, d, services))
    return problems


def plan_problems(p, d, services):
    """The rules a plan's own cost sharing must keep (its design with its changes)."""
    out = []
    services = {s: sh for s, sh in services.items() if s in SERVICES and isinstance(sh, dict)}
    for s, sh in services.items():
        copay = sh.get("copay", 0)
        if num(copay) and copay > p["max_ind_oop"]:
            out.append(f"{s}: copay {copay} above the plan's out-of-pocket maximum {p['max_ind_oop']}")
        coins = sh.get("coinsurance", 0)
        if (s not in ("other", "preventive") and sh.get("deductible") is True and (not copay or coins)
                and coins != p["coins"]):
            out.append(f"{s}: coinsurance after the deductible {coins}% is not the plan's coins {p['coins']}%")
    dd = d.get("drug_deductible")
    if isinstance(dd, dict) and num(dd.get("individual")) and num(dd.get("family")):
        if dd["individual"] > p["max_ind_oop"] or dd["family"] > p["max_fam_oop"]:
            out.append("the drug deductible is above the plan's out-of-pocket maximum")
    if p["hsa"]:
        for s, sh in services.items():
            if s != "preventive" and (sh.get("deductible") is not True or sh.get("copay_before_deductible")):
                out.append(f"{s}: an HSA plan pays nothing but preventive care before the deductible")
        if d.get("drug_deductible") or d.get("free_primary_care_visits"):
            out.append("an HSA plan has no separate drug deductible and no free visits before the deductible")
    if p["metal"] == CAT:
        for s, sh in services.items():
            if s != "preventive" and sh != {"deductible": True}:
                out.append(f"{s}: a catastrophic plan takes the deductible for everything, then 0%: {{ deductible: true }}")
        if d.get("free_primary_care_visits") != FREE_PRIMARY_CARE_VISITS:
            out.append(f"a catastrophic plan covers {FREE_PRIMARY_CARE_VISITS} primary care visits first (free_primary_care_visits: 3)")
    return out


def schema_problems(year, doc):
    """Validation against schemas/cost_sharing.schema.json when jsonschema is installed, else None."""
    try:
        import jsonschema
    except ImportError:
        return None
    with open(SCHEMA, encoding="utf-8") as f:
        schema = json.load(f)
    validator = jsonschema.Draft202012Validator(schema)
    data = json.loads(json.dumps(doc))  # plan ids as strings, as the YAML-to-JSON of an editor has them
    return [f"{year}/{FILE}: schema: {'/'.join(map(str, e.absolute_path))}: {e.message}"
            for e in sorted(validator.iter_errors(data), key=lambda e: list(map(str, e.absolute_path)))]


# ---------------------------------------------------------------------------------------------
# YAML output (written by hand: stable, in the order analysts read)
# ---------------------------------------------------------------------------------------------

HEADER = """\
# yaml-language-server: $schema=../../../schemas/cost_sharing.schema.json
# Cost sharing per service of the {year} medical plans, for the estimated yearly cost (format:
# rules/README.md, "Cost sharing"): named designs giving each of the 26 services of the CMS
# out-of-pocket cost calculator its copay, coinsurance and deductible rule, then every medical plan's
# design. Deductibles and out-of-pocket maximums are the plans' own, in medical.yaml.
# GENERATED by tools/catalog-plans/cost_sharing.py from each plan's kind, metal and coinsurance in
# medical.yaml: demo data modelled on the sources below. Analysts may edit this file directly from
# here on -- re-running the script would overwrite such edits. Check edits with `enrollflow check`.
"""

SHARE_ORDER = ["copay", "coinsurance", "deductible", "copay_before_deductible", "per", "max_days"]
WIDTH = max(len(s) for s in SERVICES) + 1


def q(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def scalar_text(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def flow(sh):
    return "{ " + ", ".join(f"{k}: {scalar_text(sh[k])}" for k in SHARE_ORDER if k in sh) + " }"


def plain(name):
    return re.sub(r"<[^>]+>", "", name).replace("&reg;", "")


def render(doc, medical):
    names = {p["id"]: plain(p["name"]) for p in medical}
    out = [HEADER.format(year=doc["plan_year"]).rstrip("\n"), f"plan_year: {doc['plan_year']}", "sources:"]
    out += [f"  - {q(s)}" for s in doc["sources"]]
    out.append("designs:")
    for name, d in doc["designs"].items():
        out.append(f"  {name}:")
        out.append(f"    description: {q(d['description'])}")
        if "free_primary_care_visits" in d:
            out.append(f"    free_primary_care_visits: {d['free_primary_care_visits']}   # paid in full before anything else")
        if "specialty_max_per_script" in d:
            out.append(f"    specialty_max_per_script: {d['specialty_max_per_script']}   # the most a specialty script's coinsurance costs")
        if "drug_deductible" in d:
            dd = d["drug_deductible"]
            out.append(f"    drug_deductible: {{ individual: {dd['individual']}, family: {dd['family']} }}   # drugs apart from the plan's deductible")
        out.append("    services:")
        for s in SERVICES:
            out.append(f"      {(s + ':').ljust(WIDTH)} {flow(d['services'][s])}")
    out.append("plans:")
    width = max(len(n) for n in doc["designs"]) + 1
    for pid, entry in doc["plans"].items():
        if isinstance(entry, str):
            out.append(f"  {pid}: {entry.ljust(width)}  # {names[pid]}")
        else:
            services = ", ".join(f"{s}: {flow(sh)}" for s, sh in entry["services"].items())
            out.append(f"  {pid}: {{ design: {entry['design']}, services: {{ {services} }} }}   # {names[pid]}: differs from its design")
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------------------------


def main():
    only_check = "--check" in sys.argv[1:]
    problems = check_tables()
    summary, notes, writes = [], [], []
    used_changes = set()
    for year in plan_years():
        medical = read_medical(year)
        used_changes |= {p["name"] for p in medical} & set(PLAN_CHANGES)
        doc = build(year, medical)
        problems += check_doc(year, doc, medical)
        problems += schema_problems(year, doc) or []
        text = render(doc, medical)
        path = os.path.join(CATALOG, str(year), FILE)
        if yaml is not None:  # what is written reads back as the data checked
            back = yaml.safe_load(text)
            if back != doc:
                problems.append(f"{year}/{FILE}: the rendered YAML does not read back as the data")
        summary.append(f"{year}: {len(doc['plans'])} plans, {len(doc['designs'])} designs")
        if only_check:
            if not os.path.exists(path):
                notes.append(f"{year}/{FILE} does not exist yet")
                continue
            with open(path, encoding="utf-8") as f:
                current = f.read()
            if current == text:
                notes.append(f"{year}/{FILE} is as generated")
            else:
                notes.append(f"{year}/{FILE} differs from what the script writes (hand edits, or medical.yaml changed)")
            if yaml is None:
                notes.append(f"{year}/{FILE}: PyYAML not installed, the file as it is was not checked")
                continue
            on_disk = yaml.safe_load(current)
            problems += check_doc(year, on_disk, medical)
            found = schema_problems(year, on_disk)
            if found is None:
                notes.append("jsonschema not installed: checked by the rules above only")
            problems += found or []
        else:
            writes.append((path, text))
    unused = set(PLAN_CHANGES) - used_changes
    if unused:
        problems.append(f"PLAN_CHANGES names no plan of any year: {sorted(unused)}")
    if problems:
        raise SystemExit("\n".join(problems))
    for path, text in writes:  # only when every year is clean
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
    print("ok: " + "; ".join(summary) + ("" if only_check else f" (written under {CATALOG})"))
    for n in dict.fromkeys(notes):
        print("  " + n)


if __name__ == "__main__":
    main()
