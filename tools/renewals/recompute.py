#!/usr/bin/env python3
"""Premiums recomputed from the catalog's YAML, apart from the engine's rating code (needs PyYAML).

A member's monthly rate is the plan's age-21 rate in the county's rating area x the plan's age
curve factor at the effective date x the plan's tobacco factor (tobacco users of `tobacco_age` or
older), rounded half up to the cent; of the children under `child_age` only the
`children_charged` oldest are charged (rules/catalog/rating.yaml; rules/README.md "The plan
catalog"). A renewal's alternatives are the plans of the new year closest to the current one: the
same carrier and metal first, then the same network type, then the lowest premium. Used by
test_recompute.py to check the renewal scenarios (tests/scenarios/renewals.yaml) against this
second computation.
"""

import datetime
import os
from decimal import ROUND_HALF_UP, Decimal

import yaml

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
CATALOG = os.path.join(ROOT, "rules", "catalog")
KINDS = ("medical", "dental", "vision")


def _load(path):
    with open(os.path.join(CATALOG, path), encoding="utf-8") as f:
        return yaml.safe_load(f)


class Catalog:
    def __init__(self):
        self.rule = _load("rating.yaml")
        self.curves = _load("age_curves.yaml")["curves"]
        self.areas = {c["id"]: c["rating_area"] for c in _load("counties.yaml")["counties"]}
        self.max_age = {m["id"]: m.get("max_age") for m in _load("lists.yaml")["metals"]}
        # By id: each plan with its kind and year.
        self.plans = {}
        for year in sorted(d for d in os.listdir(CATALOG) if d.isdigit()):
            for kind in KINDS:
                for p in _load(f"{year}/{kind}.yaml")["plans"]:
                    self.plans[p["id"]] = dict(p, kind=kind, year=int(year))

    def factor(self, plan, age):
        for band in self.curves[plan.get("age_curve", "federal")]:
            if band["from"] <= age and ("to" not in band or age <= band["to"]):
                return Decimal(str(band["factor"]))
        raise ValueError(f"no age factor for {age}")


def age_at(birth, on):
    return on.year - birth.year - ((on.month, on.day) < (birth.month, birth.day))


def premium(cat, plan_id, county, members, effective):
    """The plan's monthly premium for `members` (dicts of role, birth_date, tobacco) on
    `effective`, and each member's charge in the household's order, in dollars."""
    plan = cat.plans[plan_id]
    base = Decimal(str(plan["rates"][cat.areas[county]]))
    tobacco = Decimal(str(plan.get("tobacco_factor", 1)))
    ages = [age_at(m["birth_date"], effective) for m in members]
    young = sorted(
        (i for i, m in enumerate(members) if m["role"] == "dependent" and ages[i] < cat.rule["child_age"]),
        key=lambda i: (-ages[i], i),
    )
    not_charged = set(young[cat.rule["children_charged"]:])
    charges = []
    for i, m in enumerate(members):
        if i in not_charged:
            charges.append(Decimal("0.00"))
            continue
        rate = base * cat.factor(plan, ages[i])
        if m.get("tobacco") and ages[i] >= cat.rule["tobacco_age"]:
            rate *= tobacco
        charges.append(rate.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))
    return sum(charges), charges


def sold_in(plan, county):
    return plan.get("counties", "all") == "all" or county in plan["counties"]


def alternatives(cat, plan_id, successor, county, members, effective, carriers, n):
    """The `n` plans of the effective date's year closest to `plan_id` other than `successor`,
    of `carriers`, sold in the county, whose metal's age limit the household meets."""
    current = cat.plans[plan_id]
    oldest = max(age_at(m["birth_date"], effective) for m in members)
    found = []
    for p in cat.plans.values():
        if p["year"] != effective.year or p["kind"] != current["kind"] or p["id"] == successor:
            continue
        limit = cat.max_age.get(p.get("metal"))
        if p["carrier"] not in carriers or not sold_in(p, county) or (limit is not None and oldest > limit):
            continue
        total, _ = premium(cat, p["id"], county, members, effective)
        if p["carrier"] == current["carrier"] and p.get("metal") == current.get("metal"):
            closeness = 0
        elif p.get("network") == current.get("network"):
            closeness = 1
        else:
            closeness = 2
        found.append((closeness, total, p["id"]))
    return [i for _, _, i in sorted(found)[:n]]


def date(text):
    return datetime.date.fromisoformat(str(text))
