#!/usr/bin/env bash
# Recreates database $1 on the server of DATABASE_URL, loads the demo agents (and the agents files
# given after $2) with the enrollflow binary $2, and prints the new database's URL. Used by the browser tests and the load test.
set -euo pipefail
: "${DATABASE_URL:?run through scripts/with-db.sh}"
name=$1
bin=$2
server=${DATABASE_URL%/*}
psql "$server/postgres" -qc "drop database if exists $name with (force)" >/dev/null
psql "$server/postgres" -qc "create database $name" >/dev/null
for file in demo/agents.json "${@:3}"; do
  DATABASE_URL="$server/$name" "$bin" seed --demo --file "$file" >/dev/null
done
echo "$server/$name"
