#!/usr/bin/env bash
# Throughput ratios against the server's own baselines in one run on loopback (issue 8 item 2):
# step view and the quote (one county's full medical list for a household of 6) against
# /bench/hello (and the quote against /healthz too, the baseline the catalog issue names), and
# the step submit (validation, encryption, the write) against a primary-key read
# (/bench/pk/{id}). SESSIONS shoppers (64) take turns so writes do not queue on one row. Requests
# carry a browser's Accept-Encoding (the quote is then sent gzip-compressed); the quote without it
# is reported too. Where pgbench is installed, PostgreSQL's own ratio on this machine (a durable
# one-row UPDATE against a primary-key SELECT, no HTTP) is printed beside the step submit's.
# Starts the release server (with --bench-routes) on a fresh seeded database; wrk 2 threads x
# CONNECTIONS (32) for DURATION (10) seconds per route.
# Usage: scripts/with-db.sh tests/load/ratios.sh   (make bench-http)
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v wrk >/dev/null || apt-get install -y wrk >/dev/null
DURATION=${DURATION:-10}
CONNECTIONS=${CONNECTIONS:-32}
LOAD_DB=enrollflow_ratios
. tests/load/server.sh
lua=$(mktemp -d)
python3 tests/load/wrk_sessions.py "http://127.0.0.1:$PORT" "$host" "${SESSIONS:-64}" "$lua" >&2
rate() { # $1 path or lua script name
  local out
  if [ -f "$lua/$1.lua" ]; then
    out=$(wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" -s "$lua/$1.lua" "http://127.0.0.1:$PORT/")
  else
    out=$(wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" -H "Host: $host" -H "Accept-Encoding: gzip, deflate, br" \
      "http://127.0.0.1:$PORT$1")
  fi
  if grep -q "Non-2xx" <<<"$out"; then echo "$1: $(grep Non-2xx <<<"$out")" >&2; exit 1; fi
  awk '/Requests\/sec/ { print $2 }' <<<"$out"
}
hello=$(rate /bench/hello)
healthz=$(rate /healthz)
view=$(rate step_view)
quote=$(rate quote)
identity=$(rate quote_identity)
pk=$(rate pk_read)
submit=$(rate step_submit)
rm -rf "$lua"
# PostgreSQL alone on this machine: how fast a durable one-row UPDATE is next to a PK SELECT.
pg_update=0; pg_select=0
if command -v pgbench >/dev/null; then
  server=${DATABASE_URL%/*}
  psql "$server/postgres" -qc "drop database if exists enrollflow_pgbench with (force)" -c "create database enrollflow_pgbench" >/dev/null
  psql "$server/enrollflow_pgbench" -qc "create table t (id int primary key, v int); insert into t select g, 0 from generate_series(1, 64) g" >/dev/null
  pgb() { printf '\\set id random(1, 64)\n%s\n' "$1" >"$lua.sql"
          pgbench -n -c "$CONNECTIONS" -j 2 -T "$DURATION" -f "$lua.sql" "$server/enrollflow_pgbench" 2>/dev/null \
            | awk '/^tps/ { print $3 }'; }
  pg_update=$(pgb "update t set v = v + 1 where id = :id;")
  pg_select=$(pgb "select v from t where id = :id;")
  rm -f "$lua.sql"
  psql "$server/postgres" -qc "drop database enrollflow_pgbench" >/dev/null
fi
python3 - "$hello" "$healthz" "$view" "$quote" "$identity" "$pk" "$submit" "$pg_update" "$pg_select" <<'PY'
import sys
hello, healthz, view, quote, identity, pk, submit, pg_update, pg_select = map(float, sys.argv[1:])
rows = [("/bench/hello (baseline)", hello, None, None),
        ("step view GET census", view, view / hello, 0.5),
        ("quote GET allPlans (6 people)", quote, quote / hello, 0.5),
        ("  the same without gzip", identity, identity / hello, None),
        ("/healthz (issue 4's baseline)", healthz, None, None),
        ("quote GET allPlans vs /healthz", quote, quote / healthz, 0.5),
        ("/bench/pk read (baseline)", pk, None, None),
        ("step submit PUT census", submit, submit / pk, 0.6)]
if pg_select:
    rows.append(("  pgbench: UPDATE vs PK SELECT", pg_update, pg_update / pg_select, None))
print(f"{'route':32} {'req/s':>9} {'ratio':>7} {'target':>7}")
bad = False
for name, rate, ratio, target in rows:
    r = f"{ratio:7.0%}" if ratio is not None else ""
    t = f"{target:7.0%}" if target is not None else ""
    print(f"{name:32} {rate:9.0f} {r:>7} {t:>7}")
    bad |= target is not None and ratio < target
print("all ratios meet their targets" if not bad else "a ratio is below its target")
PY
