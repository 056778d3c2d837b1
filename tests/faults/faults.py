#!/usr/bin/env python3
"""Fault tests (a database outage, a full pool, a killed instance) against a private PostgreSQL cluster of their own.

  kill  `kill -9` of the server in the middle of step saves and purchases, restart on the same
        database; shoppers retry what got no answer. Checked with SQL: no partial application, no
        lost submission, no duplicate submission.
  disk  the upload store on a tiny tmpfs (root only): a full disk answers 503 with a message for the
        user and changes nothing; once there is room again the same upload succeeds.
  pg    PostgreSQL stopped (`pg_ctl stop -m fast`) and started again under a steady load: every
        request during the outage is answered 503 within a bound; the service recovers by itself
        (pool and the cache listener) and the caches follow changes again.

Never touches the shared server on 127.0.0.1:5432: initdb + pg_ctl in a temporary folder on a free
port (as `nobody` when run as root, like scripts/with-db.sh). Standard library only.

Usage (from the repository root; make faults / make test-faults):
  tests/faults/faults.py --bin target/debug/enrollflow [--cycles 20] [--shoppers 4]
                         [--outage 10] [--parts kill,disk,pg]
Exit status 0 when every check held; the figures are printed at the end.
"""
import argparse
import base64
import glob
import http.client
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter, defaultdict

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
TODAY = "2024-11-20"
SITE = "acme"
PDF_HEAD = b"%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n"

servers = []  # every server started (stopped on the way out, whatever happens)
failures = []  # every violated check, printed at the end (exit 1 when any)
figures = []  # (part, what, value) for the summary


def fail(msg):
    failures.append(msg)
    print(f"  FAIL: {msg}", flush=True)


def note(part, what, value):
    figures.append((part, what, value))
    print(f"  {what}: {value}", flush=True)


def log(msg):
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", flush=True)


def free_port(start):
    port = start
    while True:
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
                return port
            except OSError:
                port += 1


# ---------------------------------------------------------------------------------------------
# The private PostgreSQL cluster


