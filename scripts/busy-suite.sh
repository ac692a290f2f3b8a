#!/usr/bin/env bash
# The whole suite on a busy machine (issue 25, item 7): a fresh clone of a commit, installed from scratch,
# run RUNS times in a row (default 2) with HOGS CPU hogs (`yes > /dev/null`, default 2) beside it, on both
# databases (TEST_DATABASE_URL and TEST_REDIS_URL as .ci/run sets them). After each run it lists any
# process still running from the clone (none may be left behind) and fails if there is one.
#   scripts/busy-suite.sh [commit]            (default HEAD of this checkout)
#   RUNS=2 HOGS=2 WORK=/tmp/laneboard-busy scripts/busy-suite.sh
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
commit="$(git -C "$here" rev-parse "${1:-HEAD}")"
work="${WORK:-/tmp/laneboard-busy-${commit:0:7}}"
runs="${RUNS:-2}"
hogs="${HOGS:-2}"
export TEST_DATABASE_URL="${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}"
export TEST_REDIS_URL="${TEST_REDIS_URL:-redis://127.0.0.1:6379}"

rm -rf "$work"
git clone -q "$here" "$work"
git -C "$work" checkout -q "$commit"
cd "$work"
npm ci --no-audit --no-fund --loglevel=error

hog_pids=()
stop_hogs() { for pid in "${hog_pids[@]}"; do kill "$pid" 2>/dev/null || true; done; }
trap stop_hogs EXIT
for _ in $(seq "$hogs"); do
  yes >/dev/null &
  hog_pids+=($!)
done

# True for this script and what runs under it (its hogs, the subshells of this check): by the time it
# runs, npm test has exited, and whatever the suite left running has been re-parented away from it.
is_own() {
  local pid="$1"
  while [ -n "$pid" ] && [ "$pid" -gt 1 ]; do
    [ "$pid" = "$$" ] && return 0
    pid="$(ps -o ppid= -p "$pid" 2>/dev/null | tr -d ' ')"
  done
  return 1
}

# Processes whose command line or working directory is inside the clone (the suite's servers, workers).
left_behind() {
  for pid in $(pgrep -f "$work" || true); do
    is_own "$pid" && continue
    ps -o pid=,args= -p "$pid" 2>/dev/null || true
  done
  for proc in /proc/[0-9]*; do
    [ "$(readlink "$proc/cwd" 2>/dev/null)" = "$work" ] || continue
    pid="${proc#/proc/}"
    is_own "$pid" && continue
    ps -o pid=,args= -p "$pid" 2>/dev/null || true
  done | sort -u
}

status=0
for run in $(seq "$runs"); do
  echo "== run $run of $runs at $(date -u +%H:%M:%S), load $(cut -d' ' -f1-3 /proc/loadavg), $hogs hogs, commit ${commit:0:7}"
  started=$SECONDS
  if npm test; then echo "== run $run passed in $((SECONDS - started)) s"; else echo "== run $run FAILED after $((SECONDS - started)) s"; status=1; fi
  echo "== load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
  leftovers="$(left_behind)"
  if [ -n "$leftovers" ]; then echo "== processes left behind:"; echo "$leftovers"; status=1; else echo "== no process left behind"; fi
done
exit "$status"
