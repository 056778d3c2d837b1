#!/usr/bin/env python3
"""Extract the yearly-cost utilization table: writes rules/yearly_cost/utilization.yaml.

What it reads: the CMS out-of-pocket cost calculator workbook `OOPCCalcV37D20160527C3EXP.xlsm`
(CMSgov/oopc-calculations, initial commit febbfe583a5b65f0a7adcbae0c26b4190a2465db, blob
bc8ed6b892060f576bec7fe461540aecf6a70d1d; US-Government work, public domain / CC0 1.0), and in it the
hidden sheet "Utilization Table" (found by name through xl/workbook.xml and its relationships; it is
xl/worksheets/sheet10.xml), with the shared strings of xl/sharedStrings.xml. See
docs/yearly-cost-sources.md section 1.1 for the sheet's columns.

What it writes: for each of the 7 age groups x sex F/M x the three levels Low / Medium / High
(Low = "Decile 3", Medium = "Decile 5.5", High = "Decile 10"; male 18-25 Low = "Decile 4", the table
has no Decile 3 row for it), the unit cost (column H, $ allowed per unit) and the utilization
(column I, units per member per year) of the 26 services in use (the table's 27 minus op_er_prof,
which is "< not in use >" and zero everywhere), under this repository's service keys.

How to run it (from anywhere; Python 3 standard library and `git` only):

    python3 tools/yearly-cost/extract_utilization.py
        # reads the blob from the git mirror /work/.mirror/CMSgov+oopc-calculations/repo
    python3 tools/yearly-cost/extract_utilization.py --mirror PATH/TO/oopc-calculations.git
    python3 tools/yearly-cost/extract_utilization.py --xlsm PATH/TO/OOPCCalcV37D20160527C3EXP.xlsm
    python3 tools/yearly-cost/extract_utilization.py --check    # verify only, write nothing
    python3 tools/yearly-cost/extract_utilization.py --out OTHER.yaml

Deterministic: the same workbook gives a byte-identical file (fixed orders, each number written as the
shortest decimal that reads back as the same double as the cell's text). Before writing it checks
that the total allowed cost per person (the sum of unit cost x utilization over the services) of each
of the 42 (age group, sex, level) cells equals, to the cent, the "Loader check" table of
docs/yearly-cost-sources.md section 1.1 (embedded below), and prints a summary.
"""

import argparse
import io
import os
import posixpath
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
import zipfile
from decimal import Decimal

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
DEFAULT_OUT = os.path.join(ROOT, "rules", "yearly_cost", "utilization.yaml")
DEFAULT_MIRROR = "/work/.mirror/CMSgov+oopc-calculations/repo"

REPOSITORY = "CMSgov/oopc-calculations"
WORKBOOK = "OOPCCalcV37D20160527C3EXP.xlsm"
BLOB = "bc8ed6b892060f576bec7fe461540aecf6a70d1d"
COMMIT = "febbfe583a5b65f0a7adcbae0c26b4190a2465db"
SHEET = "Utilization Table"
EXPECTED_TITLE = (
    "2014 Utilization Table - 7 Age Groups, 2 Genders, 11 Utilization Levels*, 27 Services 3/7/16 Run"
)

AGE_GROUPS = [("0-5", 0), ("6-17", 6), ("18-25", 18), ("26-34", 26), ("35-44", 35), ("45-54", 45), ("55+", 55)]
SEXES = ["F", "M"]
LEVELS = ["low", "medium", "high"]
DECILES = {"low": "Decile 3", "medium": "Decile 5.5", "high": "Decile 10"}
# The table has no "Decile 3" row for men aged 18-25; the workbook's Control sheet uses Decile 4.
DECILE_EXCEPTIONS = {("18-25", "M", "low"): "Decile 4"}

