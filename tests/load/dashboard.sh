#!/usr/bin/env bash
# The agent dashboard with 100,000 applications (the dashboard's performance target): p50/p95 of the
# Quoting and Submissions list pages (sorts, search, filters, long period, deep pages) and the
# 100,000-row Excel export (wall time, the server's memory before, after and at its peak).
# Starts the release server on a fresh database holding the demo agents, loads APPLICATIONS demo
# applications for the acme agent (SUBMITTED_SHARE of them submitted: 100,000 quotes and 25,000
# submissions by default) and measures one client at a time.
# Usage: scripts/with-db.sh tests/load/dashboard.sh   (make bench-dashboard); REQUESTS=300 by default.
set -euo pipefail
cd "$(dirname "$0")/../.."
LOAD_DB=enrollflow_dashboard
PORT=${PORT:-18183}
. tests/load/server.sh
APPLICATIONS=${APPLICATIONS:-125000}
# Past 125,000, the applications are 40,000 walked through the rules and copies of them by other
# people (seed-demo-data --distinct): the walk runs at about 500 a second, a copy at the database's
# speed.
distinct=()
if (( APPLICATIONS > 125000 )); then distinct=(--distinct "${DISTINCT:-40000}"); fi
ENROLLFLOW_TODAY=2024-11-20 ENROLLFLOW_LOG=warn "$bin" seed-demo-data --agent 17439021 \
  --applications "$APPLICATIONS" --submitted-share "${SUBMITTED_SHARE:-0.2}" "${distinct[@]}" >&2
# (The load ends with VACUUM ANALYZE of the applications and the per-day counts.)
python3 tests/load/dashboard.py "http://127.0.0.1:$PORT" "$host" "$server_pid" "${REQUESTS:-300}"
