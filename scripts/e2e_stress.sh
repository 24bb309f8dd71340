#!/usr/bin/env bash
# Run the browser tests N times in a row while a CPU hog keeps every core busy, and print how many
# runs failed. A classroom laptop is often busy; a chart that draws only on an idle machine is a
# bug. Usage: bash scripts/e2e_stress.sh [N=10] [extra pytest args...]
# Needs the test environment (.venv with ".[test]") and /usr/bin/chromium, like the browser tests.
set -uo pipefail
cd "$(dirname "$0")/.."
runs="${1:-10}"
shift || true
py=".venv/bin/python"
[ -x "$py" ] || py="python3"
cores="$(nproc 2>/dev/null || echo 2)"
hogs=()
for _ in $(seq "$cores"); do
    "$py" -c "while True: pass" &
    hogs+=("$!")
done
trap 'kill "${hogs[@]}" 2>/dev/null' EXIT
echo "CPU hog: $cores busy processes (pids ${hogs[*]})"
failed=0
mkdir -p tests/e2e/stress
for i in $(seq "$runs"); do
    start=$(date +%s)
    if "$py" -m pytest -m e2e -n 0 -p no:cacheprovider -q "$@" > "tests/e2e/stress/run-$i.log" 2>&1; then
        verdict="passed"
    else
        verdict="FAILED"
        failed=$((failed + 1))
        grep -E "^(FAILED|ERROR)|^E  " "tests/e2e/stress/run-$i.log" | head -5
    fi
    echo "run $i/$runs: $verdict in $(( $(date +%s) - start )) s ($(tail -n 1 "tests/e2e/stress/run-$i.log"))"
done
echo "browser runs under a ${cores}-core CPU hog: $failed of $runs failed"
[ "$failed" -eq 0 ]
