#!/usr/bin/env bash
# Runs a command with DATABASE_URL pointing at a PostgreSQL database named `enrollflow`:
#   1. DATABASE_URL when it is set;
#   2. otherwise a server accepting connections on localhost:5432 (the database is created if missing);
#   3. otherwise a private cluster started from the installed server binaries (initdb/pg_ctl, run as an
#      unprivileged user) under the git-ignored .pg/ folder on a free port, stopped when the command ends.
# Usage: scripts/with-db.sh COMMAND [ARGS...]
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
db=enrollflow

say() { echo "with-db: $*" >&2; }

can_connect() { psql "$1" -Atqc 'select 1' >/dev/null 2>&1; }

ensure_database() { # $1 = server URL without database
  if ! psql "$1/postgres" -Atqc "select 1 from pg_database where datname='$db'" 2>/dev/null | grep -q 1; then
    psql "$1/postgres" -qc "create database $db" >/dev/null
  fi
}

if [ -n "${DATABASE_URL:-}" ]; then
  say "using DATABASE_URL"
  exec "$@"
fi

# 2. A server on localhost that lets us in (as ourselves, or as postgres).
if [ -z "${ENROLLFLOW_PRIVATE_PG:-}" ] && command -v psql >/dev/null; then
  for user in "$(id -un)" postgres; do
    base="postgresql://$user@127.0.0.1:5432"
    if can_connect "$base/postgres"; then
      ensure_database "$base"
      say "using the PostgreSQL server on 127.0.0.1:5432 as $user"
      export DATABASE_URL="$base/$db"
      exec "$@"
    fi
  done
fi

# 3. A private cluster.
bindir=""
if command -v initdb >/dev/null && command -v pg_ctl >/dev/null; then
  bindir=$(dirname "$(command -v pg_ctl)")
else
  for d in /usr/lib/postgresql/*/bin; do [ -x "$d/initdb" ] && bindir=$d; done
fi
if [ -z "$bindir" ]; then
  echo "PostgreSQL is not installed: install it (Debian: apt-get install postgresql) or set DATABASE_URL." >&2
  exit 1
fi

run_pg() { "$@"; }
pguser=$(id -un)
if [ "$(id -u)" = 0 ]; then
  # initdb and pg_ctl refuse to run as root.
  pguser=nobody
  run_pg() { runuser -u nobody -- "$@"; }
fi

pgdir="$root/.pg"
mkdir -p "$pgdir"
if [ "$(id -u)" = 0 ]; then
  chown nobody "$pgdir"
  if ! runuser -u nobody -- test -w "$pgdir"; then
    # The checkout is not reachable by the unprivileged user (for example under /root).
    pgdir=$(mktemp -d /tmp/enrollflow-pg.XXXXXX)
    chown nobody "$pgdir"
  fi
fi

port=55432
while (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; do port=$((port + 1)); done

if [ ! -f "$pgdir/data/PG_VERSION" ]; then
  say "creating a private PostgreSQL cluster in $pgdir/data"
  run_pg "$bindir/initdb" -D "$pgdir/data" -U enrollflow --auth=trust -E UTF8 >"$pgdir/initdb.log" 2>&1 \
    || { cat "$pgdir/initdb.log" >&2; exit 1; }
fi
run_pg "$bindir/pg_ctl" -D "$pgdir/data" -l "$pgdir/server.log" -w \
  -o "-p $port -c listen_addresses=127.0.0.1 -k $pgdir" start >/dev/null \
  || { tail -20 "$pgdir/server.log" >&2; exit 1; }
stop() { run_pg "$bindir/pg_ctl" -D "$pgdir/data" -m fast -w stop >/dev/null 2>&1 || true; }
trap stop EXIT INT TERM
say "private PostgreSQL cluster on 127.0.0.1:$port (stopped on exit)"
base="postgresql://enrollflow@127.0.0.1:$port"
ensure_database "$base"
export DATABASE_URL="$base/$db"
"$@"
