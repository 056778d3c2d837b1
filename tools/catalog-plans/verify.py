#!/usr/bin/env python3
"""Check rules/catalog/ as a whole and print a summary (needs PyYAML: `pip install pyyaml`).

    python3 tools/catalog-plans/verify.py

Independent of generate.py: it reads the YAML files as they are (hand edits included) and checks
what the catalog promises -- every county in one rating area with its real FIPS code, every ZIP
pointing at known counties and every county reachable from a ZIP, every plan with 16 area rates,
benefit amounts within the plan year's legal limits (read from `<year>/limits.yaml`, the same file
the Rust loader checks against), plan ids unique and each year wholly on one side of the drug-list
split, and at least a dozen medical plans in each county. Plan years are the catalog's year folders,
so a new year (2026) needs no edit here. The Rust loader (`enrollflow check`) does its own checks
at load, the legal limits included; this adds the domain ones.
"""

import collections
import os
import sys

import yaml

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
CAT = os.path.join(ROOT, "rules", "catalog")

RATING_AREAS = {
    1: "Monroe, Wayne", 2: "Macomb, Oakland", 3: "St. Clair", 4: "Lenawee, Livingston, Washtenaw",
    5: "Genesee, Lapeer, Shiawassee", 6: "Huron, Sanilac, Tuscola",
    7: "Clinton, Eaton, Hillsdale, Ingham, Jackson", 8: "Arenac, Bay, Gratiot, Saginaw",
    9: "Berrien, Cass, St. Joseph, Van Buren", 10: "Branch, Calhoun, Kalamazoo", 11: "Allegan, Barry",
    12: "Ionia, Kent, Lake, Mason, Mecosta, Montcalm, Muskegon, Newaygo, Oceana, Osceola, Ottawa",
    13: "Clare, Gladwin, Isabella, Midland",
    14: "Antrim, Benzie, Charlevoix, Emmet, Grand Traverse, Kalkaska, Leelanau, Manistee, Missaukee, Wexford",
    15: "Alcona, Alpena, Cheboygan, Chippewa, Crawford, Iosco, Mackinac, Montmorency, Ogemaw, Oscoda, "
        "Otsego, Presque Isle, Roscommon",
    16: "Alger, Baraga, Delta, Dickinson, Gogebic, Houghton, Iron, Keweenaw, Luce, Marquette, Menominee, "
        "Ontonagon, Schoolcraft",
}
FEDERAL = {**{a: 0.765 for a in range(0, 15)}, 15: 0.833, 16: 0.859, 17: 0.885, 18: 0.913, 19: 0.941,
           20: 0.970, 21: 1.0, 22: 1.0, 23: 1.0, 24: 1.0, 25: 1.004, 26: 1.024, 27: 1.048, 28: 1.087,
           29: 1.119, 30: 1.135, 31: 1.159, 32: 1.183, 33: 1.198, 34: 1.214, 35: 1.222, 36: 1.230,
           37: 1.238, 38: 1.246, 39: 1.262, 40: 1.278, 41: 1.302, 42: 1.325, 43: 1.357, 44: 1.397,
           45: 1.444, 46: 1.500, 47: 1.563, 48: 1.635, 49: 1.706, 50: 1.786, 51: 1.865, 52: 1.952,
           53: 2.040, 54: 2.135, 55: 2.230, 56: 2.333, 57: 2.437, 58: 2.548, 59: 2.603, 60: 2.714,
           61: 2.810, 62: 2.873, 63: 2.952, **{a: 3.0 for a in range(64, 121)}}
problems = []


def load(rel):
    with open(os.path.join(CAT, rel), encoding="utf-8") as f:
        return yaml.safe_load(f)


def need(cond, msg):
    if not cond:
        problems.append(msg)
    return bool(cond)


def curve_factor(bands, age):
    for i, b in enumerate(bands):
        to = b.get("to", 10**9 if i == len(bands) - 1 else b["from"])
        if b["from"] <= age <= to:
            return b["factor"]
    return None


