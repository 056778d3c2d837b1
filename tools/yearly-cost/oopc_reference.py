#!/usr/bin/env python3
"""Reference implementation of the yearly cost estimate, to check the engine's fixture against.

A clean re-implementation of the CMS out-of-pocket cost calculator's algorithm as
docs/yearly-cost-sources.md section 2 describes it (the workbook's VBA Module3.CalcOOPC3, the same as
oopc.go's runCalculation): DedLogic 2 (copays and coinsurance count toward the maximum only, never
toward the deductible), the deductible/maximum groups of section 2.1 (one plan-level group with the
individual amount for a household of one; the family amount plus, when the plan has a per-person amount
(embedded), one group per member for larger households), free primary-care visits, per-day (with a
maximum number of days) and per-stay inpatient copays, the per-script cap on specialty-drug
coinsurance, and the "equivalent coinsurance" of `other` (TCSRate: the allowed-cost-weighted average
cost-sharing rate of all other services of the whole household, one rate for every member; a rate per
member does not reproduce the workbook's case). ACMult = 1 and UtilIndex = 1 (the Control sheet).

It reads rules/yearly_cost/utilization.yaml (tools/yearly-cost/extract_utilization.py writes it) and
engine/tests/fixtures/oopc_cases.yaml, computes every case and prints its values next to the expected
ones; for the workbook's own case it also prints person 1's allowed cost and member cost sharing per
service next to the workbook's (docs section 3) and the workbook's unrounded totals.

    python3 tools/yearly-cost/oopc_reference.py
    python3 tools/yearly-cost/oopc_reference.py --utilization FILE --cases FILE
    python3 tools/yearly-cost/oopc_reference.py --no-pyyaml     # use the built-in reader even if PyYAML is there
    python3 tools/yearly-cost/oopc_reference.py --member-equiv-rate   # `other` at each member's own rate
                                                # (the wrong reading: shows which cases it breaks)

Python 3 standard library only (PyYAML is used when installed; otherwise a small reader for exactly the
shape of these two files). Deterministic. Exit status 1 when a case's out-of-pocket cost differs from
the fixture by more than $0.01 (every other value is reported, and also compared to the cent).
"""

import argparse
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
UTILIZATION = os.path.join(ROOT, "rules", "yearly_cost", "utilization.yaml")
CASES = os.path.join(ROOT, "engine", "tests", "fixtures", "oopc_cases.yaml")

DRUGS = ("generic_drugs", "preferred_brand_drugs", "non_preferred_brand_drugs", "specialty_drugs")
EQUIV = "other"  # the one service with UseEquivCoins = yes
NO_MAX_DAYS = 10000.0  # workbook: blank InpCopMaxDays -> 10000
NO_SPECIALTY_CAP = 1e6  # workbook: blank SpecRXMaxCoins -> 1e6

# docs/yearly-cost-sources.md section 3: the workbook's own case (plan A, household C2), per service
# (CMS name: allowed cost, member cost sharing) for person 1 (55+ M medium), and its unrounded totals.
SOURCE_PERSON_1 = {
    "ip_fac": (0.7795, 0), "ip_prof": (0, 0), "op_ambulance": (3.9512, 0), "op_chiro": (30.3489, 6.30),
    "op_ct_mri": (106.8826, 0), "op_diagnostic_cardiology": (112.1127, 0), "op_dialysis": (0, 0),
    "op_dme": (23.5306, 0), "op_er_fac": (137.4562, 4.75), "op_eye": (24.1901, 1.85), "op_jcode": (0, 0),
    "op_lab": (200.1236, 0), "op_mh": (19.4630, 1.75), "op_op_fac": (110.1507, 2.70),
    "op_other": (160.1466, 12.9443), "op_prev": (321.9728, 0), "op_primcare": (225.9201, 18.85),
    "op_rehab": (65.6077, 0), "op_speccare": (343.7328, 20.60), "op_surg": (53.3052, 0),
    "op_ultrasound": (11.3335, 0), "op_xray": (44.5548, 0), "rx_generic": (432.8968, 157.55),
    "rx_pbrand": (499.8890, 24.2040), "rx_npbrand": (116.3419, 3.4960), "rx_specialty": (14.5739, 0.05),
}
SOURCE_PERSON_2 = {
    "ip_fac": (0, 0), "ip_prof": (0, 0), "op_ambulance": (3.1323, 0), "op_chiro": (39.3193, 8.05),
    "op_ct_mri": (119.6227, 0), "op_diagnostic_cardiology": (104.0229, 0), "op_dialysis": (0, 0),
    "op_dme": (13.4609, 0), "op_er_fac": (146.5395, 5.25), "op_eye": (31.3850, 2.45), "op_jcode": (0, 0),
    "op_lab": (195.8844, 0), "op_mh": (30.3365, 2.85), "op_op_fac": (147.0145, 4.25),
    "op_other": (178.1927, 14.4029), "op_prev": (564.5891, 0), "op_primcare": (253.5879, 21.20),
    "op_rehab": (95.8169, 0), "op_speccare": (399.1240, 25.00), "op_surg": (59.9759, 0),
    "op_ultrasound": (46.2443, 0), "op_xray": (79.0964, 0), "rx_generic": (505.8673, 171.70),
    "rx_pbrand": (528.4616, 30.0147), "rx_npbrand": (122.9918, 4.3353), "rx_specialty": (13.8251, 0.05),
}
SOURCE_TOTALS = {
    "total_cost": 6737.7552900775, "out_of_pocket": 544.5971896293, "plan_cost_sharing": 6193.1581004483,
    "drugs_total_cost": 2234.8473682328, "all_benefit_rate": 0.080827689072,
}

