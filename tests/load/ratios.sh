#!/usr/bin/env bash
# Throughput ratios against the server's own baselines in one run on loopback: step view and the
# quote (one county's full medical list for a household of 6)
# against /bench/hello (and the quote against /healthz too, the baseline the catalog issue names),
# and the step submit (validation, encryption, the write) against the write baseline
# (/bench/write/{slot}: a document of the same size written durably to one row through the same
# pool); the primary-key read (/bench/pk/{id}) is reported too. For the two writes, the WAL bytes
# per request (pg_stat_wal), the share of HOT updates (pg_stat_user_tables) and the CPU time per
# request of the server, of PostgreSQL and of the whole machine (/proc). SESSIONS shoppers (64)
# take turns so writes do not queue on one row. Requests carry a browser's Accept-Encoding (the
# quote is then sent gzip-compressed); the quote without it is reported too. Where pgbench is
# installed, PostgreSQL's own ratio on this machine (a durable one-row UPDATE against a primary-key
# SELECT, no HTTP) is printed beside the step submit's.
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
rate() { # $1 path or lua script name; also sets $requests
  local out
  if [ -f "$lua/$1.lua" ]; then
    out=$(wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" -s "$lua/$1.lua" "http://127.0.0.1:$PORT/")
  else
    out=$(wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" -H "Host: $host" -H "Accept-Encoding: gzip, deflate, br" \
      "http://127.0.0.1:$PORT$1")
  fi
  if grep -q "Non-2xx" <<<"$out"; then echo "$1: $(grep Non-2xx <<<"$out")" >&2; exit 1; fi
  requests=$(awk '/requests in/ { print $1 }' <<<"$out")
  awk '/Requests\/sec/ { print $2 }' <<<"$out" >"$lua/rate"
}
# The database's counters: the WAL position in bytes, and updates and HOT updates of table $1
# (server processes report their table counters within 10 s of going idle: hence the wait).
counters() {
  sleep 11
  psql "$DATABASE_URL" -AtF' ' -qc "select pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint,
    coalesce(sum(n_tup_upd), 0), coalesce(sum(n_tup_hot_upd), 0)
    from pg_stat_user_tables where relname = '$1'"
}
# The CPU time spent so far, in clock ticks: the server's, PostgreSQL's (its processes, the
# connection backends included, and those that ended: their parent counts them) and the whole
# machine's (every core, busy or not).
cpu() {
  local pg=0 pid
  for pid in $(pgrep -x postgres || true); do
    pg=$((pg + $(awk '{ print $14 + $15 + $16 + $17 }' "/proc/$pid/stat" 2>/dev/null || echo 0)))
  done
  echo "$(awk '{ print $14 + $15 }' "/proc/$server_pid/stat") $pg $(awk '/^cpu / { print $2 + $3 + $4 + $5 + $6 + $7 + $8 }' /proc/stat)"
}
# Runs a write route; prints "req/s WAL-bytes-per-request HOT-share" and the CPU microseconds per
# request of the server, of PostgreSQL and of the whole machine (busy or idle: what the two cores
# offer per request at this rate).
write_rate() { # $1 lua script name, $2 table
  local before after c0 c1
  before=$(counters "$2")
  c0=$(cpu)
  rate "$1"
  c1=$(cpu)
  after=$(counters "$2")
  python3 -c 'import os, sys
r, n = float(sys.argv[1]), int(sys.argv[2])
w0, u0, h0, w1, u1, h1, s0, p0, m0, s1, p1, m1 = map(int, sys.argv[3:])
tick = 1e6 / os.sysconf("SC_CLK_TCK") / max(n, 1)
print(r, (w1 - w0) / max(n, 1), (h1 - h0) / max(u1 - u0, 1), (s1 - s0) * tick, (p1 - p0) * tick, (m1 - m0) * tick)' \
    "$(cat "$lua/rate")" "$requests" $before $after $c0 $c1
}
read_rate() { rate "$1"; cat "$lua/rate"; }
hello=$(read_rate /bench/hello)
healthz=$(read_rate /healthz)
view=$(read_rate step_view)
quote=$(read_rate quote)
identity=$(read_rate quote_identity)
pk=$(read_rate pk_read)
# The baseline's table is made on its first request.
curl -fs -X PUT -H "Host: $host" -H 'Content-Type: application/json' -d '{}' "http://127.0.0.1:$PORT/bench/write/0" >/dev/null
read -r write write_wal write_hot write_srv write_pg write_all <<<"$(write_rate write bench_writes)"
read -r submit submit_wal submit_hot submit_srv submit_pg submit_all <<<"$(write_rate step_submit applications)"
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
python3 - "$hello" "$healthz" "$view" "$quote" "$identity" "$pk" "$submit" "$pg_update" "$pg_select" \
  "$write" "$write_wal" "$write_hot" "$submit_wal" "$submit_hot" \
  "$write_srv" "$write_pg" "$write_all" "$submit_srv" "$submit_pg" "$submit_all" <<'PY'
import sys
(hello, healthz, view, quote, identity, pk, submit, pg_update, pg_select,
 write, write_wal, write_hot, submit_wal, submit_hot,
 write_srv, write_pg, write_all, submit_srv, submit_pg, submit_all) = map(float, sys.argv[1:])
rows = [("/bench/hello (baseline)", hello, None, None),
        ("step view GET census", view, view / hello, 0.5),
        ("quote GET allPlans (6 people)", quote, quote / hello, 0.5),
        ("  the same without gzip", identity, identity / hello, None),
        ("/healthz (the quoting baseline)", healthz, None, None),
        ("quote GET allPlans vs /healthz", quote, quote / healthz, 0.5),
        ("/bench/pk read", pk, None, None),
        ("/bench/write (baseline)", write, None, None),
        ("step submit PUT census", submit, submit / write, 0.7),
        ("  step submit vs the PK read", submit, submit / pk, None)]
if pg_select:
    rows.append(("  pgbench: UPDATE vs PK SELECT", pg_update, pg_update / pg_select, None))
print(f"{'route':32} {'req/s':>9} {'ratio':>7} {'target':>7}")
bad = False
for name, rate, ratio, target in rows:
    r = f"{ratio:7.0%}" if ratio is not None else ""
    t = f"{target:7.0%}" if target is not None else ""
    print(f"{name:32} {rate:9.0f} {r:>7} {t:>7}")
    bad |= target is not None and ratio < target
print(f"WAL bytes per request: /bench/write {write_wal:,.0f}, step submit {submit_wal:,.0f}; "
      f"HOT updates: bench_writes {write_hot:.0%}, applications {submit_hot:.0%}")
# Where each write's time goes: CPU microseconds per request. "the machine" is both cores' time
# per request at the measured rate, busy or idle; the rest of it is wrk, the kernel and waiting.
print(f"CPU per request, server / PostgreSQL / the machine (us): /bench/write {write_srv:,.0f} / "
      f"{write_pg:,.0f} / {write_all:,.0f}; step submit {submit_srv:,.0f} / {submit_pg:,.0f} / {submit_all:,.0f}")
print("all ratios meet their targets" if not bad else "a ratio is below its target")
PY
