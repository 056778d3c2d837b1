#!/usr/bin/env python3
"""A session for a role, for the API fuzzers; standard library only.

Usage: session.py BASE_URL HOST ROLE           prints shell assignments COOKIE=... and TOKEN=...
       session.py BASE_URL HOST ROLE --check   checks that the session in $COOKIE / $TOKEN is still
                                               the role's (after a fuzzing phase)

consumer: a visitor's session with an application (Why Are You Applying saved, census answered);
agent / admin: a login with the demo password; the admin's finishes with the second factor (a code
from the demo authenticator secret, or, when the account has none yet, from the secret that the
login's setup step hands out).
Either way the session is then checked with GET /api/get-auth-state (and, for the consumer,
GET /api/application/active): exit status 1 when it is not what the role needs, so a fuzzing run
never goes on logged out.
"""
import base64
import hashlib
import hmac
import http.client
import json
import os
import shlex
import struct
import sys
import time
import urllib.parse

base, host, role = sys.argv[1], sys.argv[2], sys.argv[3]
check_only = sys.argv[4:] == ["--check"]
url = urllib.parse.urlparse(base)
# The fuzzing sends wrong passwords and codes (PUT /api/user/password, /api/user/second-factor...)
# from 127.0.0.1, and past 20 in 5 minutes the server refuses every login from that address (429):
# each role logs in from a loopback address of its own, so an earlier role's phase cannot lock the
# next one out.
source = None
if url.hostname == "127.0.0.1" and not check_only:
    source = (f"127.0.0.{2 + ['consumer', 'agent', 'admin'].index(role)}", 0)
conn = http.client.HTTPConnection(url.hostname, url.port, timeout=30, source_address=source)
# The cookies that make the session: the session's own and the remembered device a login sets.
KEPT = ("ef_session", "ef_device")
state = {"cookies": {}, "token": ""}
PASSWORD = "demo-password-2024"
USERS = {"agent": "maria.alvarez@acme-insurance.example.com", "admin": "admin@enrollflow.example.com"}
# server/src/seed.rs DEMO_TOTP_SECRET: the demo admins' published authenticator secret.
DEMO_TOTP_SECRET = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"


def fail(message):
    raise SystemExit(f"{role}: {message}")


def totp(secret, at=None):
    """RFC 6238: HMAC-SHA-1 over the 30-second step, 6 digits."""
    key = base64.b32decode(secret.upper() + "=" * (-len(secret) % 8))
    step = int((time.time() if at is None else at) // 30)
    mac = hmac.new(key, struct.pack(">Q", step), hashlib.sha1).digest()
    offset = mac[-1] & 0x0F
    return "%06d" % ((struct.unpack(">I", mac[offset:offset + 4])[0] & 0x7FFFFFFF) % 1_000_000)


def cookie_header():
    return "; ".join(f"{k}={v}" for k, v in state["cookies"].items())


def call(method, path, body=None, ok=(200, 204)):
    headers = {"Host": host, "Origin": f"http://{host}", "X-CSRF-Token": state["token"]}
    if state["cookies"]:
        headers["Cookie"] = cookie_header()
    data = None
    if body is not None:
        data = json.dumps(body)
        headers["Content-Type"] = "application/json"
    conn.request(method, path, body=data, headers=headers)
    resp = conn.getresponse()
    raw = resp.read()
    set_cookies = []
    for k, v in resp.getheaders():
        if k.lower() == "set-cookie" and "=" in v and not v.startswith(";"):
            name, value = v.split(";")[0].split("=", 1)
            set_cookies.append(name)
            if name.endswith(KEPT):
                if value:
                    state["cookies"][name] = value
                else:
                    state["cookies"].pop(name, None)
    if resp.status not in ok:
        fail(f"{method} {path}: {resp.status} {raw[:300]!r}")
    return resp.status, (json.loads(raw) if raw else None), set_cookies


def check():
    """The session is live and the role's: no new session started, the same CSRF token."""
    _, auth, set_cookies = call("GET", "/api/get-auth-state")
    if any(n.endswith("ef_session") for n in set_cookies):
        fail("GET /api/get-auth-state started a new session: the session is gone")
    if state["token"] and auth["csrf_token"] != state["token"]:
        fail("GET /api/get-auth-state: another CSRF token: the session was replaced")
    want = {"consumer": (False, False), "agent": (True, False), "admin": (True, True)}[role]
    got = (auth["is_authorized"], auth["is_admin"])
    if got != want or auth.get("impersonating"):
        fail(f"GET /api/get-auth-state: is_authorized, is_admin = {got} (impersonating: "
             f"{auth.get('impersonating')}), not {want}: the session is not the {role}'s")
    if role == "consumer":
        _, active, _ = call("GET", "/api/application/active")
        if not (active or {}).get("application"):
            fail("GET /api/application/active: the session has no application")
    return auth


if check_only:
    for part in os.environ.get("COOKIE", "").split(";"):
        if "=" in part:
            k, v = part.strip().split("=", 1)
            state["cookies"][k] = v
    state["token"] = os.environ.get("TOKEN", "")
    if not state["cookies"].keys() or not any(k.endswith("ef_session") for k in state["cookies"]):
        fail("no session cookie in $COOKIE")
    check()
    print(f"{role}: the session is still the {role}'s", file=sys.stderr)
    sys.exit(0)

state["token"] = call("GET", "/api/get-auth-state")[1]["csrf_token"]
if role == "consumer":
    call("PUT", "/api/application/step/whyApplying", {"enrollment_type": "oe"})
    call("PUT", "/api/application/step/census", {
        "sub_first_name": "Fuzz", "sub_last_name": "Tester", "email": "fuzz@example.com",
        "sub_gender": "F", "sub_birth_date": "1985-03-02", "sub_tobacco": 0,
        "residential_zip": "48104", "residential_county_id": 161, "medicare_eligible": 0,
        "wants_subsidy": 0,
    })
else:
    _, login, _ = call("POST", "/api/login", {"email": USERS[role], "password": PASSWORD})
    state["token"] = login["csrf_token"]
    step = login.get("second_factor")
    if step is not None:
        if step == "setup":
            # No authenticator yet (seeded without the data key): set one up at this login.
            secret = call("POST", "/api/login/second-factor/setup")[1]["secret"]
        elif step == "code":
            secret = DEMO_TOTP_SECRET
        else:
            fail(f"POST /api/login: unknown second_factor step {step!r}")
        # A code counts once: should this step's code be used already, the next step's is fresh.
        for attempt in range(2):
            status, done, _ = call("POST", "/api/login/second-factor", {"code": totp(secret)},
                                   ok=(200, 422))
            if status == 200:
                break
            if attempt:
                fail(f"POST /api/login/second-factor: 422 {done!r}")
            time.sleep(30 - time.time() % 30 + 1)
        state["token"] = done["csrf_token"]
        print(f"{role}: second factor done ({step})", file=sys.stderr)
        if done.get("second_factor"):
            fail(f"POST /api/login/second-factor: still asks for {done['second_factor']!r}")
auth = check()
print(f"{role}: session ready ({'logged in as ' + auth['user_name'] if auth['is_authorized'] else 'a visitor with an application'})",
      file=sys.stderr)
print(f"COOKIE={shlex.quote(cookie_header())}")
print(f"TOKEN={shlex.quote(state['token'])}")