# ---------------------------------------------------------------------------------------------
# A small reader for the YAML subset of the two files: block mappings and sequences by indentation,
# flow mappings/sequences on one line, plain or double-quoted scalars, # comments.
# ---------------------------------------------------------------------------------------------


def _strip_comment(line):
    quoted = False
    for n, ch in enumerate(line):
        if ch == '"':
            quoted = not quoted
        elif ch == "#" and not quoted and (n == 0 or line[n - 1] in " \t"):
            return line[:n].rstrip()
    return line.rstrip()


def _scalar(text):
    text = text.strip()
    if text.startswith('"'):
        if not text.endswith('"') or len(text) < 2:
            raise ValueError("unterminated string: %r" % text)
        return text[1:-1].replace('\\"', '"').replace("\\\\", "\\")
    if text in ("true", "false"):
        return text == "true"
    if text in ("", "~", "null"):
        return None
    if re.fullmatch(r"[-+]?[0-9]+", text):
        return int(text)
    if re.fullmatch(r"[-+]?([0-9]+\.[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?|[-+]?[0-9]+[eE][-+]?[0-9]+", text):
        return float(text)
    return text


def _flow(text, pos):
    """Parses a flow value at text[pos]; returns (value, next position)."""
    while text[pos] == " ":
        pos += 1
    if text[pos] in "{[":
        closing = "}" if text[pos] == "{" else "]"
        result = {} if closing == "}" else []
        pos += 1
        while True:
            while text[pos] == " ":
                pos += 1
            if text[pos] == closing:
                return result, pos + 1
            if closing == "}":
                key, pos = _flow_scalar(text, pos, ":")
                pos += 1  # the colon
                value, pos = _flow(text, pos)
                result[key] = value
            else:
                value, pos = _flow(text, pos)
                result.append(value)
            while text[pos] == " ":
                pos += 1
            if text[pos] == ",":
                pos += 1
            elif text[pos] != closing:
                raise ValueError("expected ',' or %r at %d in %r" % (closing, pos, text))
    return _flow_scalar(text, pos, ",}]")


def _flow_scalar(text, pos, stops):
    start = pos
    if text[pos] == '"':
        pos = text.index('"', pos + 1) + 1
        return _scalar(text[start:pos]), pos
    while pos < len(text) and text[pos] not in stops:
        pos += 1
    return _scalar(text[start:pos]), pos


def _value(text):
    text = text.strip()
    if text.startswith(("{", "[")):
        value, pos = _flow(text, 0)
        if text[pos:].strip():
            raise ValueError("trailing text after %r" % text)
        return value
    return _scalar(text)


