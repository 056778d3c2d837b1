"""Keeps looping drafts under evaluation on a running server: WORKERS analysts' clients (4) each
send, again and again, an impact of a draft whose census rule loops forever, until told to stop.
The server evaluates one impact at a time (the others are answered 429 and sent again a second
later), on its own lowest-priority thread, each stopped at its overall budget.

Usage: python3 tests/load/drafts.py BASE HOST EMAIL CODE_COMMAND STOP_FILE
  CODE_COMMAND prints the analyst's current second-factor code (`enrollflow demo-code`).
Prints how many impacts ran, were refused (429) and stopped at their budget. Standard library only.
"""

import http.cookiejar
import json
import os
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

PASSWORD = "demo-password-2024"
ROOT = Path(__file__).resolve().parents[2]


def rule_set(looping: bool = True) -> list[dict]:
    """The repository's rules, forms and templates, with a census rule that never ends (unless
    `looping` is false: the set as it is)."""
    files = []
    for folder in ("rules", "forms", "templates"):
        for p in sorted((ROOT / folder).rglob("*")):
            rule_file = p.suffix in (".yaml", ".rhai") or folder == "templates"
            if p.is_file() and rule_file and not p.name.startswith("."):
                files.append({"path": str(p.relative_to(ROOT)), "text": p.read_text()})
    for f in files:
        if looping and f["path"] == "rules/scripts/census.rhai":
            f["text"] = f["text"].replace(
                "    let errors = #{};\n    let today = ctx.today;",
                "    let errors = #{};\n    loop { errors.x = 1; }\n    let today = ctx.today;",
                1,
            )
    return files


class Client:
    def __init__(self, base: str, host: str):
        self.base, self.host = base, host
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )
        self.csrf = ""

    def call(self, method: str, path: str, body=None) -> tuple[int, dict]:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method)
        req.add_header("Host", self.host)
        req.add_header("Origin", f"http://{self.host}")
        req.add_header("Content-Type", "application/json")
        if self.csrf:
            req.add_header("x-csrf-token", self.csrf)
        try:
            with self.opener.open(req, timeout=120) as r:
                return r.status, json.loads(r.read() or b"{}")
        except urllib.error.HTTPError as e:
            text = e.read()
            try:
                return e.code, json.loads(text or b"{}")
            except ValueError:
                return e.code, {}

    def login(self, email: str, code_command: str) -> None:
        _, state = self.call("GET", "/api/get-auth-state")
        self.csrf = state["csrf_token"]
        status, r = self.call("POST", "/api/login", {"email": email, "password": PASSWORD})
        assert status == 200, r
        self.csrf = r["csrf_token"]
        if r.get("second_factor") == "code":
            code = subprocess.run(
                code_command, shell=True, check=True, capture_output=True, text=True
            ).stdout.split()[0]
            status, r = self.call("POST", "/api/login/second-factor", {"code": code})
            assert status == 200, r
            self.csrf = r["csrf_token"]


def ordinary(client: "Client") -> int:
    """One impact of the rules as they are (1,000 made-up households): how long it took."""
    started = time.monotonic()
    status, r = client.call("POST", "/api/admin/rules/impact", {"files": rule_set(looping=False)})
    took = time.monotonic() - started
    if status != 200:
        print(f"an ordinary impact: {status} after {took:.1f} s: {json.dumps(r)[:300]}")
        return 1
    print(f"an ordinary impact ({r['households_made']} made-up households) took {took:.1f} s")
    return 0


def main() -> int:
    base, host, email, code_command, stop_file = sys.argv[1:6]
    workers = int(os.environ.get("WORKERS", "4"))
    if os.environ.get("ORDINARY"):
        client = Client(base, host)
        client.login(email, code_command)
        return ordinary(client)
    files = rule_set()
    counts = {"ran": 0, "busy": 0, "budget": 0, "other": 0}
    lock = threading.Lock()
    client = Client(base, host)
    client.login(email, code_command)

    def work() -> None:
        while not os.path.exists(stop_file):
            status, r = client.call("POST", "/api/admin/rules/impact", {"files": files})
            key = (
                "busy"
                if status == 429
                else "budget"
                if "past its budget" in json.dumps(r)
                else "ran"
                if status == 200
                else "other"
            )
            with lock:
                counts[key] += 1
                if key == "other" and counts["other"] == 1:
                    print(f"first other answer: {status} {json.dumps(r)[:300]}", file=sys.stderr)
            if key in ("busy", "other"):
                time.sleep(1)

    threads = [threading.Thread(target=work, daemon=True) for _ in range(workers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print(
        f"looping drafts: {counts['budget']} stopped at their budget, {counts['ran']} ran through, "
        f"{counts['busy']} answered 429 (one at a time), {counts['other']} other answers"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
