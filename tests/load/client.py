"""The load tools' HTTP client: a browser-like session on one agent site (cookie, CSRF token,
Origin), timing every call by label. Standard library only.

Used by step_latency.py (one shopper at a time) and soak.py (500 shoppers and agents at once).
"""
import http.client
import json
import time
import urllib.parse
from collections import defaultdict

PASSWORD = "demo-password-2024"

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


class CallFailed(Exception):
    def __init__(self, label, status, body):
        super().__init__(f"{label}: {status} {body[:300]!r}")
        self.label = label
        self.status = status


class Session:
    """One browser: keeps its connection, cookies (the session's and `ef_rev`, which lets any instance
    behind a round-robin balancer read this browser's last save) and CSRF token; records
    (label, ms, status)."""

    def __init__(self, base, host, timings=None, timeout=30):
        url = urllib.parse.urlparse(base)
        self.conn = http.client.HTTPConnection(url.hostname, url.port, timeout=timeout)
        self.host = host
        self.cookies = {}
        self.token = ""
        self.timings = timings if timings is not None else defaultdict(list)

    @property
    def cookie(self):
        """The `Cookie` header this browser sends (None before it has any)."""
        return "; ".join(f"{k}={v}" for k, v in self.cookies.items()) or None

    @cookie.setter
    def cookie(self, header):
        self.cookies = dict(p.strip().partition("=")[::2] for p in header.split(";")) if header else {}

    def call(self, label, method, path, body=None, expect=(200,), raw=False, upload=None):
        """`body` is sent as JSON; `upload` = (bytes, content type) is sent as it is."""
        headers = {"Host": self.host, "Origin": f"http://{self.host}", "X-CSRF-Token": self.token}
        if self.cookie:
            headers["Cookie"] = self.cookie
        data = None
        if body is not None:
            data = json.dumps(body)
            headers["Content-Type"] = "application/json"
        elif upload is not None:
            data, headers["Content-Type"] = upload
        start = time.perf_counter()
        try:
            self.conn.request(method, path, body=data, headers=headers)
            resp = self.conn.getresponse()
            payload = resp.read()
        except (OSError, http.client.HTTPException) as e:
            self.conn.close()
            self.timings[label].append(((time.perf_counter() - start) * 1000, 0))
            raise CallFailed(label, 0, str(e).encode()) from e
        self.timings[label].append(((time.perf_counter() - start) * 1000, resp.status))
        for k, v in resp.getheaders():
            if k.lower() == "set-cookie":
                name, _, value = v.split(";")[0].partition("=")
                if "Max-Age=0" in v:
                    self.cookies.pop(name, None)
                else:
                    self.cookies[name] = value
        if resp.status not in expect:
            raise CallFailed(label, resp.status, payload)
        if raw:
            return payload
        return json.loads(payload) if payload else None

    def start(self):
        self.token = self.call("GET get-auth-state", "GET", "/api/get-auth-state")["csrf_token"]

    def login(self, email):
        self.start()
        self.token = self.call("POST login", "POST", "/api/login",
                               {"email": email, "password": PASSWORD})["csrf_token"]


def journey(s, pause=lambda: None):
    """A consumer's whole purchase: landing -> census -> quote -> plans -> subscriber info ->
    other questions -> purchase. `pause` is the shopper's think time between pages."""
    s.start()
    s.call("GET site", "GET", "/api/site")
    s.call("GET step whyApplying", "GET", "/api/application/step/whyApplying")
    pause()
    s.call("PUT step whyApplying", "PUT", "/api/application/step/whyApplying", {"enrollment_type": "oe"})
    s.call("GET step census", "GET", "/api/application/step/census")
    s.call("POST preview census", "POST", "/api/application/step/census/preview", {"residential_zip": "48104"})
    pause()
    s.call("PUT step census", "PUT", "/api/application/step/census", CENSUS)
    plans = s.call("GET allPlans medical", "GET", "/api/plans/1/allPlans")["plans"]
    pause()
    s.call("GET allPlans medical (filtered)", "GET", "/api/plans/1/allPlans?filters=car_1,m_2")
    blue_ppo = next(p for p in plans if p["carrier"] == 1 and p["network"] == 1)
    nxt = s.call("PUT plans medical", "PUT", "/api/plans/1", {"selected_plan_id": blue_ppo["id"]})["next"]
    for t, label in ((2, "dental"), (3, "vision")):
        if nxt["id"] == "review":
            break
        pause()
        listed = s.call(f"GET allPlans {label}", "GET", f"/api/plans/{t}/allPlans")["plans"]
        nxt = s.call(f"PUT plans {label}", "PUT", f"/api/plans/{t}", {"selected_plan_id": listed[0]["id"]})["next"]
    s.call("GET planInfo", "GET", "/api/plans/planInfo")
    pause()
    s.call("POST continue review", "POST", "/api/application/step/review/continue", {})
    s.call("GET step subInfo", "GET", "/api/application/step/subInfo")
    pause()
    s.call("PUT step subInfo", "PUT", "/api/application/step/subInfo", SUB_INFO)
    s.call("GET step other", "GET", "/api/application/step/other")
    pause()
    s.call("PUT step other", "PUT", "/api/application/step/other", OTHER)
    s.call("GET step rap", "GET", "/api/application/step/rap")
    pause()
    s.call("PUT step rap (purchase)", "PUT", "/api/application/step/rap", RAP)


def percentile(sorted_ms, q):
    if not sorted_ms:
        return 0.0
    return sorted_ms[min(len(sorted_ms) - 1, max(0, int(round(q * len(sorted_ms))) - 1))]