# The 27 services in the workbook's order (Calculator rows 49-75), with this repository's keys;
# op_er_prof (None) is "< not in use >", zero in every row, and left out.
SERVICES = [
    ("ip_fac", "inpatient_facility"),
    ("ip_prof", "inpatient_physician"),
    ("op_ambulance", "ambulance"),
    ("op_chiro", "chiropractic"),
    ("op_ct_mri", "imaging"),
    ("op_diagnostic_cardiology", "diagnostic_cardiology"),
    ("op_dialysis", "dialysis"),
    ("op_dme", "medical_equipment"),
    ("op_er_fac", "emergency_room"),
    ("op_er_prof", None),
    ("op_eye", "eye_exam"),
    ("op_jcode", "chemotherapy"),
    ("op_lab", "lab"),
    ("op_mh", "mental_health"),
    ("op_op_fac", "outpatient_facility"),
    ("op_other", "other"),
    ("op_prev", "preventive"),
    ("op_primcare", "primary_care"),
    ("op_rehab", "rehabilitation"),
    ("op_speccare", "specialist"),
    ("op_surg", "outpatient_surgery"),
    ("op_ultrasound", "ultrasound"),
    ("op_xray", "xray"),
    ("rx_generic", "generic_drugs"),
    ("rx_pbrand", "preferred_brand_drugs"),
    ("rx_npbrand", "non_preferred_brand_drugs"),
    ("rx_specialty", "specialty_drugs"),
]
USED = [(cms, key) for cms, key in SERVICES if key is not None]

# Column J's abbreviations, spelled out (and lower-cased) for the file.
UNITS = {
    "Hosp Days": "hospital days",
    "Hosp Adm": "hospital admissions",
    "Prov Visits": "provider visits",
    "Lab Tests": "lab tests",
    "Scripts": "scripts",
    "Other": "other",
}

# docs/yearly-cost-sources.md 1.1 "Loader check": total allowed $/yr per person, (low, medium, high)
# for F then M, with the drug (rx_*) subtotal.
LOADER_CHECK = {
    "0-5": {"F": [(481.84, 35.56), (1161.80, 106.37), (27622.93, 1026.14)],
            "M": [(533.93, 41.19), (1334.07, 134.33), (33699.00, 1371.35)]},
    "6-17": {"F": [(221.75, 19.90), (683.59, 102.19), (18909.35, 3825.20)],
             "M": [(205.24, 17.13), (679.21, 99.91), (20268.60, 5175.40)]},
    "18-25": {"F": [(358.53, 90.46), (1259.09, 389.63), (29259.77, 3573.89)],
              "M": [(11.90, 3.08), (289.80, 42.74), (24084.96, 4649.90)]},
    "26-34": {"F": [(645.85, 152.48), (1990.72, 531.49), (39803.06, 6013.49)],
              "M": [(7.74, 3.20), (440.18, 69.46), (24889.28, 6685.91)]},
    "35-44": {"F": [(659.78, 125.05), (1972.08, 474.86), (46357.06, 10109.29)],
              "M": [(138.06, 26.71), (785.72, 164.27), (34578.49, 9483.67)]},
    "45-54": {"F": [(920.71, 183.02), (2669.20, 694.05), (57286.60, 13523.36)],
              "M": [(329.99, 63.17), (1568.42, 450.14), (52178.89, 13708.44)]},
    "55+": {"F": [(1291.07, 309.49), (3678.49, 1171.15), (70944.80, 15530.56)],
            "M": [(797.03, 214.22), (3059.26, 1063.70), (80921.08, 16923.24)]},
}

NS = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
REL_NS = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
PKG_REL_NS = "{http://schemas.openxmlformats.org/package/2006/relationships}"


def fail(message):
    sys.exit("extract_utilization: " + message)