def mini_yaml(source):
    lines = []
    for raw in source.splitlines():
        line = _strip_comment(raw)
        if line.strip():
            lines.append((len(line) - len(line.lstrip(" ")), line.strip()))

    def block(n, indent):
        if lines[n][1].startswith("- "):
            items = []
            while n < len(lines) and lines[n][0] == indent and lines[n][1].startswith("- "):
                items.append(_value(lines[n][1][2:]))
                n += 1
            return items, n
        mapping = {}
        while n < len(lines) and lines[n][0] == indent:
            text = lines[n][1]
            if text.startswith('"'):
                end = text.index('"', 1)
                key, rest = text[1:end], text[end + 1:]
            else:
                key, _, rest = text.partition(":")
                rest = ":" + rest
            if not rest.startswith(":"):
                raise ValueError("expected 'key:' in %r" % text)
            rest = rest[1:].strip()
            n += 1
            if rest:
                mapping[key] = _value(rest)
            elif n < len(lines) and lines[n][0] > indent:
                mapping[key], n = block(n, lines[n][0])
            elif n < len(lines) and lines[n][0] == indent and lines[n][1].startswith("- "):
                mapping[key], n = block(n, indent)
            else:
                mapping[key] = None
        return mapping, n

    value, n = block(0, lines[0][0]) if lines else ({}, 0)
    if n != len(lines):
        raise ValueError("unexpected indentation at %r" % (lines[n][1],))
    return value


def load(path, use_pyyaml):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if use_pyyaml:
        try:
            import yaml
        except ImportError:
            pass
        else:
            return yaml.safe_load(text)
    return mini_yaml(text)


# ---------------------------------------------------------------------------------------------
# The algorithm (docs/yearly-cost-sources.md section 2)
# ---------------------------------------------------------------------------------------------


def age_group(age, groups):
    name = None
    for g in groups:
        if age >= g["from"]:
            name = g["name"]
    if name is None:
        raise ValueError("no age group for age %r" % age)
    return name


def in_scope(scope, service):
    if scope == "combined":
        return True
    if scope == "medical":
        return service not in DRUGS
    if scope == "drugs":
        return service in DRUGS
    raise ValueError("unknown scope %r" % scope)


def make_groups(plan, size):
    """Section 2.1: [(kind, scope, person or None, amount)]."""
    groups = []
    for kind, field in (("ded", "deductibles"), ("moop", "maximums")):
        for entry in plan.get(field) or []:
            if size == 1:
                groups.append((kind, entry["scope"], None, float(entry["individual"])))
            else:
                groups.append((kind, entry["scope"], None, float(entry["family"])))
                if entry.get("per_person") is not None:
                    for i in range(size):
                        groups.append((kind, entry["scope"], i, float(entry["per_person"])))
    return groups


