#!/usr/bin/env python3
"""The literals check: the wizard's shape is data, so the code names no step, carrier,
reason or plan year. Fails on such a literal in server/src, engine/src, engine-tools/src or web/src
outside tests:

- a step id of rules/flows/*.flow.yaml as a quoted string ("census", 'rap');
- a carrier's name or short name, or a carrier flag (`agent_flag`), of rules/catalog/carriers.yaml
  as a quoted string;
- an enrollment reason id (`oe`, `qle`, … of rules/scripts/enrollment.rhai) as a quoted string;
- a plan year (a year folder of rules/catalog/ or a year of rules/calendar.yaml) as a number or a
  quoted string;
- a step id inside a string: a JSON path of SQL (`data->'census'`, `data #> '{census,…}'`) or a
  route (`"/census"`, `'/census/…'`);
- a catalog id written as a number where the code compares a network, metal, carrier or enrollment
  period (`network == Some(2)`, `carrier_id != 3`): those ids are rules/catalog data.

Tests are not read: Rust test modules (`#[cfg(test)] mod tests { … }` at a file's end, tests.rs),
web/src/**/*.test.ts(x) and web/src/testing/. Comments are not read. Each exception the code still
has is in ALLOWED with its reason; an entry that no longer matches anything fails too, so the list
only shrinks.

Usage: tools/literals/check.py [repo root]   (run by `make check`)
"""
import re
import sys
from pathlib import Path

# (path, literal) -> why the code may still say it.
ALLOWED = {
    ("server/src/main.rs", "2024"): "the demo data's random seed, not a plan year",
    ("server/src/demo_data/mod.rs", "2024"): "the demo data's random seed, not a plan year",
    ("server/src/http/print.rs", "review"): "the name of the hand-built Review Selections page (a flow step's `page:`), not a step id",
    ("web/src/features/workbench/utils/build-preview-request.ts", "oe"):
        "the workbench preview's sample application context, which the analyst edits",
    ("server/src/http/documents.rs", "qle"):
        "the spec API's upload field (`enrollment_type` must be `qle`), not a reason the code decides on",
    ("server/src/http/site.rs", "display_bcbsm"): "the spec's branding API field, read from the agent's flags",
    ("server/src/http/site.rs", "display_ph"): "the spec's branding API field, read from the agent's flags",
    ("server/src/db/dashboard.rs", "enrollment_period_type_id == Some(1"):
        "the spec's OEP/SEP badge of the Submissions list, read from the period type the rules derive "
        "(rules/scripts/enrollment.rhai gives open enrollment 1); to move into the flow's summary",
}


def strip_rust(text: str) -> str:
    cut = re.search(r"^#\[cfg\(test\)\]\s*\n\s*mod tests\b", text, re.M)
    if cut:
        text = text[: cut.start()]
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r"(?m)//[^\n]*", "", text)


def strip_ts(text: str) -> str:
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r"(?m)(^|[^:])//[^\n]*", r"\1", text)


def rule_words(root: Path):
    flows = "".join(p.read_text() for p in sorted((root / "rules/flows").glob("*.flow.yaml")))
    steps = set(re.findall(r"^\s*-\s*id:\s*([A-Za-z_][A-Za-z0-9_]*)", flows, re.M))
    carriers_yaml = (root / "rules/catalog/carriers.yaml").read_text()
    carriers = set(re.findall(r"^\s*(?:name|short_name):\s*\"?([^\"\n#]+?)\"?\s*(?:#.*)?$", carriers_yaml, re.M))
    flags = set(re.findall(r"agent_flag:\s*([A-Za-z_][A-Za-z0-9_]*)", carriers_yaml))
    enrollment = (root / "rules/scripts/enrollment.rhai").read_text()
    reasons = set(re.findall(r"id:\s*\"([a-z_]+)\"", enrollment))
    years = {p.name for p in (root / "rules/catalog").iterdir() if p.is_dir() and p.name.isdigit()}
    years |= set(re.findall(r"\b(20\d\d)\b", (root / "rules/calendar.yaml").read_text()))
    return steps, carriers | flags, reasons, years


