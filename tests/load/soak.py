#!/usr/bin/env python3
"""Whole shopper journeys under load, with agents paging and exporting at the same time.
SHOPPERS journeys start evenly over DURATION seconds, each with think time between pages
(so many are in flight at once); AGENTS agents page their Quoting and Submissions lists and export
every EXPORT_EVERY seconds until the shoppers are done. Reports throughput, p50/p95/p99 and errors
per call, and the server's memory (VmRSS of PIDS, summed) every 10 seconds.
Usage: soak.py BASE_URL[,BASE_URL2] HOST PIDS [SHOPPERS] [DURATION] [AGENTS]
(several base URLs: shoppers and agents are spread over them round-robin.)
Standard library only; exits 1 on any error.
"""
import random
import sys
import threading
import time
from collections import defaultdict

from client import CallFailed, Session, journey, percentile

bases = sys.argv[1].split(",")
host = sys.argv[2]
pids = [p for p in sys.argv[3].split(",") if p]
shoppers = int(sys.argv[4]) if len(sys.argv) > 4 else 500
duration = float(sys.argv[5]) if len(sys.argv) > 5 else 600
agents = int(sys.argv[6]) if len(sys.argv) > 6 else 4
THINK = (0.2, 1.2)
EXPORT_EVERY = 30

lock = threading.Lock()
timings = defaultdict(list)
errors = []
done = threading.Event()
completed = [0]


def record(local):
    with lock:
        for k, v in local.items():
            timings[k].extend(v)


def shopper(i):
    local = defaultdict(list)
    rng = random.Random(i)
    s = Session(bases[i % len(bases)], host, local)
    try:
        journey(s, pause=lambda: time.sleep(rng.uniform(*THINK)))
        with lock:
            completed[0] += 1
    except CallFailed as e:
        with lock:
            errors.append(str(e))
    record(local)


def agent(i):
    local = defaultdict(list)
    rng = random.Random(1000 + i)
    s = Session(bases[i % len(bases)], host, local, timeout=120)
    try:
        s.login("maria.alvarez@acme-insurance.example.com")
        last_export = 0.0
        while not done.is_set():
            lst = rng.choice(["quotes", "enrollees"])
            sort = rng.choice(["last_name", "effective_date"])
            page = rng.randint(1, 5)
            s.call(f"GET dashboard/{lst}", "GET",
                   f"/api/dashboard/{lst}?page={page}&sortCol={sort}&daysToShow=365")
            if time.monotonic() - last_export > EXPORT_EVERY:
                s.call(f"GET dashboard/{lst}Export", "GET", f"/api/dashboard/{lst}Export?daysToShow=365", raw=True)
                last_export = time.monotonic()
            time.sleep(rng.uniform(0.5, 1.5))
    except CallFailed as e:
        with lock:
            errors.append(str(e))
    record(local)


def rss_kb():
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
        except OSError:
            pass
    return total


memory = []


def sampler(start):
    while not done.is_set():
        memory.append((time.monotonic() - start, rss_kb()))
        done.wait(10)


start = time.monotonic()
threads = [threading.Thread(target=sampler, args=(start,), daemon=True)]
threads += [threading.Thread(target=agent, args=(i,)) for i in range(agents)]
for t in threads:
    t.start()
running = []
for i in range(shoppers):
    due = start + i * duration / shoppers
    time.sleep(max(0.0, due - time.monotonic()))
    t = threading.Thread(target=shopper, args=(i,))
    t.start()
    running.append(t)
for t in running:
    t.join()
done.set()
for t in threads[1:]:
    t.join()
memory.append((time.monotonic() - start, rss_kb()))
elapsed = time.monotonic() - start

calls = sum(len(v) for v in timings.values())
print(f"{shoppers} shoppers over {duration:.0f} s ({completed[0]} purchased), {agents} agents paging "
      f"and exporting; {len(bases)} instance(s); {elapsed:.0f} s in all")
print(f"{calls} calls, {calls / elapsed:.1f} calls/s; errors: {len(errors)}")
print(f"{'call':34} {'count':>6} {'p50':>8} {'p95':>8} {'p99':>8}  (ms)")
for label in sorted(timings):
    ms = sorted(t for t, _ in timings[label])
    print(f"{label:34} {len(ms):6} {percentile(ms, .5):8.2f} {percentile(ms, .95):8.2f} {percentile(ms, .99):8.2f}")
print("server memory (VmRSS, MB) every 10 s: " + " ".join(f"{kb / 1024:.0f}" for _, kb in memory))
if memory:
    warm = [kb for t, kb in memory if t >= min(60, elapsed / 4)]
    if warm:
        print(f"after warm-up: first {warm[0] / 1024:.0f} MB, max {max(warm) / 1024:.0f} MB, "
              f"last {warm[-1] / 1024:.0f} MB")
for e in errors[:10]:
    print("error:", e)
sys.exit(1 if errors else 0)
