#!/usr/bin/env python3
"""The engine's benchmark figures beside their targets, from criterion's results.

Usage: engine_targets.py CRITERION_DIR

Reads each benchmark's mean from CRITERION_DIR/<benchmark>/new/estimates.json (written by
`cargo bench -p enrollflow-engine-tools --bench engine`), prints one line per benchmark with its target,
and exits 1 when a target is missed. A benchmark that did not run is reported as missing (exit 1).
"""

import json
import sys
from pathlib import Path

# (title prefix, kind, limit): "time" in microseconds (at most), "rate" in elements per second
# (at least), None for a figure reported without a target.
TARGETS = [
    ("step_view census (15 dependents)", "time", 50),
    ("step_view whyApplying", "time", 50),
    ("step_view rap (family of 3)", "time", 50),
    ("submit census (15 dependents)", "time", 100),
    ("submit whyApplying (family of 3)", "time", None),
    ("submit census (family of 3)", "time", None),
    ("submit subInfo (family of 3)", "time", None),
    ("submit other (family of 3)", "time", None),
    ("submit rap (family of 3)", "time", None),
    ("quote 6 people", "time", 10),
    ("scenarios/one thread: all suites", "rate", None),
    ("scenarios/all suites", "rate", 2000),
    # 100,000 submissions renewed within a minute.
    ("renewals/one thread", "rate", 1667),
]


def results(root: Path):
    """title -> (mean in ns, elements per iteration or None)"""
    out = {}
    for bench in root.glob("**/new/benchmark.json"):
        meta = json.loads(bench.read_text())
        estimates = json.loads((bench.parent / "estimates.json").read_text())
        elements = (meta.get("throughput") or {}).get("Elements")
        out[meta["full_id"]] = (estimates["mean"]["point_estimate"], elements)
    return out


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    found = results(Path(sys.argv[1]))
    missed = 0
    print(f"{'benchmark':<52} {'measured':>14} {'target':>14}  result")
    for prefix, kind, limit in TARGETS:
        match = [(k, v) for k, v in found.items() if k.startswith(prefix)]
        if not match:
            print(f"{prefix:<52} {'did not run':>14} {'':>14}  MISSING")
            missed += 1
            continue
        title, (mean_ns, elements) = match[0]
        if kind == "rate":
            value = (elements or 0) / (mean_ns / 1e9)
            shown = f"{value:,.0f}/s"
            wanted = f">= {limit:,}/s" if limit else ""
            ok = limit is None or value >= limit
        else:
            value = mean_ns / 1000
            shown = f"{value:,.1f} µs"
            wanted = f"<= {limit} µs" if limit else ""
            ok = limit is None or value <= limit
        verdict = "" if limit is None else ("ok" if ok else "MISSED")
        missed += 0 if ok else 1
        print(f"{title[:52]:<52} {shown:>14} {wanted:>14}  {verdict}")
    if missed:
        print(f"{missed} target(s) missed", file=sys.stderr)
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
