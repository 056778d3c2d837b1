#!/usr/bin/env python3
"""Latency of the agent dashboard's list pages and the time and memory of its export.

Logs in as the acme agent's user (the demo password), then calls every list variant REQUESTS times
one after another (after a few warm-up calls) and prints p50/p95/max in milliseconds; then exports
the quotes and the submissions of the last 12 months, counts the rows of each workbook and reads
the server's resident memory (VmRSS, and the peak VmHWM) from /proc before and after.
Standard library only. Usage: dashboard.py http://127.0.0.1:PORT acme.localhost:PORT SERVER_PID [requests]
ONLY=regex: only the lists and exports whose label matches (for example ONLY='search|Export').
"""
import io
import json
import os
import re
import statistics
import sys
import zipfile

from client import Session, percentile

base, host, pid = sys.argv[1], sys.argv[2], sys.argv[3]
requests = int(sys.argv[4]) if len(sys.argv) > 4 else 300
USER = "maria.alvarez@acme-insurance.example.com"


class Client(Session):
    def get(self, path):
        """The answer's bytes and its time in milliseconds."""
        raw = self.call(path, "GET", path, raw=True)
        return raw, self.timings[path][-1][0]


def memory():
    status = open(f"/proc/{pid}/status").read()
    kb = lambda key: int(re.search(rf"^{key}:\s+(\d+) kB", status, re.M).group(1))
    return kb("VmRSS") / 1024, kb("VmHWM") / 1024


c = Client(base, host, timeout=600)
c.login(USER)

Y = "daysToShow=365"
CASES = [
    ("quotes: default (60 days, name)", "/api/dashboard/quotes"),
    ("quotes: 12 months, name asc", f"/api/dashboard/quotes?{Y}"),
    ("quotes: 12 months, name desc", f"/api/dashboard/quotes?{Y}&sortCol=last_name&sortOrderAsc=false"),
    ("quotes: 12 months, created desc", f"/api/dashboard/quotes?{Y}&sortCol=created_at"),
    ("quotes: 12 months, effective asc", f"/api/dashboard/quotes?{Y}&sortCol=effective_date&sortOrderAsc=true"),
    ("quotes: 12 months, search 'smith'", f"/api/dashboard/quotes?{Y}&searchName=smith"),
    ("quotes: 12 months, search e-mail", f"/api/dashboard/quotes?{Y}&searchName=olivia.garcia1"),
    ("quotes: 12 months, dental", f"/api/dashboard/quotes?{Y}&filterProduct=dental"),
    ("quotes: 12 months, started by agent", f"/api/dashboard/quotes?{Y}&filterStartedBy=agent"),
    # Deep pages at the same place in the list whatever its length (12 rows a page): with 125,000
    # applications, pages 4,000 and 8,000 of 8,334 quotes and 1,500 of 2,083 submissions.
    ("quotes: 12 months, name, page at 48%", "/api/dashboard/quotes?{Y}&page={quotes_48}"),
    ("quotes: 12 months, created, page at 96%", "/api/dashboard/quotes?{Y}&sortCol=created_at&page={quotes_96}"),
    ("enrollees: default (60 days, submitted)", "/api/dashboard/enrollees"),
    ("enrollees: 12 months, submitted desc", f"/api/dashboard/enrollees?{Y}"),
    ("enrollees: 12 months, name asc", f"/api/dashboard/enrollees?{Y}&sortCol=last_name&sortOrderAsc=true"),
    ("enrollees: 12 months, name desc", f"/api/dashboard/enrollees?{Y}&sortCol=last_name&sortOrderAsc=false"),
    ("enrollees: 12 months, effective desc", f"/api/dashboard/enrollees?{Y}&sortCol=effective_date"),
    ("enrollees: 12 months, search 'smith'", f"/api/dashboard/enrollees?{Y}&searchName=smith"),
    ("enrollees: 12 months, vision", f"/api/dashboard/enrollees?{Y}&filterProduct=vision"),
    ("enrollees: 12 months, name, page at 72%", "/api/dashboard/enrollees?{Y}&sortCol=last_name&page={enrollees_72}"),
]

total_quotes = json.loads(c.get(f"/api/dashboard/quotes?{Y}")[0])["total"]
total_enrollees = json.loads(c.get(f"/api/dashboard/enrollees?{Y}")[0])["total"]
print(f"acme agent: {total_quotes} quotes and {total_enrollees} submissions in the last 12 months")
pages = lambda rows, share: max(1, round((rows + 11) // 12 * share))
at = {"Y": Y, "quotes_48": pages(total_quotes, 0.48), "quotes_96": pages(total_quotes, 0.96),
      "enrollees_72": pages(total_enrollees, 0.72)}
CASES = [(label.replace("at 48%", f"{at['quotes_48']}").replace("at 96%", f"{at['quotes_96']}")
          .replace("at 72%", f"{at['enrollees_72']}"), path.format(**at) if "{" in path else path)
         for label, path in CASES]
only = re.compile(os.environ.get("ONLY", ""))
CASES = [(label, path) for label, path in CASES if only.search(label)]
print(f"{requests} requests per list, one at a time; milliseconds per call")
print(f"{'list':42} {'rows':>7} {'p50':>7} {'p95':>7} {'max':>7}")
worst = 0.0
for label, path in CASES:
    for _ in range(5):
        c.get(path)
    ms = []
    for _ in range(requests):
        raw, t = c.get(path)
        ms.append(t)
    total = json.loads(raw)["total"]
    ms.sort()
    p95 = percentile(ms, 0.95)
    worst = max(worst, p95)
    print(f"{label:42} {total:7} {statistics.median(ms):7.2f} {p95:7.2f} {ms[-1]:7.2f}", flush=True)
if CASES:
    print(f"slowest p95: {worst:.2f} ms (target: 20 ms at 1,000,000 applications)")


def rows_of(workbook):
    with zipfile.ZipFile(io.BytesIO(workbook)) as z:
        sheet = z.read("xl/worksheets/sheet1.xml")
    return len(re.findall(rb"<row ", sheet)) - 1  # minus the header row


for label, path in [
    ("quotesExport, 12 months", f"/api/dashboard/quotesExport?{Y}"),
    ("enrolleesExport, 12 months", f"/api/dashboard/enrolleesExport?{Y}"),
]:
    if not only.search(label):
        continue
    # The peak (VmHWM) counted from here: the export's own, not the lists' before it.
    try:
        with open(f"/proc/{pid}/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        pass
    rss0, hwm0 = memory()
    raw, ms = c.get(path)
    rss1, hwm1 = memory()
    print(f"{label}: {rows_of(raw)} rows, {len(raw) / 1e6:.1f} MB in {ms / 1000:.2f} s; server RSS "
          f"{rss0:.0f} MB before, {rss1:.0f} MB after, peak {hwm1:.0f} MB "
          f"(peak before {hwm0:.0f} MB: growth at most {max(hwm1 - rss0, 0):.0f} MB)", flush=True)
