#!/usr/bin/env python3
"""Prints a session for a role as shell assignments (COOKIE=..., TOKEN=...), for the API fuzzers.

consumer: a visitor's session with an application (Why Are You Applying saved, census answered);
agent / admin: a login with the demo password. Standard library only.
Usage: session.py BASE_URL HOST ROLE
"""
import http.client
import json
import shlex
import sys
import urllib.parse

base, host, role = sys.argv[1], sys.argv[2], sys.argv[3]
url = urllib.parse.urlparse(base)
conn = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
state = {"cookie": None, "token": ""}
PASSWORD = "demo-password-2024"
USERS = {"agent": "maria.alvarez@acme-insurance.example.com", "admin": "admin@enrollflow.example.com"}


def call(method, path, body=None):
    headers = {"Host": host, "Origin": f"http://{host}", "X-CSRF-Token": state["token"]}
    if state["cookie"]:
        headers["Cookie"] = state["cookie"]
    data = None
    if body is not None:
        data = json.dumps(body)
        headers["Content-Type"] = "application/json"
    conn.request(method, path, body=data, headers=headers)
    resp = conn.getresponse()
    raw = resp.read()
    for k, v in resp.getheaders():
        if k.lower() == "set-cookie" and "=" in v and not v.startswith(";"):
            name = v.split("=", 1)[0]
            if name.endswith("ef_session"):
                state["cookie"] = v.split(";")[0]
    if resp.status >= 300:
        raise SystemExit(f"{role}: {method} {path}: {resp.status} {raw[:200]!r}")
    return json.loads(raw) if raw else None


state["token"] = call("GET", "/api/get-auth-state")["csrf_token"]
if role == "consumer":
    call("PUT", "/api/application/step/whyApplying", {"enrollment_type": "oe"})
    call("PUT", "/api/application/step/census", {
        "sub_first_name": "Fuzz", "sub_last_name": "Tester", "email": "fuzz@example.com",
        "sub_gender": "F", "sub_birth_date": "1985-03-02", "sub_tobacco": 0,
        "residential_zip": "48104", "residential_county_id": 161, "medicare_eligible": 0,
        "wants_subsidy": 0,
    })
else:
    state["token"] = call("POST", "/api/login", {"email": USERS[role], "password": PASSWORD})["csrf_token"]
print(f"COOKIE={shlex.quote(state['cookie'] or '')}")
print(f"TOKEN={shlex.quote(state['token'])}")