def read_workbook_bytes(args):
    if args.xlsm:
        with open(args.xlsm, "rb") as f:
            return f.read(), os.path.basename(args.xlsm)
    try:
        out = subprocess.run(["git", "-C", args.mirror, "cat-file", "-p", args.blob],
                             check=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        detail = e.stderr.decode(errors="replace").strip() if hasattr(e, "stderr") and e.stderr else str(e)
        fail("cannot read blob %s from %s: %s (pass --xlsm FILE or --mirror DIR)" % (args.blob, args.mirror, detail))
    return out, "%s (blob %s)" % (WORKBOOK, args.blob)


def sheet_path(z, name):
    """The zip member of the sheet called `name`, through xl/workbook.xml and its relationships."""
    workbook = ET.fromstring(z.read("xl/workbook.xml"))
    rels = ET.fromstring(z.read("xl/_rels/workbook.xml.rels"))
    targets = {r.get("Id"): r.get("Target") for r in rels.iter(PKG_REL_NS + "Relationship")}
    for sheet in workbook.iter(NS + "sheet"):
        if sheet.get("name") == name:
            target = targets[sheet.get(REL_NS + "id")]
            return target.lstrip("/") if target.startswith("/") else posixpath.normpath(posixpath.join("xl", target))
    fail("no sheet %r in the workbook" % name)


def shared_strings(z):
    try:
        root = ET.fromstring(z.read("xl/sharedStrings.xml"))
    except KeyError:
        return []
    return ["".join(t.text or "" for t in si.iter(NS + "t")) for si in root.iter(NS + "si")]


def read_rows(z, member, strings):
    """{row number: {column letter: cell text}} (shared strings resolved, numbers as their text)."""
    rows = {}
    for row in ET.fromstring(z.read(member)).iter(NS + "row"):
        cells = {}
        for c in row.iter(NS + "c"):
            col = re.match(r"[A-Z]+", c.get("r")).group(0)
            kind = c.get("t")
            v = c.find(NS + "v")
            if kind == "inlineStr":
                cells[col] = "".join(t.text or "" for t in c.iter(NS + "t"))
            elif v is not None and v.text is not None:
                cells[col] = strings[int(v.text)] if kind == "s" else v.text
        rows[int(row.get("r"))] = cells
    return rows


def number(text):
    """The shortest decimal that reads back as the same double, never in exponent form."""
    s = repr(float(text))
    if "e" in s or "E" in s:
        s = format(Decimal(s), "f")
        if "." not in s:
            s += ".0"
    return s


def extract(rows):
    title = rows.get(1, {}).get("A", "")
    header = rows.get(3, {})
    want = {"A": "Key", "B": "Age Group", "C": "Gender", "E": "Utilization Level", "G": "Service",
            "H": "Unit Cost", "I": "Utilization (PMPY)", "J": "Units"}
    for col, text in want.items():
        if header.get(col) != text:
            fail("row 3 column %s is %r, expected %r" % (col, header.get(col), text))
    by_key = {}
    for r in sorted(rows):
        if r < 4:
            continue
        cells = rows[r]
        key = cells.get("A")
        if not key or cells.get("G") is None or cells.get("E") is None:
            continue
        if key in by_key:
            fail("key %r appears twice (rows %d and %d)" % (key, by_key[key][0], r))
        by_key[key] = (r, cells)
    table = {}
    units = {}
    for age, _ in AGE_GROUPS:
        for sex in SEXES:
            for level in LEVELS:
                decile = DECILE_EXCEPTIONS.get((age, sex, level), DECILES[level])
                cell = {}
                for cms, name in SERVICES:
                    key = age + sex + decile + cms
                    if key not in by_key:
                        fail("no row for %r" % key)
                    r, cells = by_key[key]
                    if (cells.get("B"), cells.get("C"), cells.get("E"), cells.get("G")) != (age, sex, decile, cms):
                        fail("row %d (%r) does not match its key" % (r, key))
                    h, i = cells.get("H", "0"), cells.get("I", "0")
                    if name is None:
                        if float(h) * float(i) != 0.0:
                            fail("%s is not zero in row %d" % (cms, r))
                        continue
                    unit = UNITS.get(cells.get("J"))
                    if unit is None:
                        fail("row %d: unknown units %r" % (r, cells.get("J")))
                    if units.setdefault(name, unit) != unit:
                        fail("%s has units %r and %r" % (cms, units[name], unit))
                    cell[name] = (number(h), number(i))
                table[(age, sex, level)] = cell
    return title, table, units


def check_totals(table):
    """Asserts the 42 loader-check totals; returns the summary lines."""
    lines = []
    bad = []
    for age, _ in AGE_GROUPS:
        for sex in SEXES:
            parts = []
            for n, level in enumerate(LEVELS):
                cell = table[(age, sex, level)]
                total = sum(float(h) * float(i) for h, i in cell.values())
                rx = sum(float(h) * float(i) for name, (h, i) in cell.items() if name.endswith("_drugs"))
                want_total, want_rx = LOADER_CHECK[age][sex][n]
                ok = round(total, 2) == round(want_total, 2) and round(rx, 2) == round(want_rx, 2)
                if not ok:
                    bad.append("%s %s %s: %.2f (%.2f), doc says %.2f (%.2f)" % (age, sex, level, total, rx, want_total, want_rx))
                parts.append("%s %10.2f (%8.2f)%s" % (level, total, rx, "" if ok else " MISMATCH"))
            lines.append("  %-5s %s  %s" % (age, sex, "  ".join(parts)))
    if bad:
        fail("loader check failed:\n  " + "\n  ".join(bad))
    return lines


def render(title, table, units):
    out = io.StringIO()
    w = out.write
    w("# Utilization table for the yearly cost estimate: for each age group, sex and use level, the allowed\n")
    w("# cost per unit (first number, $) and the units per member per year (second number) of 26 services.\n")
    w("# Read by the engine's yearly-cost loader; the estimate spreads these amounts over a plan's deductibles,\n")
    w("# copays, coinsurance and out-of-pocket maximums (docs/yearly-cost-sources.md, sections 1 and 2).\n")
    w("#\n")
    w("# Source: %s, the CMS out-of-pocket cost calculator workbook %s\n" % (REPOSITORY, WORKBOOK))
    w("# (git blob %s, commit %s), hidden sheet \"%s\",\n" % (BLOB, COMMIT, SHEET))
    w("# title cell A1: \"%s\".\n" % title)
    w("# Columns used: H \"Unit Cost\" and I \"Utilization (PMPY)\"; J \"Units\" gives each service's unit.\n")
    w("# License: US-Government work, public domain in the US, CC0 1.0 worldwide (the repository's LICENSE.md).\n")
    w("#\n")
    w("# Levels: low = \"Decile 3\", medium = \"Decile 5.5\", high = \"Decile 10\", except men 18-25 low = \"Decile 4\"\n")
    w("# (the table has no Decile 3 row for them; the workbook's Control sheet uses Decile 4). The table's 27th\n")
    w("# service, op_er_prof, is \"< not in use >\" and zero everywhere, so it is left out.\n")
    w("#\n")
    w("# GENERATED by tools/yearly-cost/extract_utilization.py from the workbook; do not edit by hand.\n")
    w("# Analysts may replace this file with a newer utilization table in the same shape (same age groups,\n")
    w("# sexes, levels and service keys; [unit cost, utilization] per service); re-running the script then\n")
    w("# overwrites it with the 2014 table again.\n")
    w("source: \"%s, sheet %s: %s\"\n" % (WORKBOOK, SHEET, title.replace("\\", "\\\\").replace("\"", "\\\"")))
    w("age_groups: [%s]\n" % ", ".join('{ name: "%s", from: %d }' % (name, start) for name, start in AGE_GROUPS))
    w("services:\n")
    for cms, name in USED:
        w("  %s: { cms: %s, units: %s }\n" % (name, cms, units[name]))
    w("table:\n")
    for age, _ in AGE_GROUPS:
        w("  \"%s\":\n" % age)
        for sex in SEXES:
            w("    %s:\n" % sex)
            for level in LEVELS:
                cell = table[(age, sex, level)]
                items = ", ".join("%s: [%s, %s]" % (name, cell[name][0], cell[name][1]) for _, name in USED)
                w("      %s: { %s }\n" % (level, items))
    return out.getvalue()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--xlsm", help="read this .xlsm file instead of the git mirror")
    parser.add_argument("--mirror", default=DEFAULT_MIRROR, help="git directory of CMSgov/oopc-calculations")
    parser.add_argument("--blob", default=BLOB, help="blob id of the workbook in the mirror")
    parser.add_argument("--out", default=DEFAULT_OUT, help="file to write (default rules/yearly_cost/utilization.yaml)")
    parser.add_argument("--check", action="store_true", help="verify only; write nothing")
    args = parser.parse_args()

    data, label = read_workbook_bytes(args)
    z = zipfile.ZipFile(io.BytesIO(data))
    member = sheet_path(z, SHEET)
    rows = read_rows(z, member, shared_strings(z))
    title, table, units = extract(rows)
    if title != EXPECTED_TITLE:
        print("note: title cell A1 is %r (this script was written against %r)" % (title, EXPECTED_TITLE))
    summary = check_totals(table)
    print("read %s, sheet %r = %s" % (label, SHEET, member))
    print("%d cells (7 age groups x 2 sexes x 3 levels) x %d services; totals allowed $/yr (drugs):" % (len(table), len(USED)))
    print("\n".join(summary))
    print("loader check: all %d totals and drug subtotals equal docs/yearly-cost-sources.md 1.1 to the cent" % len(table))
    text = render(title, table, units)
    if args.check:
        print("--check: nothing written")
        return
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    print("wrote %s (%d bytes)" % (os.path.relpath(args.out, os.getcwd()), len(text.encode("utf-8"))))


if __name__ == "__main__":
    main()
