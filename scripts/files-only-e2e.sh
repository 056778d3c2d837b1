#!/usr/bin/env bash
# The proof that a new carrier, step and plan year need files only, in the browser: a copy of rules/, forms/ and templates/ with
# tests/files-only/changes.txt applied (a fifth carrier, a Payment Method step, plan year 2026),
# served by the same binary as the other browser tests, on 2025-11-20, with an agent who offers only
# the new carrier; then web/e2e/files-only.spec.ts (Playwright project `files-only`), which also
# edits the copy while the server runs. Expects DATABASE_URL (scripts/with-db.sh) and a built server
# and web app, as scripts/e2e.sh does.
set -euo pipefail
cd "$(dirname "$0")/.."
set_dir=$(mktemp -d)
trap 'rm -rf "$set_dir"' EXIT
python3 tests/files-only/apply.py "$set_dir"
E2E_ROOT=$set_dir E2E_FILES_ONLY_ROOT=$set_dir E2E_AGENTS=tests/files-only/agents.json \
  ENROLLFLOW_TODAY=2025-11-20 E2E_DB=${E2E_DB:-enrollflow_e2e}_files E2E_PORT=${E2E_FILES_PORT:-18081} \
  scripts/e2e.sh --project=files-only "$@"