def files(root: Path):
    for base in ("server/src", "engine/src", "engine-tools/src"):
        if not (root / base).is_dir():
            continue
        for p in sorted((root / base).rglob("*.rs")):
            if p.name == "tests.rs":
                continue
            yield p, strip_rust(p.read_text())
    for p in sorted((root / "web/src").rglob("*")):
        rel = p.relative_to(root).as_posix()
        if p.suffix not in (".ts", ".tsx") or ".test." in p.name or "/testing/" in rel or p.name.endswith(".gen.ts"):
            continue
        yield p, strip_ts(p.read_text())


# The engine's plan kinds (PlanKind: medical, dental, vision) name the plan pages' products and the
# catalog's files; a step or a reason may share the word without being named by it.
PLAN_KINDS = {"medical", "dental", "vision"}


# A network, metal, carrier or enrollment period compared with a number (`== Some(2)`, `!= 3`).
NUMERIC_ID = re.compile(
    r"\b\w*(?:network|metal|carrier_id|period_type)\w*\s*(?:==|!=)\s*(?:Some\(\s*)?\d+\b"
)


def findings(root: Path):
    steps, carriers, reasons, years = rule_words(root)
    steps -= PLAN_KINDS
    reasons -= PLAN_KINDS
    quoted = {w: "a step id" for w in steps}
    quoted.update({w: "a carrier" for w in carriers})
    quoted.update({w: "an enrollment reason" for w in reasons})
    out = []
    for p, text in files(root):
        rel = p.relative_to(root).as_posix()
        for m in re.finditer(r"([\"'`])((?:\\.|(?!\1).)*)\1", text):
            word = m.group(2)
            if word in quoted:
                out.append((rel, text.count("\n", 0, m.start()) + 1, word, quoted[word]))
            elif word in years:
                out.append((rel, text.count("\n", 0, m.start()) + 1, word, "a plan year"))
        for m in re.finditer(r"([\"'`])((?:\\.|(?!\1).)*)\1", text):
            inside = m.group(2)
            line = text.count("\n", 0, m.start()) + 1
            # A step id as a JSON path of SQL, or as a route of the wizard.
            for sql in re.finditer(r"(?:->>?\s*'|#>>?\s*'\{|'\{)([A-Za-z_][A-Za-z0-9_]*)", inside):
                if sql.group(1) in steps:
                    out.append((rel, line, sql.group(1), "a step id in an SQL path"))
            route = re.fullmatch(r"/([A-Za-z_][A-Za-z0-9_]*)(?:[/?#].*)?", inside)
            if route and route.group(1) in steps:
                out.append((rel, line, route.group(1), "a step's route"))
        for m in re.finditer(NUMERIC_ID, text):
            out.append((rel, text.count("\n", 0, m.start()) + 1, m.group(0), "a catalog id as a number"))
        for m in re.finditer(r"(?<![\w.\-/])(20\d\d)(?![\w.\-/])", text):
            if m.group(1) in years and not re.search(r"[\"'`]", text[max(0, m.start() - 1) : m.start()]):
                out.append((rel, text.count("\n", 0, m.start()) + 1, m.group(1), "a plan year"))
    return out


def main() -> int:
    root = Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    found = findings(root)
    used = set()
    bad = []
    for rel, line, word, what in found:
        if (rel, word) in ALLOWED:
            used.add((rel, word))
            continue
        bad.append(f"{rel}:{line}: `{word}` is {what}: it belongs in rules/ or forms/ (tools/literals/check.py)")
    stale = [f"tools/literals/check.py: ALLOWED names `{w}` in {r}, which no longer says it" for (r, w) in ALLOWED if (r, w) not in used]
    for line in bad + stale:
        print(line)
    if bad or stale:
        return 1
    print(f"literals: no step, carrier, reason or plan year named in server/src, engine/src, engine-tools/src or web/src ({len(used)} allowed)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