# --- counties -----------------------------------------------------------------------------------
cf = load("counties.yaml")
counties = {c["id"]: c for c in cf["counties"]}
need(len(cf["counties"]) == 83 and len(counties) == 83, "counties.yaml must list 83 distinct counties")
fips_order = sorted((c["name"] for c in cf["counties"]), key=lambda n: n.replace("St. ", "Saint "))
for i, name in enumerate(fips_order):
    c = next(c for c in cf["counties"] if c["name"] == name)
    need(c["id"] == 2 * i + 1 and c["fips"] == f"26{2 * i + 1:03d}", f"county {name}: wrong FIPS")
area_of = {n: a for a, s in RATING_AREAS.items() for n in s.split(", ")}
need(len(area_of) == 83, "rating-area table must name 83 counties once each")
for c in cf["counties"]:
    need(area_of.get(c["name"]) == c["rating_area"], f"county {c['name']}: rating area")
need(cf["out_of_state"] == {"id": 999, "name": "Out of State"}, "out_of_state must be 999")

# --- zips ---------------------------------------------------------------------------------------
zips = load("zips.yaml")["zips"]
per_county = collections.Counter()
for z, ids in zips.items():
    need(isinstance(z, str) and len(z) == 5 and z.isdigit() and z[:2] in ("48", "49"), f"ZIP {z!r}")
    need(ids and len(set(ids)) == len(ids), f"ZIP {z}: empty or repeated county")
    need(all(i in counties or i == 999 for i in ids), f"ZIP {z}: unknown county in {ids}")
    need(999 not in ids or (ids[-1] == 999 and len(ids) > 1), f"ZIP {z}: 999 must come last, after a county")
    for i in ids:
        per_county[i] += 1
need(all(per_county[c] >= 1 for c in counties), "every county needs at least one ZIP")

# --- carriers, lists, curves --------------------------------------------------------------------
carriers = load("carriers.yaml")
need([c["id"] for c in carriers["carriers"]] == [1, 2, 3, 4], "carriers 1-4")
split = carriers["drug_list_newer_from_plan_id"]
need(isinstance(split, int), "drug-list split: a plan id")
for c in carriers["carriers"]:
    need(("drug_list" in c) == (c["id"] != 4), f"carrier {c['id']}: drug lists for 1-3 only")
lists = load("lists.yaml")
need([m["id"] for m in lists["metals"]] == [1, 2, 3, 4, 5, 6], "metals 1-6")
need([n["id"] for n in lists["networks"]] == [1, 2, 3], "networks 1-3")
curves = load("age_curves.yaml")["curves"]
for age in range(0, 121):
    need(curve_factor(curves["federal"], age) == FEDERAL[age], f"federal curve at age {age}")
    need(curve_factor(curves["dental"], age) is not None and curve_factor(curves["flat"], age) == 1.0,
         f"dental/flat curve at age {age}")