class Cluster:
    def __init__(self):
        self.as_root = os.geteuid() == 0
        self.dir = tempfile.mkdtemp(prefix="enrollflow-faults-pg.")
        if self.as_root:
            shutil.chown(self.dir, "nobody")
        self.bindir = self._bindir()
        self.port = free_port(56432)
        self.data = os.path.join(self.dir, "data")
        self.log = os.path.join(self.dir, "server.log")
        self.server = f"postgresql://enrollflow@127.0.0.1:{self.port}"
        self.url = f"{self.server}/enrollflow_faults"
        self.running = False

    @staticmethod
    def _bindir():
        pg_ctl = shutil.which("pg_ctl")
        if pg_ctl and shutil.which("initdb"):
            return os.path.dirname(pg_ctl)
        found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
        if not found:
            sys.exit("PostgreSQL server binaries (initdb, pg_ctl) are not installed")
        return os.path.dirname(found[-1])

    def _run(self, *args, check=True):
        cmd = [os.path.join(self.bindir, args[0]), *args[1:]]
        if self.as_root:
            cmd = ["runuser", "-u", "nobody", "--", *cmd]
        return subprocess.run(cmd, check=check, capture_output=True, text=True)

    def init(self):
        self._run("initdb", "-D", self.data, "-U", "enrollflow", "--auth=trust", "-E", "UTF8")

    def start(self):
        opts = f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.dir} -c max_connections=100"
        r = self._run("pg_ctl", "-D", self.data, "-l", self.log, "-w", "-o", opts, "start", check=False)
        if r.returncode != 0:
            sys.exit(f"pg_ctl start failed: {r.stderr}\n{open(self.log).read()[-2000:]}")
        self.running = True

    def stop(self, mode="fast"):
        self._run("pg_ctl", "-D", self.data, "-m", mode, "-w", "stop", check=False)
        self.running = False

    def psql(self, sql, db=None):
        r = subprocess.run(["psql", db or self.url, "-v", "ON_ERROR_STOP=1", "-Atqc", sql],
                           capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError(f"psql: {r.stderr.strip()} in: {sql[:200]}")
        return r.stdout.strip()

    def rows(self, sql):
        out = self.psql(sql)
        return [line.split("|") for line in out.splitlines()] if out else []

    def cleanup(self):
        if self.running:
            self.stop("immediate")
        shutil.rmtree(self.dir, ignore_errors=True)


# ---------------------------------------------------------------------------------------------
# The enrollflow server


class Server:
    def __init__(self, binary, db_url, workdir, documents_dir, data_key):
        self.binary = binary
        self.port = free_port(18300)
        self.host = f"{SITE}.localhost:{self.port}"
        self.env = dict(os.environ, DATABASE_URL=db_url, ENROLLFLOW_LOG="warn",
                        ENROLLFLOW_TODAY=TODAY, ENROLLFLOW_DATA_KEY=data_key,
                        ENROLLFLOW_DOCUMENTS_DIR=documents_dir)
        self.log = os.path.join(workdir, f"server-{self.port}.log")
        self.proc = None
        self.starts = 0
        servers.append(self)

    def start(self, wait=True):
        logf = open(self.log, "a")
        logf.write(f"--- start {self.starts} at {time.strftime('%H:%M:%S')}\n")
        logf.flush()
        self.proc = subprocess.Popen(
            [self.binary, "serve", "--listen", f"127.0.0.1:{self.port}", "--no-watch"],
            cwd=ROOT, env=self.env, stdout=logf, stderr=subprocess.STDOUT, start_new_session=True)
        logf.close()
        self.starts += 1
        return self.wait_ready() if wait else None

    def wait_ready(self, limit=90):
        start = time.monotonic()
        while time.monotonic() - start < limit:
            if self.proc.poll() is not None:
                sys.exit(f"the server exited ({self.proc.returncode}); see {self.log}:\n"
                         + open(self.log).read()[-3000:])
            try:
                c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
                c.request("GET", "/readyz")
                if c.getresponse().status == 200:
                    return time.monotonic() - start
            except OSError:
                pass
            time.sleep(0.05)
        sys.exit(f"the server was not ready within {limit} s; see {self.log}")

    def kill9(self):
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait()

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


# ---------------------------------------------------------------------------------------------
# A shopper: one browser session talking to the API exactly as the web app does


class NoAnswer(Exception):
    """The connection failed or closed before a response arrived."""


class Reply:
    def __init__(self, status, body, seconds):
        self.status = status
        self.body = body
        self.seconds = seconds

    def json(self):
        try:
            return json.loads(self.body) if self.body else None
        except ValueError:
            return None


class Client:
    def __init__(self, server, timeout=40):
        self.server = server
        self.timeout = timeout
        self.conn = None
        self.cookie = None
        self.token = ""

    def request(self, method, path, body=None, raw=None, content_type=None):
        headers = {"Host": self.server.host, "Origin": f"http://{self.server.host}",
                   "X-CSRF-Token": self.token}
        if self.cookie:
            headers["Cookie"] = self.cookie
        data = raw
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        elif content_type:
            headers["Content-Type"] = content_type
        start = time.monotonic()
        # A kept-alive connection the server closed after its last answer (hyper does so when it
        # answered without reading the request's body: a save refused at once while PostgreSQL
        # was down) fails the next request before any answer; a browser sends it again on a new
        # connection, and so does this client, once.
        for retry in (self.conn is not None, False):
            try:
                if self.conn is None:
                    self.conn = http.client.HTTPConnection("127.0.0.1", self.server.port,
                                                           timeout=self.timeout)
                self.conn.request(method, path, body=data, headers=headers)
                resp = self.conn.getresponse()
                payload = resp.read()
                break
            except (OSError, http.client.HTTPException) as e:
                if self.conn:
                    self.conn.close()
                self.conn = None
                closed = isinstance(e, (http.client.RemoteDisconnected, ConnectionResetError,
                                        BrokenPipeError))
                if not (retry and closed):
                    raise NoAnswer(f"{type(e).__name__}: {e}") from e
        for k, v in resp.getheaders():
            if k.lower() == "set-cookie" and v.startswith("ef_session="):
                self.cookie = v.split(";")[0]
        return Reply(resp.status, payload.decode("utf-8", "replace"), time.monotonic() - start)

    def start_session(self):
        r = self.request("GET", "/api/get-auth-state")
        if r.status != 200:
            raise RuntimeError(f"get-auth-state: {r.status} {r.body[:200]}")
        self.token = r.json()["csrf_token"]


def census(n):
    return {"sub_first_name": "Ann", "sub_last_name": f"Lee{n}", "email": f"shopper{n}@example.com",
            "sub_gender": "F", "sub_birth_date": "1985-03-02", "sub_tobacco": 0,
            "residential_zip": "48104", "residential_county_id": 161, "medicare_eligible": 0,
            "wants_subsidy": 0}


def sub_info(n):
    return {"sub_first_name": "Ann", "sub_last_name": f"Lee{n}", "sub_ssn": "123456789",
            "sub_us_citizen": 1, "email": f"shopper{n}@example.com", "primary_phone": "3135550100",
            "primary_phone_type_id": 4, "residential_street": "1 Main St",
            "residential_city": "Ann Arbor", "residential_state": "MI"}


OTHER = {"bcbsm_dental_confirmation": 1, "bcbsm_signature": "Ann Lee",
         "bcbsm_signature_date": TODAY, "has_previous_coverage": 0, "who_is_paying": 1}
RAP = {"agree_tc": True, "who_is_applying": 1, "agree_subscriber_applying": True,
       "subscriber_signature": "Ann Lee", "subscriber_signature_confirm": "Ann Lee",
       "subscriber_signature_date": TODAY}


# ---------------------------------------------------------------------------------------------
# Part 1: kill -9 during saves and purchases


class KillState:
    """What the shoppers tell the killer, and what they saw."""

    def __init__(self):
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.in_flight = Counter()  # kind ("save"/"purchase") -> requests sent and not answered
        self.latency = defaultdict(list)  # kind -> recent answer times
        self.journeys = []  # finished journeys (dicts)
        self.no_answer = Counter()  # label -> requests that got no answer
        self.purchase_retries = Counter()  # outcome of a purchase retried after no answer
        self.unexpected = []  # (label, status, body) not explained by a fault
        self.seq = 0

    def next_n(self):
        with self.lock:
            self.seq += 1
            return self.seq


class Shopper(threading.Thread):
    def __init__(self, server, state):
        super().__init__(daemon=True)
        self.server = server
        self.st = state
        self.error = None

    def run(self):
        try:
            while not self.st.stop.is_set():
                self.journey()
        except Exception as e:  # noqa: BLE001 - reported as a failure
            self.error = f"{type(e).__name__}: {e}"

    def wait_for_server(self, c):
        """After a call got no answer: wait until the server answers again (it is restarted)."""
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                r = c.request("GET", "/readyz")
                if r.status == 200:
                    return
            except NoAnswer:
                pass
            time.sleep(0.05)
        raise RuntimeError("the server did not come back within 120 s")

    def call(self, c, j, label, method, path, body=None, kind=None, ok=(200,)):
        """One call with the web app's behaviour on failure: no answer -> wait for the server,
        re-read the state (auth state, active application), then send the same request again."""
        attempts = 0
        while True:
            attempts += 1
            if kind:
                with self.st.lock:
                    self.st.in_flight[kind] += 1
            try:
                r = c.request(method, path, body)
            except NoAnswer:
                with self.st.lock:
                    self.st.no_answer[label] += 1
                j["no_answer"].append(label)
                self.recover(c, j)
                continue
            finally:
                if kind:
                    with self.st.lock:
                        self.st.in_flight[kind] -= 1
            if kind:
                with self.st.lock:
                    lat = self.st.latency[kind]
                    lat.append(r.seconds)
                    del lat[:-50]
            if attempts > 1 and label == "PUT rap (purchase)":
                with self.st.lock:
                    self.st.purchase_retries[r.status] += 1
            if r.status in ok:
                return r
            if attempts > 1 and label == "PUT rap (purchase)" and r.status == 409:
                return r  # the purchase that got no answer had been committed: "already submitted"
            with self.st.lock:
                self.st.unexpected.append((label, r.status, r.body[:300]))
            raise RuntimeError(f"{label}: {r.status} {r.body[:300]}")

    def recover(self, c, j):
        """Waits for the server, then re-reads the state as the web app does on reload."""
        while True:
            self.wait_for_server(c)
            try:
                return self.reread(c, j)
            except NoAnswer:
                continue

    def reread(self, c, j):
        r = c.request("GET", "/api/get-auth-state")
        if r.status != 200:
            raise RuntimeError(f"re-read get-auth-state: {r.status}")
        token = r.json()["csrf_token"]
        if token != c.token:
            j["session_lost"] = True
            c.token = token
        r = c.request("GET", "/api/application/active")
        if r.status == 200:
            app = (r.json() or {}).get("application")
            if app and j.get("app_id") and app["applicationId"] != j["app_id"]:
                j["app_switched"] = True

    def journey(self):
        n = self.st.next_n()
        j = {"n": n, "app_id": None, "acked": [], "no_answer": [], "purchase": None,
             "submission_time": None}
        c = Client(self.server)
        # The landing page: a session and its CSRF token (retried like any call).
        while True:
            try:
                c.start_session()
                break
            except NoAnswer:
                self.wait_for_server(c)

        def save(label, path, body, step=None, method="PUT", kind="save"):
            r = self.call(c, j, label, method, path, body, kind=kind)
            data = r.json() or {}
            app = data.get("application") or {}
            if app.get("applicationId"):
                if j["app_id"] and j["app_id"] != app["applicationId"]:
                    j["app_switched"] = True
                j["app_id"] = app["applicationId"]
            if step and r.status == 200:
                j["acked"].append(step)
            return r, data

        self.call(c, j, "GET step whyApplying", "GET", "/api/application/step/whyApplying")
        save("PUT whyApplying", "/api/application/step/whyApplying", {"enrollment_type": "oe"},
             "whyApplying")
        self.call(c, j, "GET step census", "GET", "/api/application/step/census")
        save("PUT census", "/api/application/step/census", census(n), "census")
        plans = self.call(c, j, "GET allPlans", "GET", "/api/plans/1/allPlans").json()["plans"]
        plan = next(p for p in plans if p["carrier"] == 1 and p["network"] == 1)
        _, data = save("PUT plans 1", "/api/plans/1", {"selected_plan_id": plan["id"]})
        nxt = data["next"]
        for t in (2, 3):
            if nxt["id"] == "review":
                break
            listed = self.call(c, j, "GET allPlans", "GET", f"/api/plans/{t}/allPlans").json()
            _, data = save(f"PUT plans {t}", f"/api/plans/{t}",
                           {"selected_plan_id": listed["plans"][0]["id"]})
            nxt = data["next"]
        save("POST review continue", "/api/application/step/review/continue", {}, method="POST")
        self.call(c, j, "GET step subInfo", "GET", "/api/application/step/subInfo")
        save("PUT subInfo", "/api/application/step/subInfo", sub_info(n), "subInfo")
        self.call(c, j, "GET step other", "GET", "/api/application/step/other")
        save("PUT other", "/api/application/step/other", OTHER, "other")
        self.call(c, j, "GET step rap", "GET", "/api/application/step/rap")
        r, data = save("PUT rap (purchase)", "/api/application/step/rap", RAP, kind="purchase")
        j["purchase"] = r.status
        if r.status == 200:
            j["acked"].append("rap")
            j["submission_time"] = data["application"]["submissionTime"]
        else:  # 409 after a retry: the state must show the submission
            a = self.call(c, j, "GET active", "GET", "/api/application/active").json()["application"]
            j["submission_time"] = a and a["submissionTime"]
            if a:
                j["app_id"] = a["applicationId"]
        with self.st.lock:
            self.st.journeys.append(j)


AUDIT_SQL = """
CREATE TABLE IF NOT EXISTS faults_submissions (
    application_id uuid NOT NULL, old_time timestamptz, new_time timestamptz,
    at timestamptz NOT NULL DEFAULT clock_timestamp());
CREATE OR REPLACE FUNCTION faults_audit() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO faults_submissions (application_id, old_time, new_time)
  VALUES (NEW.id, OLD.submission_time, NEW.submission_time);
  RETURN NEW;
END $$;
DROP TRIGGER IF EXISTS faults_audit ON applications;
CREATE TRIGGER faults_audit AFTER UPDATE ON applications FOR EACH ROW
  WHEN (OLD.submission_time IS DISTINCT FROM NEW.submission_time) EXECUTE FUNCTION faults_audit();
"""


def part_kill(args, cluster, workdir, data_key):
    log(f"kill -9: {args.cycles} cycles, {args.shoppers} concurrent shoppers")
    cluster.psql(AUDIT_SQL)
    earlier = set(cluster.psql("SELECT id FROM applications").split())
    docs = os.path.join(workdir, "documents-kill")
    server = Server(args.bin, cluster.url, workdir, docs, data_key)
    first_ready = server.start()
    st = KillState()
    shoppers = [Shopper(server, st) for _ in range(args.shoppers)]
    for s in shoppers:
        s.start()
    restarts = []
    kinds = Counter()
    rng = random.Random(args.seed)
    for cycle in range(args.cycles):
        # Alternate the target: a step save in flight, a purchase in flight; the delay after the
        # request left the client is random within about one answer time, so the kill lands
        # before, during or after the commit.
        kind = ("save", "purchase")[cycle % 2]
        time.sleep(rng.uniform(0.2, 1.0))
        waited = time.monotonic()
        while not st.in_flight[kind] and time.monotonic() - waited < 30:
            time.sleep(0.001)
        if not st.in_flight[kind]:
            fail(f"cycle {cycle}: no {kind} in flight within 30 s")
            break
        with st.lock:
            lat = sorted(st.latency[kind]) or [0.01]
        time.sleep(rng.uniform(0, 1.5 * lat[len(lat) // 2]))
        server.kill9()
        kinds[kind] += 1
        restarts.append(server.start())
        if any(s.error for s in shoppers):
            break
    st.stop.set()
    for s in shoppers:
        s.join(180)
    server.stop()
    for s in shoppers:
        if s.error:
            fail(f"a shopper stopped: {s.error}")
        if s.is_alive():
            fail("a shopper did not finish its journey within 180 s")
    for label, status, body in st.unexpected:
        fail(f"unexpected answer to {label}: {status} {body}")

    journeys = st.journeys
    note("kill", "kills (step save in flight / purchase in flight)",
         f"{kinds['save']} / {kinds['purchase']}")
    note("kill", "restart to ready (first start, then min / median / max after kill -9)",
         f"{first_ready:.2f} s, then {min(restarts):.2f} / {sorted(restarts)[len(restarts) // 2]:.2f}"
         f" / {max(restarts):.2f} s" if restarts else f"{first_ready:.2f} s")
    note("kill", "journeys completed", len(journeys))
    note("kill", "requests that got no answer (by call)",
         ", ".join(f"{k} {v}" for k, v in sorted(st.no_answer.items())) or "none")
    note("kill", "purchases retried after no answer: answered 200 / 409",
         f"{st.purchase_retries[200]} / {st.purchase_retries[409]}")

    # --- the database's view
    lost_sessions = sum(1 for j in journeys if j.get("session_lost"))
    if lost_sessions:
        fail(f"{lost_sessions} sessions were lost across a restart")
    switched = sum(1 for j in journeys if j.get("app_switched"))
    if switched:
        fail(f"{switched} journeys ended up on a second application")
    rows = cluster.rows(
        "SELECT id, submission_time IS NOT NULL, coalesce((data->>'submitted')::boolean, false), "
        "data ? 'rap' AND data->'rap'->>'subscriber_signature' IS NOT NULL, "
        "data ? 'subInfo' AND data ? 'other' AND data ? 'census', "
        "coalesce(data->'census'->>'email', ''), data = '{}'::jsonb, "
        "EXISTS (SELECT 1 FROM sessions s WHERE s.application_id = a.id), "
        "to_char(submission_time AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') "
        "FROM applications a")
    by_id = {}
    for r in rows:
        if r[0] in earlier:
            continue
        by_id[r[0]] = {"submitted": r[1] == "t", "flag": r[2] == "t", "rap": r[3] == "t",
                       "steps": r[4] == "t", "email": r[5], "empty": r[6] == "t",
                       "in_session": r[7] == "t", "time": r[8]}
    bad_flag = [i for i, a in by_id.items() if a["submitted"] != a["flag"]]
    if bad_flag:
        fail(f"{len(bad_flag)} applications whose data.submitted disagrees with submission_time")
    no_rap = [i for i, a in by_id.items() if a["submitted"] and not (a["rap"] and a["steps"])]
    if no_rap:
        fail(f"{len(no_rap)} submitted applications without their rap/subInfo/other answers")
    audit = cluster.rows("SELECT application_id, count(*), bool_and(old_time IS NULL) "
                         "FROM faults_submissions GROUP BY 1")
    twice = [a for a in audit if a[1] != "1" or a[2] != "t"]
    if twice:
        fail(f"{len(twice)} applications whose submission time was set more than once or changed")
    emails = Counter(a["email"] for a in by_id.values() if a["submitted"])
    dup = {e: k for e, k in emails.items() if k > 1}
    if dup:
        fail(f"shoppers with more than one submitted application: {dup}")
    # Every purchase the client saw acknowledged (200), or confirmed by 409 + the active state, is
    # submitted in the database with the very submission time it was told.
    lost = 0
    for j in journeys:
        a = by_id.get(j["app_id"])
        if not a or not a["submitted"]:
            lost += 1
            continue
        told = j["submission_time"]
        if told:
            check = cluster.psql(
                f"SELECT submission_time = '{told}'::timestamptz FROM applications "
                f"WHERE id = '{j['app_id']}'")
            if check != "t":
                fail(f"application {j['app_id']}: submission time {a['time']} is not the {told} "
                     "the client was told")
        else:
            fail(f"journey {j['n']}: a 409 but the active application shows no submission")
        if a["email"] != f"shopper{j['n']}@example.com":
            fail(f"journey {j['n']}: its application holds another shopper's answers")
    if lost:
        fail(f"{lost} acknowledged purchases are not submitted in the database (lost)")
    submitted_now = sum(1 for a in by_id.values() if a["submitted"])
    if submitted_now != len(journeys):
        fail(f"{submitted_now} submitted applications for {len(journeys)} completed journeys")
    orphans = [i for i, a in by_id.items() if a["empty"] and not a["in_session"]]
    unsubmitted = [a for a in by_id.values() if not a["submitted"]]
    note("kill", "applications: submitted / unsubmitted (of which empty rows no session refers to)",
         f"{submitted_now} / {len(unsubmitted)} ({len(orphans)})")
    if orphans:
        fail(f"{len(orphans)} empty applications no session refers to (a first save killed between "
             "creating the application and attaching it to the session)")
    audit_rows = int(cluster.psql("SELECT count(*) FROM faults_submissions"))
    note("kill", "submission-time changes recorded by the audit trigger", audit_rows)


# ---------------------------------------------------------------------------------------------
# Part 2: a full disk under the upload store


def multipart(file_name, data):
    boundary = "----enrollflow-faults-" + uuid.uuid4().hex
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"enrollment_type\"\r\n\r\nqle\r\n"
            f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; "
            f"filename=\"{file_name}\"\r\nContent-Type: application/pdf\r\n\r\n").encode()
    body += data + f"\r\n--{boundary}--\r\n".encode()
    return body, f"multipart/form-data; boundary={boundary}"


def pdf(size):
    return PDF_HEAD + b"%" * (size - len(PDF_HEAD) - 6) + b"\n%%EOF"


def part_disk(args, cluster, workdir, data_key):
    log("full disk under the upload store")
    if os.geteuid() != 0:
        print("  skipped: mounting a tmpfs needs root (the failed write without a full disk is "
              "covered by server/tests/api/documents.rs)")
        note("disk", "full disk", "skipped (not root)")
        return
    docs = os.path.join(workdir, "documents-tmpfs")
    os.makedirs(docs)
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k,mode=0700", "tmpfs", docs],
                             capture_output=True, text=True)
    if mounted.returncode != 0:
        print(f"  skipped: cannot mount a tmpfs ({mounted.stderr.strip()})")
        note("disk", "full disk", "skipped (no tmpfs)")
        return
    server = Server(args.bin, cluster.url, workdir, docs, data_key)
    try:
        server.start()
        c = Client(server)
        c.start_session()
        r = c.request("PUT", "/api/application/step/whyApplying",
                      {"enrollment_type": "qle", "enrollment_reason_id": 2,
                       "qle_event_date": "2024-11-01", "start_date_option_id": 1})
        if r.status != 200:
            fail(f"whyApplying (qle): {r.status} {r.body[:200]}")
            return
        app_id = r.json()["application"]["applicationId"]
        snapshot_sql = (f"SELECT md5(data::text), updated_at, "
                        f"(SELECT count(*) FROM documents WHERE application_id = '{app_id}') "
                        f"FROM applications WHERE id = '{app_id}'")

        def upload(name, data):
            body, ctype = multipart(name, data)
            return c.request("POST", "/api/whyapplying/fileupload", raw=body, content_type=ctype)

        def refused(case, r, before):
            msg = (r.json() or {}).get("error", "")
            if r.status != 503 or not msg.startswith("Your document could not be saved."):
                fail(f"{case}: expected 503 with a message for the user, got {r.status} {r.body[:200]}")
            else:
                note("disk", f"{case}: answer", f"{r.status} \"{msg}\" in {r.seconds * 1000:.0f} ms")
            if cluster.psql(snapshot_sql) != before:
                fail(f"{case}: the application or its documents changed")
            left = os.listdir(docs)
            if case.startswith("upload larger") and left:
                fail(f"{case}: the store kept {left}")
            step = c.request("GET", "/api/application/step/whyApplying")
            if step.status != 200:
                fail(f"{case}: the step does not open any more ({step.status})")

        def accepted(case, r, size):
            if r.status != 200:
                fail(f"{case}: {r.status} {r.body[:200]}")
                return
            doc = r.json()["document_id"]
            row = cluster.psql(f"SELECT storage_key || '|' || size_bytes FROM documents WHERE id = '{doc}'")
            attached = cluster.psql(f"SELECT data->'enrollment_reason_document'->>'id' "
                                    f"FROM applications WHERE id = '{app_id}'")
            key, stored = (row.split("|") + [""])[:2]
            path = os.path.join(docs, key)
            # Stored encrypted: the magic, the key id, the nonce and the tag around the bytes
            # (server/src/security/crypto.rs, `encrypt_bytes_bound`).
            sealed = size + 4 + 8 + 12 + 16
            if stored != str(size) or attached != doc or not os.path.exists(path) \
                    or os.path.getsize(path) != sealed:
                fail(f"{case}: document row/attachment/bytes inconsistent ({row}, {attached})")
            else:
                note("disk", f"{case}: answer", f"200, document attached and {size} bytes on disk (encrypted)")

        # 1. The file is larger than the room left (200 kB on a 64 kB tmpfs): ENOSPC mid-write.
        big = pdf(200 * 1024)
        before = cluster.psql(snapshot_sql)
        refused("upload larger than the free space", upload("proof.pdf", big), before)
        # The store is fixed (more room): the same upload succeeds.
        subprocess.run(["mount", "-o", "remount,size=8m", docs], check=True)
        accepted("same upload after the store got room", upload("proof.pdf", big), len(big))
        # 2. The disk is already full (something else filled it): even a small file fails.
        filler = os.path.join(docs, "filler")
        subprocess.run(["dd", "if=/dev/zero", f"of={filler}", "bs=64k", "count=1000"],
                       capture_output=True)
        small = pdf(2048)
        before = cluster.psql(snapshot_sql)
        refused("small upload on a full disk", upload("proof2.pdf", small), before)
        leftovers = [f for f in os.listdir(docs) if f.endswith(".tmp")]
        if leftovers:
            fail(f"temporary files left on the full disk: {leftovers}")
        os.remove(filler)
        accepted("same upload after space was freed", upload("proof2.pdf", small), len(small))
    finally:
        server.stop()
        subprocess.run(["umount", docs], capture_output=True)


# ---------------------------------------------------------------------------------------------
# Part 3: PostgreSQL stopped and started under load


class Load(threading.Thread):
    """One client cycling through its calls; records (start, end, label, status)."""

    def __init__(self, server, n, records, stop):
        super().__init__(daemon=True)
        self.server = server
        self.n = n
        self.records = records
        self.stop = stop
        self.error = None

    def prepare(self):
        c = Client(self.server)
        c.start_session()
        for path, body in (("/api/application/step/whyApplying", {"enrollment_type": "oe"}),
                           ("/api/application/step/census", census(10_000 + self.n))):
            r = c.request("PUT", path, body)
            if r.status != 200:
                raise RuntimeError(f"prepare {path}: {r.status} {r.body[:200]}")
        self.c = c

    def run(self):
        calls = [("GET /readyz", "GET", "/readyz", None),
                 ("GET step census", "GET", "/api/application/step/census", None),
                 ("GET allPlans", "GET", "/api/plans/1/allPlans", None),
                 ("PUT census", "PUT", "/api/application/step/census", None)]
        i = self.n
        while not self.stop.is_set():
            label, method, path, body = calls[i % len(calls)]
            i += 1
            if label == "PUT census":
                body = census(10_000 + self.n)
                body["sub_first_name"] = random.choice(["Ann", "Anna", "Anne"])
            start = time.monotonic()
            try:
                r = self.c.request(method, path, body)
                status = r.status
            except NoAnswer:
                status = 0
            self.records.append((start, time.monotonic(), label, status))
            time.sleep(0.05)


def listener_connected(cluster):
    try:
        return cluster.psql("SELECT count(*) FROM pg_stat_activity "
                            "WHERE query ILIKE 'LISTEN%enrollflow_cache%'") not in ("", "0")
    except RuntimeError:
        return False


def part_pg(args, cluster, workdir, data_key):
    log(f"PostgreSQL stop/start under load: outage {args.outage} s, {args.clients} clients")
    server = Server(args.bin, cluster.url, workdir, os.path.join(workdir, "documents-pg"), data_key)
    server.start()
    deadline = time.monotonic() + 20
    while not listener_connected(cluster) and time.monotonic() < deadline:
        time.sleep(0.1)
    records, stop = [], threading.Event()
    load = [Load(server, n, records, stop) for n in range(args.clients)]
    try:
        for w in load:
            w.prepare()
        for w in load:
            w.start()
        time.sleep(2)
        t_stop = time.monotonic()
        cluster.stop("fast")
        t_down = time.monotonic()
        time.sleep(args.outage)
        t_start = time.monotonic()
        cluster.start()
        t_up = time.monotonic()
        # Recovered: every request started from some point on succeeds; wait for it (up to 60 s),
        # then keep the load 3 s more to be sure it holds.
        listener_at = None
        limit = t_up + 60
        while time.monotonic() < limit:
            if listener_at is None and listener_connected(cluster):
                listener_at = time.monotonic()
            recent = [r for r in list(records) if r[0] > t_up]
            last_bad = max((r[0] for r in recent if r[3] != 200), default=t_up)
            if listener_at and [r for r in recent if r[0] > last_bad + 3] and \
                    time.monotonic() > last_bad + 3:
                break
            time.sleep(0.1)
        stop.set()
        for w in load:
            w.join(60)
        for w in load:
            if w.is_alive():
                fail("a load client is still waiting for an answer 60 s after the end")

        recs = sorted(records)
        with open(os.path.join(workdir, "pg-timeline.txt"), "w") as f:
            f.write(f"stop {t_stop:.3f} down {t_down:.3f} start {t_start:.3f} up {t_up:.3f}\n")
            for r in recs:
                f.write(f"{r[0] - t_stop:8.3f} {r[1] - t_stop:8.3f} {r[2]:18} {r[3]}\n")
        # Before the outage: answered before the stop began. A request still in flight when
        # PostgreSQL ends its connections belongs to the outage (seen: a save sent 1 ms before
        # `pg_ctl stop` answered 503 when its connection was ended).
        base = [r for r in recs if r[1] < t_stop]
        if any(r[3] != 200 for r in base):
            fail(f"failures before the outage: {Counter(r[3] for r in base)}")
        # Requests answered while PostgreSQL was down or starting (answered after the stop began,
        # sent before it was ready again).
        during = [r for r in recs if r[1] >= t_stop and r[0] < t_start]
        secs = sorted(r[1] - r[0] for r in during)
        statuses = Counter((r[2], r[3]) for r in during)
        note("pg", "requests during the outage", len(during))
        note("pg", "their answers (call: status x count)",
             ", ".join(f"{lbl}: {st} x{k}" for (lbl, st), k in sorted(statuses.items())))
        if secs:
            note("pg", "answer time during the outage: median / max",
                 f"{secs[len(secs) // 2]:.2f} / {secs[-1]:.2f} s")
            if secs[-1] > args.max_answer:
                fail(f"a request during the outage took {secs[-1]:.2f} s (bound {args.max_answer} s)")
        # 503, or 200 for a request that could still use PostgreSQL (answered before it was down,
        # or once `pg_ctl start` had begun: the pool waits up to its acquire timeout for a
        # connection). A 200 while PostgreSQL was down would be a stale cache serving.
        wrong = [r for r in during if r[3] != 503
                 and not (r[3] == 200 and (r[1] < t_down or r[1] > t_start))]
        if wrong:
            fail(f"{len(wrong)} requests during the outage answered neither 503 nor a real 200: "
                 f"{Counter((r[2], r[3]) for r in wrong)}")
        if args.outage > args.max_answer and not [r for r in during
                                                  if r[3] == 503 and r[2] != "GET /readyz"]:
            fail("no API call was answered 503 during an outage longer than the answer bound")
        # Recovered: from the last failure on (or from PostgreSQL being up), every call answers
        # 200; the recovery time is when every kind of call had answered 200 again.
        late = [r for r in recs if r[1] >= t_up]
        last_bad = max((r[1] for r in late if r[3] != 200), default=t_up)
        ok_after = [r for r in late if r[0] >= last_bad or (r[3] == 200 and r[1] >= last_bad)]
        firsts = {}
        for r in ok_after:
            if r[3] == 200:
                firsts.setdefault(r[2], r[1])
        kinds = {r[2] for r in recs}
        note("pg", "pg_ctl stop -m fast took", f"{t_down - t_stop:.2f} s")
        note("pg", "pg_ctl start -w took", f"{t_up - t_start:.2f} s")
        if set(firsts) != kinds or any(r[3] != 200 for r in ok_after):
            fail("the service did not recover within 60 s of PostgreSQL being up")
        else:
            recovered = max(firsts.values()) - t_up
            note("pg", "service recovered (every call answered 200, none failed after) after "
                 "PostgreSQL was up", f"{recovered:.2f} s")
            if recovered > 30:
                fail(f"recovery took {recovered:.1f} s (target 30 s)")
        if listener_at is None:
            fail("the cache listener did not reconnect within 60 s")
        else:
            note("pg", "cache listener connected again after", f"{listener_at - t_up:.2f} s")

        # The caches work again and follow changes: warm an application in the cache, change it
        # behind the server's back (as another instance would), read it back through the server.
        w = load[0]
        c = w.c
        body = census(10_000 + w.n)
        body["sub_first_name"] = "Recovered"
        r = c.request("PUT", "/api/application/step/census", body)
        if r.status != 200:
            fail(f"a save after recovery: {r.status} {r.body[:200]}")
        app_id = r.json()["application"]["applicationId"]

        def first_name():
            v = c.request("GET", "/api/application/step/census").json()
            return json.dumps(v).count('"Recovered"'), json.dumps(v).count('"Elsewhere"')

        if first_name()[0] == 0:
            fail("a save after recovery is not read back")
        first_name()
        cluster.psql(f"UPDATE applications SET data = jsonb_set(data, '{{census,sub_first_name}}', "
                     f"'\"Elsewhere\"') WHERE id = '{app_id}'")
        t0 = time.monotonic()
        while first_name()[1] == 0:
            if time.monotonic() - t0 > 5:
                fail("a change made in PostgreSQL is not seen through the cache 5 s later "
                     "(stale cache after the restart)")
                break
            time.sleep(0.02)
        else:
            note("pg", "a change made behind the server's back is served after",
                 f"{(time.monotonic() - t0) * 1000:.0f} ms (save read back: yes)")
    finally:
        stop.set()
        if not cluster.running:
            cluster.start()
        server.stop()


# ---------------------------------------------------------------------------------------------


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default=os.path.join(
        os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target")), "debug", "enrollflow"))
    ap.add_argument("--parts", default="kill,disk,pg")
    ap.add_argument("--cycles", type=int, default=3, help="kill -9 cycles")
    ap.add_argument("--shoppers", type=int, default=4, help="concurrent shoppers during the kills")
    ap.add_argument("--outage", type=float, default=3, help="seconds PostgreSQL stays stopped")
    ap.add_argument("--clients", type=int, default=4, help="load clients during the outage")
    ap.add_argument("--max-answer", type=float, default=6.0,
                    help="bound on an answer time during the outage (s)")
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--keep", action="store_true", help="keep the work folder (logs)")
    args = ap.parse_args()
    args.bin = os.path.abspath(args.bin)
    if not os.access(args.bin, os.X_OK):
        sys.exit(f"no server binary at {args.bin} (cargo build --bin enrollflow)")
    parts = [p.strip() for p in args.parts.split(",") if p.strip()]
    started = time.monotonic()
    workdir = tempfile.mkdtemp(prefix="enrollflow-faults.")
    cluster = Cluster()
    data_key = base64.b64encode(os.urandom(32)).decode()
    try:
        log(f"private PostgreSQL cluster on 127.0.0.1:{cluster.port} in {cluster.dir}")
        cluster.init()
        cluster.start()
        cluster.psql("CREATE DATABASE enrollflow_faults", db=f"{cluster.server}/postgres")
        subprocess.run([args.bin, "seed", "--demo", "--file", "demo/agents.json"], cwd=ROOT, check=True,
                       env=dict(os.environ, DATABASE_URL=cluster.url), capture_output=True)
        log(f"seeded ({time.monotonic() - started:.1f} s)")
        for p in parts:
            {"kill": part_kill, "disk": part_disk, "pg": part_pg}[p](args, cluster, workdir, data_key)
    finally:
        for s in servers:
            s.stop()
        cluster.cleanup()
        if args.keep or failures:
            print(f"server logs kept in {workdir}")
        else:
            shutil.rmtree(workdir, ignore_errors=True)
    total = time.monotonic() - started
    print()
    print(f"faults: {', '.join(parts)} in {total:.1f} s "
          f"({os.cpu_count()} cores, {time.strftime('%Y-%m-%d')})")
    for part, what, value in figures:
        print(f"  [{part}] {what}: {value}")
    if failures:
        print(f"\n{len(failures)} check(s) failed:")
        for f in failures:
            print(f"  - {f}")
        sys.exit(1)
    print("every check held")


if __name__ == "__main__":
    main()
