#!/usr/bin/env bash
# Runs every cargo-fuzz target of fuzz/ for SECONDS each (default 600), prints per target the runs
# executed and the crashes found, and exits non-zero when any target crashed. See fuzz/README.md.
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]
#
# Environment:
#   FUZZ_JOBS=2          targets run two at a time (default 1: one after another)
#   FUZZ_SANITIZER=none  libFuzzer without AddressSanitizer (default: address)
#   FUZZ_TARGET_DIR      the fuzz builds' target directory (default /var/tmp/enrollflow-fuzz-target;
#                        sanitizer flags would otherwise rebuild the shared target directory)
#
# Only the stable toolchain is needed: RUSTC_BOOTSTRAP=1 unlocks the -Z flags cargo-fuzz passes.
# Crashes go to fuzz/artifacts/<target>/ (crash-*, timeout-*, oom-*); the growing corpus and the
# logs to fuzz/work/ (both git-ignored); the checked-in seeds in fuzz/corpus/ are only read.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-600}
shift || true
[[ $seconds =~ ^[0-9]+$ ]] || { echo "usage: scripts/fuzz.sh [SECONDS] [TARGET...]" >&2; exit 2; }
jobs=${FUZZ_JOBS:-1}
sanitizer=${FUZZ_SANITIZER:-address}

export RUSTC_BOOTSTRAP=1
export CARGO_TARGET_DIR=${FUZZ_TARGET_DIR:-/var/tmp/enrollflow-fuzz-target}

if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "== installing cargo-fuzz"
  cargo install cargo-fuzz --locked
fi

if (($#)); then
  targets=("$@")
else
  mapfile -t targets < <(cd fuzz && cargo fuzz list)
fi

# Release build with debug assertions and overflow checks: a panic, an overflow or a sanitizer
# report is a crash.
build=(-O -a --sanitizer "$sanitizer")
echo "== building ${targets[*]} (sanitizer: $sanitizer, target dir: $CARGO_TARGET_DIR)"
(cd fuzz && cargo fuzz build "${build[@]}")

mkdir -p fuzz/work/logs fuzz/artifacts

run_one() {
  local t=$1 log=fuzz/work/logs/$1.log work=fuzz/work/corpus/$1
  mkdir -p "$work" "fuzz/artifacts/$t" "fuzz/corpus/$t"
  touch "fuzz/work/logs/$t.start"
  local dict=()
  [[ -f fuzz/dict/$t.dict ]] && dict=("-dict=dict/$t.dict")
  # Targets that read the repository (rules_load, step_submit) write one seed per real file or
  # scenario submission into the working corpus on start.
  (cd fuzz && ENROLLFLOW_FUZZ_WRITE_SEEDS="work/corpus/$t" \
    cargo fuzz run "${build[@]}" "$t" "work/corpus/$t" "corpus/$t" -- \
      -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 \
      "${dict[@]}") >"$log" 2>&1
}

report() {
  local t=$1 rc=$2 log=fuzz/work/logs/$1.log runs crashes found
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1 || true)
  if [[ -z $runs ]]; then
    runs=$(grep -oE '^#[0-9]+' "$log" | tail -1 | tr -d '#' || true)
  fi
  # libFuzzer stops at the first crash and writes it to artifacts/ (crash-*, timeout-*, oom-*).
  found=$(find "fuzz/artifacts/$t" -type f -newer "fuzz/work/logs/$t.start" | sort)
  crashes=$(grep -c . <<<"$found" || true)
  if ((rc != 0)) && ((crashes == 0)); then crashes=1; fi
  printf '%-14s runs %-10s crashes %s\n' "$t" "${runs:-?}" "$crashes"
  if ((crashes)); then
    echo "    log: $log"
    sed 's/^/    input: /' <<<"$found"
  fi
  ((crashes == 0))
}

failed=0
declare -A rcs=()
i=0
while ((i < ${#targets[@]})); do
  batch=("${targets[@]:i:jobs}")
  i=$((i + jobs))
  pids=()
  for t in "${batch[@]}"; do
    echo "== fuzzing $t for ${seconds}s"
    run_one "$t" &
    pids+=($!)
  done
  for k in "${!batch[@]}"; do
    if wait "${pids[$k]}"; then rcs[${batch[$k]}]=0; else rcs[${batch[$k]}]=$?; fi
  done
done

echo "== results (${seconds}s per target)"
for t in "${targets[@]}"; do
  report "$t" "${rcs[$t]}" || failed=1
done
exit "$failed"