# --- plans --------------------------------------------------------------------------------------
all_ids = set()
summary = []
years = sorted(int(d) for d in os.listdir(CAT) if d.isdigit() and os.path.isdir(os.path.join(CAT, d)))
need(years, "no plan year folders")
sides = []  # per year: True when its plans link the newer drug lists (ids at or above the split)
for year in years:
    lim = load(f"{year}/limits.yaml")  # ACA OOP, HSA deductible and OOP, optional dental cap
    need(lim["plan_year"] == year, f"{year}/limits: plan_year")
    aca, hsa, dental = lim["medical"]["max_oop"], lim.get("hsa"), lim.get("dental")
    year_sides = set()
    for kind in ("medical", "dental", "vision"):
        f = load(f"{year}/{kind}.yaml")
        need(f["plan_year"] == year, f"{year}/{kind}: plan_year")
        plans = f["plans"]
        by_carrier = collections.Counter(p["carrier"] for p in plans)
        for p in plans:
            tag = f"{year}/{kind} plan {p['id']}"
            need(p["id"] not in all_ids, f"{tag}: id used twice")
            all_ids.add(p["id"])
            year_sides.add(p["id"] >= split)
            need(sorted(p["rates"]) == list(range(1, 17)) and all(r > 0 for r in p["rates"].values()),
                 f"{tag}: rates for areas 1-16")
            need(1 <= p.get("tobacco_factor", 1) <= 1.5, f"{tag}: tobacco factor")
            need(p.get("age_curve", "federal") in curves, f"{tag}: age curve")
            need(p["counties"] == "all" or all(c in counties for c in p["counties"]), f"{tag}: counties")
            need(p["carrier"] in (1, 2, 3, 4), f"{tag}: carrier")
            if kind == "medical":
                need(p["max_ind_oop"] <= aca["self_only"] and p["max_fam_oop"] <= aca["family"], f"{tag}: ACA OOP")
                need(p["max_ind_oop"] <= p["max_2p_oop"] <= p["max_fam_oop"], f"{tag}: OOP order")
                need(p["max_2p_oop"] == min(2 * p["max_ind_oop"], p["max_fam_oop"]), f"{tag}: two-person OOP")
                need(p["ded_ind"] <= p["max_ind_oop"] and p["ded_fam"] <= p["max_fam_oop"], f"{tag}: ded > OOP")
                need((p["ded_out_ind"] == 0) == (p["network"] != 1), f"{tag}: out-of-network deductible")
                need(p["network"] in (1, 2, 3) and p["metal"] in (1, 2, 3, 4, 5, 6), f"{tag}: network/metal")
                if p["hsa"] and need(hsa, f"{tag}: HSA plan but {year}/limits.yaml has no hsa limits"):
                    ded, oop = hsa["min_deductible"], hsa["max_oop"]
                    need(p["ded_ind"] >= ded["self_only"] and p["ded_fam"] >= ded["family"], f"{tag}: HSA ded")
                    need(p["max_ind_oop"] <= oop["self_only"] and p["max_fam_oop"] <= oop["family"],
                         f"{tag}: HSA OOP")
            elif kind == "dental":
                need(p["age_curve"] == "dental", f"{tag}: dental curve")
                if dental:  # no cap given for the year: not checked
                    cap = dental["max_oop"]
                    need(p["max_ind_oop"] <= cap["one_child"] and p["max_fam_oop"] <= cap["two_or_more"],
                         f"{tag}: pediatric dental OOP cap")
                need(p["carrier"] in (1, 2, 4), f"{tag}: dental carriers 1, 2, 4")
            else:
                need(p["plan_type"] in (3, 4) and p["age_curve"] == "flat", f"{tag}: vision type/curve")
                need(all(4 <= r <= 21 for r in p["rates"].values()), f"{tag}: vision rate range")
        line = f"{year} {kind}: {len(plans)} plans, by carrier " + ", ".join(
            f"{c}:{n}" for c, n in sorted(by_carrier.items()))
        if kind == "medical":
            metals = collections.Counter(p["metal"] for p in plans)
            line += "; metals " + ", ".join(f"{m}:{n}" for m, n in sorted(metals.items()))
            line += f"; HSA {sum(p['hsa'] for p in plans)}"
            line += "; networks " + ", ".join(
                f"{n}:{k}" for n, k in sorted(collections.Counter(p['network'] for p in plans).items()))
            served = {c: sum(1 for p in plans if p["counties"] == "all" or c in p["counties"]) for c in counties}
            need(min(served.values()) >= 12, f"{year}: a county has fewer than 12 medical plans")
            lo = min(served.values())
            line += (f"; plans per county {lo}-{max(served.values())} (fewest: "
                     + ", ".join(counties[c]["name"] for c in counties if served[c] == lo) + ")")
        elif kind == "dental":
            line += f"; with vision {sum(p['includes_vision'] for p in plans)}"
        else:
            line += "; plan types " + ", ".join(
                f"{t}:{n}" for t, n in sorted(collections.Counter(p['plan_type'] for p in plans).items()))
        summary.append(line)
    need(len(year_sides) <= 1, f"{year}: plan ids on both sides of the drug-list split {split}")
    sides.extend(year_sides)
need(sides == sorted(sides), f"drug-list split {split}: an earlier year's plans are at or above it")

print(f"counties: {len(counties)} + out of state; ZIPs: {len(zips)}, "
      f"{sum(len(v) > 1 for v in zips.values())} with several counties, "
      f"{sum(999 in v for v in zips.values())} with 999; ZIPs per county {min(per_county[c] for c in counties)}-"
      f"{max(per_county[c] for c in counties)}")
for line in summary:
    print(line)
if problems:
    print(f"{len(problems)} problems:", *problems[:50], sep="\n  ")
    sys.exit(1)
print("ok")