def calculate(plan, household, utilization, member_rate=False):
    services = list(utilization["services"])
    free_visits = float(plan.get("free_primary_care_visits") or 0)
    specialty_cap = float(plan.get("specialty_max_per_script") or NO_SPECIALTY_CAP)
    cells = []  # per (i, j): dict
    free_cost = 0.0
    for i, member in enumerate(household):
        table = utilization["table"][age_group(member["age"], utilization["age_groups"])][member["sex"]][member["use"]]
        person = {}
        for j in services:
            ucost, util = (float(x) for x in table[j])
            s = plan["services"][j]
            if j == "primary_care" and free_visits > 0:
                adj = min(util, free_visits)
                util -= adj
                free_cost += adj * ucost
            cctc = ucost * util
            base_copay = float(s.get("copay") or 0)
            copay = base_copay
            coins = float(s.get("coinsurance") or 0) / 100.0
            per = s.get("per")
            if j == "inpatient_facility" and per == "stay":
                admissions = float(table["inpatient_physician"][1])
                copay = base_copay * (admissions / util) if util > 0 else 0.0
            if j == "specialty_drugs" and ucost > 0:
                coins = min(coins, specialty_cap / ucost)
            rate = (copay + coins * ucost) / ucost if ucost > 0 else 0.0
            max_days = float(s.get("max_days") or NO_MAX_DAYS)
            if j == "inpatient_facility" and per == "day" and max_days < util and cctc > 0:
                rate -= (util - max_days) * base_copay / (ucost * util)
            rate = min(rate, 1.0)
            person[j] = {"i": i, "j": j, "ucost": ucost, "util": util, "cctc": cctc, "rate": rate,
                         "ded": bool(s.get("deductible")), "moop": True,
                         "before": bool(s.get("copay_before_deductible")),
                         "spent": 0.0, "ben_ded": 0.0, "ben_cs": 0.0, "plan_cs": 0.0, "plan_moop": 0.0}
        cells.extend(person[j] for j in services)

    # Equivalent coinsurance: `other` gets the allowed-cost-weighted average cost-sharing rate of all the
    # other services of the whole household (TCSRate; one rate, not one per member).
    # (member_rate: one average per member instead, the reading that does NOT reproduce the workbook.)
    def average(of):
        weight = sum(c["cctc"] for c in of if c["j"] != EQUIV)
        return sum(c["rate"] * c["cctc"] for c in of if c["j"] != EQUIV) / weight if weight else 0.0

    household_rate = average(cells)
    for c in cells:
        if c["j"] == EQUIV:
            c["rate"] = average([d for d in cells if d["i"] == c["i"]]) if member_rate else household_rate
        c["dpct"] = 1.0 - c["rate"] if c["before"] else 1.0

    groups = make_groups(plan, len(household))

    def incl(c, g):
        kind, scope, who, _ = g
        return (who is None or who == c["i"]) and in_scope(scope, c["j"]) and (c["ded"] if kind == "ded" else c["moop"])

    members = [[c for c in cells if incl(c, g)] for g in groups]
    rem_ded = [g[3] for g in groups]
    rem_moop = [g[3] for g in groups]
    level = 0.0
    it = 0
    status = {}  # id(cell) -> "ded" | "cs" | "moop"
    while level < 1.0:
        if it > 0:
            candidates = [p for p in next_pct if round(p, 8) > round(level, 8)]
            level = min([1.0] + candidates)
            for c in cells:
                delta = level * c["cctc"] - c["spent"]
                c["spent"] += delta
                st = status[id(c)]
                if st == "ded":
                    c["ben_ded"] += c["dpct"] * delta
                    c["ben_cs"] += (1.0 - c["dpct"]) * delta
                elif st == "cs":
                    c["ben_cs"] += c["rate"] * delta
                    c["plan_cs"] += (1.0 - c["rate"]) * delta
                else:
                    c["plan_moop"] += delta
            for u, g in enumerate(groups):
                rem_ded[u] = round(g[3] - sum(c["ben_ded"] for c in members[u]), 4)
                rem_moop[u] = round(g[3] - sum(c["ben_ded"] + c["ben_cs"] for c in members[u]), 4)
        group_status = []
        for u, g in enumerate(groups):
            if g[0] == "moop" and rem_moop[u] <= 0:
                group_status.append(3)
            elif g[0] == "ded" and rem_ded[u] > 0:
                group_status.append(1)
            elif g[0] == "moop":
                group_status.append(0)
            else:
                group_status.append(2)
        for c in cells:
            best = 0
            for u in range(len(groups)):
                if incl(c, groups[u]):
                    best = max(best, group_status[u])
            status[id(c)] = {1: "ded", 3: "moop"}.get(best, "cs")
        next_pct = []
        for u in range(len(groups)):
            ded_rate = sum(c["cctc"] * c["dpct"] for c in members[u] if status[id(c)] == "ded")
            cs_rate = (sum(c["cctc"] * c["rate"] for c in members[u] if status[id(c)] == "cs")
                       + sum(c["cctc"] * (1.0 - c["dpct"]) for c in members[u] if status[id(c)] == "ded"))
            nd = level + rem_ded[u] / ded_rate if ded_rate > 0 and rem_ded[u] > 0 and group_status[u] == 1 else 1.0
            if (cs_rate >= 0 and ded_rate >= 0 and cs_rate + ded_rate > 0 and rem_moop[u] > 0
                    and group_status[u] in (0, 2)):
                nc = level + rem_moop[u] / (cs_rate + ded_rate)
            else:
                nc = 1.0
            next_pct.append(min(nd, nc))
        it += 1
        if it > 100:
            raise RuntimeError("no solution after 100 iterations")
    spend_steps = it - 1  # the first pass only sets the statuses

    ben_ded = sum(c["ben_ded"] for c in cells)
    ben_cs = sum(c["ben_cs"] for c in cells)
    total = sum(c["cctc"] for c in cells) + free_cost
    return {
        "total_cost": total,
        "deductible": ben_ded,
        "cost_sharing": ben_cs,
        "out_of_pocket": ben_ded + ben_cs,
        "plan_after_maximum": sum(c["plan_moop"] for c in cells),
        "drugs_out_of_pocket": sum(c["ben_ded"] + c["ben_cs"] for c in cells if c["j"] in DRUGS),
        "iterations": spend_steps,
        "plan_cost_sharing": sum(c["plan_cs"] for c in cells) + free_cost,
        "drugs_total_cost": sum(c["cctc"] for c in cells if c["j"] in DRUGS),
        "cells": cells,
    }


# ---------------------------------------------------------------------------------------------

