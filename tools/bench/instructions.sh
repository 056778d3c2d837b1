#!/usr/bin/env bash
# Instructions per call of the engine's benchmarks, counted by callgrind: a figure that does not
# drift with the machine's load, unlike the timings (docs/performance.md, "The engine").
#
# Usage: tools/bench/instructions.sh [NAME_REGEX ...]   (default: every step view and submit)
# Needs valgrind (apt-get install valgrind) and the release bench binary, which it builds.
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v valgrind >/dev/null || { echo "valgrind is not installed (apt-get install valgrind)" >&2; exit 2; }
target=${CARGO_TARGET_DIR:-target}
bin=$(cargo bench -p enrollflow-engine-tools --bench engine --no-run --message-format=json 2>/dev/null |
  python3 -c 'import json,sys
for l in sys.stdin:
    m = json.loads(l)
    if m.get("reason") == "compiler-artifact" and m.get("target", {}).get("name") == "engine" and m.get("executable"):
        print(m["executable"])')
[ -x "$bin" ] || { echo "the bench binary was not built" >&2; exit 1; }
if [ $# -eq 0 ]; then
  set -- "step_view census" "step_view whyApplying" "step_view rap" "submit census \(15" \
    "submit whyApplying" "submit census \(family" "submit subInfo" "submit other" "submit rap" "quote 6"
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
printf '%-36s %14s\n' benchmark "instructions"
for name in "$@"; do
  (cd engine && valgrind --tool=callgrind --callgrind-out-file="$out/cg" \
    --toggle-collect='criterion::bencher::Bencher<M>::iter' \
    "$bin" --bench --profile-time "${PROFILE_TIME:-3}" "$name" > "$out/log" 2>&1)
  total=$(grep -h "Collected" "$out/log" | awk '{print $4}' | sort -n | tail -1)
  # The calls of the benchmarked function: the first callee of the measuring loop.
  calls=$(callgrind_annotate --inclusive=yes --tree=calling "$out/cg" 2>/dev/null |
    grep -A3 '\*  ???:criterion::bencher::Bencher<M>::iter ' | grep -oE '\(([0-9,]+)x\)' | head -1 | tr -d '(),x')
  if [ -z "$total" ] || [ -z "$calls" ] || [ "$calls" -eq 0 ]; then
    printf '%-36s %14s\n' "$name" "did not run"
  else
    printf '%-36s %14d\n' "$name" $((total / calls))
  fi
done
