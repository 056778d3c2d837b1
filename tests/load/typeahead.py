#!/usr/bin/env python3
"""Latency of the doctors-and-drugs typeahead: names, specialties, cities and NPIs of the demo
files typed a letter at a time (from the second letter, as the page asks), one request at a time,
provider and drug searches alternating; prints p50/p95/max per kind and exits 1 when a p95 is over
TARGET_MS (20). Standard library only.
Usage: typeahead.py http://127.0.0.1:PORT acme.localhost:PORT DEMO_FOLDER
"""
import json
import os
import random
import sys
import urllib.parse
from pathlib import Path

from client import Session, percentile

TARGET_MS = float(os.environ.get("TARGET_MS", "20"))
WORDS = int(os.environ.get("WORDS", "150"))


def samples(folder):
    rng = random.Random(7)
    providers, drugs = [], []
    for issuer in sorted(Path(folder).iterdir()):
        for f in sorted(issuer.glob("providers-*.json")):
            for p in json.loads(f.read_text())[:400]:
                if p.get("type") == "INDIVIDUAL":
                    providers.append(p["name"]["last"])
                    providers.append(p["name"]["first"] + " " + p["name"]["last"][:3])
                else:
                    providers.append(p.get("facility_name", ""))
                providers.append(p["npi"])
                if p.get("specialty"):
                    providers.append(p["specialty"][0])
        for d in json.loads((issuer / "drugs.json").read_text())[:500]:
            drugs.append(d["drug_name"])
    rng.shuffle(providers)
    rng.shuffle(drugs)
    return providers[:WORDS], drugs[:WORDS]


def main():
    base, host, folder = sys.argv[1], sys.argv[2], sys.argv[3]
    providers, drugs = samples(folder)
    s = Session(base, host)
    s.start()
    s.call("PUT step whyApplying", "PUT", "/api/application/step/whyApplying", {"enrollment_type": "oe"})
    for kind, words in (("providers", providers), ("drugs", drugs)):
        for w in words:
            for n in range(2, min(len(w), 12) + 1):
                q = urllib.parse.quote(w[:n])
                s.call(f"GET coverage/{kind}", "GET", f"/api/coverage/{kind}?q={q}")
    failed = False
    for label, calls in sorted(s.timings.items()):
        ms = sorted(t[0] for t in calls)
        p95 = percentile(ms, 0.95)
        print(f"{label:28} n={len(ms):5}  p50={percentile(ms, 0.5):6.2f} ms  p95={p95:6.2f} ms  max={ms[-1]:6.2f} ms"
              f"  (target p95 <= {TARGET_MS:g} ms){'  MISSED' if p95 > TARGET_MS else ''}")
        failed |= p95 > TARGET_MS
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
