#!/usr/bin/env python3
"""Latency of every step call of the consumer wizard, one shopper at a time (issue 5's p95 target).

Walks N whole journeys (landing -> census -> quote -> select -> subscriber info -> other questions ->
purchase) against a running server and prints p50/p95/max per call. Standard library only.
Usage: step_latency.py http://127.0.0.1:PORT acme.localhost:PORT [journeys]
"""
import statistics
import sys
from collections import defaultdict

from client import Session, journey, percentile

base, host = sys.argv[1], sys.argv[2]
journeys = int(sys.argv[3]) if len(sys.argv) > 3 else 50
timings = defaultdict(list)
for _ in range(journeys):
    journey(Session(base, host, timings))

print(f"{journeys} journeys, one at a time; milliseconds per call")
print(f"{'call':34} {'p50':>7} {'p95':>7} {'max':>7}")
worst = 0.0
for label, samples in timings.items():
    ms = sorted(t for t, _ in samples)
    p95 = percentile(ms, 0.95)
    worst = max(worst, p95)
    print(f"{label:34} {statistics.median(ms):7.2f} {p95:7.2f} {ms[-1]:7.2f}")
print(f"slowest p95: {worst:.2f} ms")
