#!/usr/bin/env python3
"""Latency of every step call of the consumer wizard, one shopper at a time (issue 5's p95 target).

Walks N whole journeys (landing -> census -> quote -> select -> subscriber info -> other questions ->
purchase) against a running server and prints p50/p95/max per call. Standard library only.
Usage: step_latency.py http://127.0.0.1:PORT acme.localhost:PORT [journeys]
"""
import http.client
import json
import statistics
import sys
import time
import urllib.parse
from collections import defaultdict

base, host = sys.argv[1], sys.argv[2]
journeys = int(sys.argv[3]) if len(sys.argv) > 3 else 50
url = urllib.parse.urlparse(base)
timings = defaultdict(list)


class Shopper:
    def __init__(self):
        self.conn = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
        self.cookie = None
        self.token = ""

    def call(self, label, method, path, body=None, expect=(200,)):
        headers = {"Host": host, "Origin": f"http://{host}", "X-CSRF-Token": self.token}
        if self.cookie:
            headers["Cookie"] = self.cookie
        data = None
        if body is not None:
            data = json.dumps(body)
            headers["Content-Type"] = "application/json"
        start = time.perf_counter()
        self.conn.request(method, path, body=data, headers=headers)
        resp = self.conn.getresponse()
        raw = resp.read()
        timings[label].append((time.perf_counter() - start) * 1000)
        for k, v in resp.getheaders():
            if k.lower() == "set-cookie" and v.startswith("ef_session="):
                self.cookie = v.split(";")[0]
        if resp.status not in expect:
            raise SystemExit(f"{label}: {resp.status} {raw[:300]!r}")
        return json.loads(raw) if raw else None


CENSUS = {
    "sub_first_name": "Ann", "sub_last_name": "Lee", "email": "ann@example.com", "sub_gender": "F",
    "sub_birth_date": "1985-03-02", "sub_tobacco": 0, "residential_zip": "48104",
    "residential_county_id": 161, "medicare_eligible": 0, "wants_subsidy": 0,
}
SUB_INFO = {
    "sub_first_name": "Ann", "sub_last_name": "Lee", "sub_ssn": "123456789", "sub_us_citizen": 1,
    "email": "ann@example.com", "primary_phone": "3135550100", "primary_phone_type_id": 4,
    "residential_street": "1 Main St", "residential_city": "Ann Arbor", "residential_state": "MI",
}
OTHER = {
    "bcbsm_dental_confirmation": 1, "bcbsm_signature": "Ann Lee", "bcbsm_signature_date": "2024-11-20",
    "has_previous_coverage": 0, "who_is_paying": 1,
}
RAP = {
    "agree_tc": True, "who_is_applying": 1, "agree_subscriber_applying": True,
    "subscriber_signature": "Ann Lee", "subscriber_signature_confirm": "Ann Lee",
    "subscriber_signature_date": "2024-11-20",
}

for _ in range(journeys):
    s = Shopper()
    s.token = s.call("GET get-auth-state", "GET", "/api/get-auth-state")["csrf_token"]
    s.call("GET site", "GET", "/api/site")
    s.call("GET step whyApplying", "GET", "/api/application/step/whyApplying")
    s.call("PUT step whyApplying", "PUT", "/api/application/step/whyApplying", {"enrollment_type": "oe"})
    s.call("GET step census", "GET", "/api/application/step/census")
    s.call("POST preview census", "POST", "/api/application/step/census/preview", {"residential_zip": "48104"})
    s.call("PUT step census", "PUT", "/api/application/step/census", CENSUS)
    plans = s.call("GET allPlans medical", "GET", "/api/plans/1/allPlans")["plans"]
    s.call("GET allPlans medical (filtered)", "GET", "/api/plans/1/allPlans?filters=car_1,m_2")
    blue_ppo = next(p for p in plans if p["carrier"] == 1 and p["network"] == 1)
    nxt = s.call("PUT plans medical", "PUT", "/api/plans/1", {"selected_plan_id": blue_ppo["id"]})["next"]
    for t, label in ((2, "dental"), (3, "vision")):
        if nxt["id"] == "review":
            break
        listed = s.call(f"GET allPlans {label}", "GET", f"/api/plans/{t}/allPlans")["plans"]
        nxt = s.call(f"PUT plans {label}", "PUT", f"/api/plans/{t}", {"selected_plan_id": listed[0]["id"]})["next"]
    s.call("GET planInfo", "GET", "/api/plans/planInfo")
    s.call("POST continue review", "POST", "/api/application/step/review/continue", {})
    s.call("GET step subInfo", "GET", "/api/application/step/subInfo")
    s.call("PUT step subInfo", "PUT", "/api/application/step/subInfo", SUB_INFO)
    s.call("GET step other", "GET", "/api/application/step/other")
    s.call("PUT step other", "PUT", "/api/application/step/other", OTHER)
    s.call("GET step rap", "GET", "/api/application/step/rap")
    s.call("PUT step rap (purchase)", "PUT", "/api/application/step/rap", RAP)

print(f"{journeys} journeys, one at a time; milliseconds per call")
print(f"{'call':34} {'p50':>7} {'p95':>7} {'max':>7}")
worst = 0.0
for label, ms in timings.items():
    ms.sort()
    p95 = ms[min(len(ms) - 1, int(round(0.95 * len(ms))) - 1)]
    worst = max(worst, p95)
    print(f"{label:34} {statistics.median(ms):7.2f} {p95:7.2f} {ms[-1]:7.2f}")
print(f"slowest p95: {worst:.2f} ms")