FIELDS = ["total_cost", "deductible", "cost_sharing", "out_of_pocket", "plan_after_maximum", "drugs_out_of_pocket"]
SHORT = {"total_cost": "total", "deductible": "ded", "cost_sharing": "cs", "out_of_pocket": "OOPC",
         "plan_after_maximum": "plan>max", "drugs_out_of_pocket": "rx OOPC"}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--utilization", default=UTILIZATION)
    parser.add_argument("--cases", default=CASES)
    parser.add_argument("--no-pyyaml", action="store_true", help="read the files with the built-in reader")
    parser.add_argument("--member-equiv-rate", action="store_true",
                        help="give `other` each member's own average rate (to show that this reading fails)")
    args = parser.parse_args()
    utilization = load(args.utilization, not args.no_pyyaml)
    fixture = load(args.cases, not args.no_pyyaml)
    cms = {key: spec["cms"] for key, spec in utilization["services"].items()}

    failures = []
    other_diffs = []
    print("%-5s %-3s %-8s  %s  %s" % ("plan", "hh", "source", "  ".join("%21s" % SHORT[f] for f in FIELDS), "iters"))
    print("%-18s  %s" % ("", "  ".join("%21s" % "expected / computed" for _ in FIELDS)))
    for case in fixture["cases"]:
        plan = fixture["plans"][case["plan"]]
        household = fixture["households"][case["household"]]
        got = calculate(plan, household, utilization, args.member_equiv_rate)
        cols = []
        for f in FIELDS:
            want = float(case[f])
            ok = abs(round(got[f], 2) - want) < 0.005
            cols.append("%10.2f/%10.2f%s" % (want, got[f], "" if ok else "!"))
            if not ok:
                (failures if f == "out_of_pocket" else other_diffs).append(
                    "%s %s %s: expected %.2f, computed %.4f" % (case["plan"], case["household"], f, want, got[f]))
        iters_ok = got["iterations"] == case["iterations"]
        if not iters_ok:
            other_diffs.append("%s %s iterations: expected %d, computed %d"
                               % (case["plan"], case["household"], case["iterations"], got["iterations"]))
        print("%-5s %-3s %-8s  %s  %d/%d%s" % (case["plan"], case["household"], case["source"], "  ".join(cols),
                                              case["iterations"], got["iterations"], "" if iters_ok else "!"))

        if case["source"] == "workbook":
            source = (case, got)

    case, got = source
    print()
    print("Workbook case (plan %s, household %s), unrounded totals, workbook vs computed:" % (case["plan"], case["household"]))
    got["all_benefit_rate"] = got["out_of_pocket"] / got["total_cost"]
    for name, want in SOURCE_TOTALS.items():
        diff = got[name] - want
        flag = "" if abs(diff) < 1e-6 else "  !"
        if flag:
            other_diffs.append("workbook case %s: %r vs %r" % (name, want, got[name]))
        print("  %-18s %18.10f %18.10f  diff %.1e%s" % (name, want, got[name], diff, flag))
    for person, expected in ((0, SOURCE_PERSON_1), (1, SOURCE_PERSON_2)):
        member = fixture["households"][case["household"]][person]
        print("Person %d (%s %s %s): service, allowed cost and member cost sharing, workbook vs computed:"
              % (person + 1, member["age"], member["sex"], member["use"]))
        for c in got["cells"]:
            if c["i"] != person:
                continue
            want_cost, want_cs = expected[cms[c["j"]]]
            cs = c["ben_ded"] + c["ben_cs"]
            ok = abs(c["cctc"] - want_cost) < 0.00005 + 1e-9 and abs(cs - want_cs) < 0.00005 + 1e-9
            if not ok:
                other_diffs.append("workbook case person %d %s: %s/%s vs %.4f/%.4f"
                                   % (person + 1, cms[c["j"]], want_cost, want_cs, c["cctc"], cs))
            if person == 0 or not ok:
                print("  %-26s %-26s %10.4f %10.4f   %9.4f %9.4f%s"
                      % (cms[c["j"]], c["j"], want_cost, c["cctc"], want_cs, cs, "" if ok else "  !"))
        if person == 1:
            print("  (person 2: every service equal to the 4th decimal unless listed above)")

    print()
    print("%d cases; out_of_pocket within $0.01: %d; other values differing by a cent or more: %d"
          % (len(fixture["cases"]), len(fixture["cases"]) - len(failures), len(other_diffs)))
    for line in failures + other_diffs:
        print("  " + line)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
