"""The renewal scenarios' premiums and alternatives (tests/scenarios/renewals.yaml, `renewal:`
steps) equal a recomputation from the catalog's YAML that does not use the engine's rating code
(recompute.py). The scenario runner checks the engine against the same numbers.

    python3 -m unittest tools/renewals/test_recompute.py
"""

import os
import sys
import unittest
from decimal import Decimal

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from recompute import ROOT, Catalog, age_at, alternatives, date, premium  # noqa: E402

SUITE = os.path.join(ROOT, "tests", "scenarios", "renewals.yaml")


def carriers_of(offers):
    with open(os.path.join(ROOT, "rules", "catalog", "carriers.yaml"), encoding="utf-8") as f:
        listed = yaml.safe_load(f)["carriers"]
    return [c["id"] for c in listed if c.get("agent_flag") is None or c["agent_flag"] in offers]


def household(census):
    members = [dict(role="subscriber", birth_date=date(census["sub_birth_date"]), tobacco=census.get("sub_tobacco"))]
    if census.get("spouse"):
        s = census["spouse"]
        members.append(dict(role="spouse", birth_date=date(s["birth_date"]), tobacco=s.get("tobacco")))
    for d in census.get("dependents", []):
        members.append(dict(role="dependent", birth_date=date(d["birth_date"]), tobacco=d.get("tobacco")))
    return members


def names(members):
    out, n = [], 0
    for m in members:
        if m["role"] == "dependent":
            n += 1
            out.append(f"Dependent {n}")
        else:
            out.append(m["role"].capitalize())
    return out


class RenewalPremiums(unittest.TestCase):
    def test_every_renewal_step_matches_the_recomputation(self):
        cat = Catalog()
        with open(SUITE, encoding="utf-8") as f:
            suite = yaml.safe_load(f)
        checked = 0
        for scenario in suite:
            app = scenario["app"]
            census = app["census"]
            county = census["residential_county_id"]
            old = date(app["effective_date"])
            new = date(f"{old.year + 1}-01-01")
            members = household(census)
            carriers = carriers_of(scenario["context"]["agent"]["offers"])
            for step in scenario["steps"]:
                kind = step.get("renewal")
                if not kind:
                    continue
                e = step["expect"]
                current = app[f"{kind}_plan"]["id"]
                leaving = set(e.get("aging_off", []))
                staying = [m for m, n in zip(members, names(members)) if n not in leaving]
                successor = e["successor"] if isinstance(e["successor"], int) else None
                with self.subTest(scenario=scenario["name"], kind=kind):
                    for plan_id, want in e.get("premiums", {}).items():
                        on, who = (old, members) if plan_id == current else (new, staying)
                        total, _ = premium(cat, plan_id, county, who, on)
                        self.assertEqual(total, Decimal(str(want)).quantize(Decimal("0.01")), plan_id)
                    for plan_id, want in e.get("members", {}).items():
                        on, who = (old, members) if plan_id == current else (new, staying)
                        _, charges = premium(cat, plan_id, county, who, on)
                        self.assertEqual(charges, [Decimal(str(w)).quantize(Decimal("0.01")) for w in want])
                    if "alternatives" in e:
                        got = alternatives(cat, current, successor, county, staying, new, carriers, 2)
                        self.assertEqual(got, e["alternatives"])
                    # Who ages off is what rules/renewals.yaml says of the members' ages.
                    with open(os.path.join(ROOT, "rules", "renewals.yaml"), encoding="utf-8") as f:
                        offs = [a for a in yaml.safe_load(f)["age_offs"] if a["kind"] == kind]
                    expected_off = [
                        n for m, n in zip(members, names(members))
                        if any(a["role"] == m["role"] and age_at(m["birth_date"], new) >= a["age"] for a in offs)
                    ]
                    self.assertEqual(sorted(expected_off), sorted(leaving))
                checked += 1
        self.assertGreaterEqual(checked, 5)


if __name__ == "__main__":
    unittest.main()
