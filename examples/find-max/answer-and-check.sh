#!/usr/bin/env bash
# Finds the highest rate of GETs a redis-server keeps a p99 limit at, with at most 1 % of the arrivals
# late (test-plans/redis-get-rate.jmx), then runs the plan once at that answer and once at 1.25 x the
# answer, and checks each run against the same limits. The answer holds when the first check passes
# and the second fails.
#
#   examples/find-max/answer-and-check.sh [--p99 <duration>] [--late <percent>] [--start <rate>]
#       [--repeat-answer <n>] [-Jhosts=host:port] [--results <dir>]
#
# The answer's rate runs 1 + <n> steps (2 repeats by default) and is given only when each kept the
# limits: on a machine whose generator and server share cores, one step near the limit keeps or
# breaks it by the luck of its window.
#
# Without -Jhosts it serves a redis-server of its own on a free loopback port (bin/dsload serve redis)
# and stops it at the end. Exit code: 0 when the check at the answer passed and the one at 1.25 x
# failed, 1 when either check said otherwise, 2 when find-max found no answer or a step failed.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
dsload="$root/bin/dsload"
p99=5ms
late=1%
start=20000
repeats=2
hosts=""
results="$root/target/find-max-example"
while [ $# -gt 0 ]; do
  case "$1" in
    --p99) p99="$2"; shift 2 ;;
    --late) late="$2"; shift 2 ;;
    --repeat-answer) repeats="$2"; shift 2 ;;
    --start) start="$2"; shift 2 ;;
    --results) results="$2"; shift 2 ;;
    -Jhosts=*) hosts="$1"; shift ;;
    *) echo "unknown option: $1 (see the head of $0)" >&2; exit 2 ;;
  esac
done
mkdir -p "$results"
limits=(--max-p99 "$p99" --max-late "$late" --max-error-rate 0.1%)
plan="$root/test-plans/redis-get-rate.jmx"

serve=""
stop_serve() {
  if [ -n "$serve" ]; then
    kill "$serve" 2>/dev/null || true
    wait "$serve" 2>/dev/null || true
  fi
}
trap stop_serve EXIT
if [ -z "$hosts" ]; then
  "$dsload" serve redis > "$results/serve.out" 2>&1 &
  serve=$!
  # serve prints the -J properties once the server answers
  for _ in $(seq 1 300); do
    hosts="$(grep -o -- '-Jhosts=[^ ]*' "$results/serve.out" | head -n 1 || true)"
    [ -n "$hosts" ] && break
    kill -0 "$serve" 2>/dev/null || { cat "$results/serve.out" >&2; exit 2; }
    sleep 0.1
  done
  [ -n "$hosts" ] || { echo "redis-server did not start: $results/serve.out" >&2; exit 2; }
fi
common=("$hosts" -Jserver_gauges=false)

echo "== find-max: ${limits[*]}, from $start GETs/s"
set +e
"$dsload" find-max "$plan" --results "$results" --start "$start" --max-steps 16 --repeat-answer "$repeats" "${limits[@]}" "${common[@]}" \
  | tee "$results/find-max.out"
found=${PIPESTATUS[0]}
set -e
search="$(sed -n 's/^dsload find-max: results in //p' "$results/find-max.out" | tail -n 1)"
answer="$(sed -n 's/^Answer: rate=\([0-9.]*\) .*/\1/p' "$search/find-max.txt" 2>/dev/null | head -n 1)"
if [ "$found" -ne 0 ] || [ -z "$answer" ]; then
  echo "find-max found no answer (exit $found): see $search" >&2
  exit 2
fi
above="$(awk -v a="$answer" 'BEGIN { printf "%d", a * 1.25 }')"

# one run of the plan at a rate, then check on its folder; prints the check and returns its exit code
run_and_check() {
  local rate="$1" name="$2"
  echo
  echo "== $name: $rate GETs/s, checked against ${limits[*]}"
  "$dsload" run "$plan" --results "$results" --run-id "$name" --no-dashboard -Jrate="$rate" -Jduration=10 -Jwarmup=5 \
    "${common[@]}" > "$results/$name.out" 2>&1 || true
  "$dsload" check "$results/$name" --label GET "${limits[@]}"
}

set +e
run_and_check "$answer" at-answer
at=$?
run_and_check "$above" above-answer
over=$?
set -e
echo
echo "find-max answer: $answer GETs/s within ${limits[*]}"
echo "check at the answer ($answer/s): $([ $at -eq 0 ] && echo "limits kept" || echo "limits BROKEN (exit $at)")"
echo "check at 1.25 x the answer ($above/s): $([ $over -ne 0 ] && echo "limits broken (exit $over)" || echo "limits KEPT")"
[ $at -eq 0 ] && [ $over -ne 0 ]
