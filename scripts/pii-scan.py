#!/usr/bin/env python3
"""The PII scan run after the browser tests.

Looks for SSNs and birth dates (the browser tests' own, and any of their shape) in:
  - the given files and folders (the server's log, the URLs and error bodies the browser saw);
  - the database: no plaintext SSN anywhere in an application's document (they are ciphertext),
    and none in the audit log, page views, documents or the outbox.
An SSN is 9 digits (or 3-2-4 with dashes); a birth date is a date before 2020 (the tests' coverage,
signature and event dates are all later), as YYYY-MM-DD or MM/DD/YYYY.
Usage: pii-scan.py [--db DATABASE_URL] PATH...   Exits 1 and prints where, if anything is found.
"""
import os
import re
import subprocess
import sys

# Not the digits of a decimal fraction: the server logs a slow statement's time in seconds with
# nine decimals ("elapsed_secs":3.360226629).
SSN = re.compile(r"(?<![\w-])(?<!\d\.)(\d{3}-\d{2}-\d{4}|\d{9})(?![\w-])(?!\.\d)")
BIRTH = re.compile(r"(?<!\d)((?:19\d\d|200\d|201\d)-\d\d-\d\d|\d\d/\d\d/(?:19\d\d|200\d|201\d))(?!\d)")


def scan_text(where, text, found):
    for rx, what in ((SSN, "SSN"), (BIRTH, "birth date")):
        for m in rx.finditer(text):
            start = max(0, m.start() - 60)
            found.append(f"{where}: {what} {m.group(1)!r} in …{text[start:m.end() + 60]!r}…")


def scan_path(path, found):
    if os.path.isdir(path):
        for root, _, files in os.walk(path):
            for f in files:
                scan_path(os.path.join(root, f), found)
        return
    if path.endswith((".zip", ".png", ".webm", ".pdf", ".xlsx")):
        return
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for n, line in enumerate(f, 1):
                scan_text(f"{path}:{n}", line, found)
    except OSError as e:
        found.append(f"{path}: cannot read ({e})")


QUERIES = {
    # Every string in an application's document: sensitive answers must be ciphertext.
    "applications.data": "SELECT id::text, v FROM applications, "
                         "jsonb_path_query(data, 'strict $.**') AS j(v0), "
                         "LATERAL (SELECT j.v0 #>> '{}' AS v) s WHERE jsonb_typeof(j.v0) = 'string'",
    "audit_log": "SELECT id::text, row_to_json(a)::text FROM audit_log a",
    "page_views": "SELECT id::text, route FROM page_views",
    "documents": "SELECT id::text, row_to_json(d)::text FROM documents d",
    "outbox": "SELECT id::text, row_to_json(o)::text FROM outbox o",
}
SSN_ONLY = {"applications.data"}


def scan_db(url, found):
    for table, sql in QUERIES.items():
        out = subprocess.run(["psql", url, "-AtF", "\x1f", "-c", sql], capture_output=True, text=True)
        if out.returncode != 0:
            found.append(f"{table}: query failed: {out.stderr.strip()}")
            continue
        for line in out.stdout.splitlines():
            row, _, value = line.partition("\x1f")
            if table in SSN_ONLY:
                # Birth dates are answers the application keeps; SSNs must never be plaintext.
                for m in SSN.finditer(value):
                    found.append(f"{table} {row}: plaintext SSN {m.group(1)!r}")
            else:
                scan_text(f"{table} {row}", value, found)


def self_test():
    """The scan finds what it must and nothing else (run before every scan)."""
    found = []
    scan_text("t", "GET /x?ssn=123456789 123-45-6789 {\"b\":\"1985-03-02\"} 03/02/1985 "
                   "the SSN is 987654321.", found)
    assert len(found) == 5, found
    clean = []
    scan_text("t", "7345550199 48104 1b6f-4275-95af-8a854b20c2b4 2024-11-20 11/20/2024 "
                    "1234567890 ef_session=12345678 \"elapsed_secs\":3.360226629 123456789.25", clean)
    assert clean == [], clean


def main():
    self_test()
    args = sys.argv[1:]
    db = None
    if args[:1] == ["--db"]:
        db, args = args[1], args[2:]
    found = []
    for p in args:
        scan_path(p, found)
    if db:
        scan_db(db, found)
    scanned = ", ".join(args + ([f"the database"] if db else []))
    if found:
        print(f"PII scan: {len(found)} finding(s) in {scanned}:", file=sys.stderr)
        for f in found[:50]:
            print("  " + f, file=sys.stderr)
        sys.exit(1)
    print(f"PII scan: no SSN or birth date in {scanned}")


if __name__ == "__main__":
    main()
