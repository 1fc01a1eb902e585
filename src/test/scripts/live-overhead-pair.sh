#!/usr/bin/env bash
# What the metrics endpoint costs a run as a user starts it: two `bin/dsload run
# test-plans/ekv-profile-get.jmx` at once, each pinned to a CPU of its own beside its own
# `bin/dsload serve redis`, one with `--metrics-port` and Debian's Prometheus scraping it every
# second, the other without; the CPUs swap from round to round. Prints each round's GETs per second
# of both sides (from their summaries), the ratio with / without, and the median of the ratios.
#
# Where Prometheus runs decides which side pays for the scraper's own CPU and wake-ups:
#   PROM=alternate  (default) on the side with the endpoint in odd rounds, on the other in even ones:
#                   each side pays for it alike over a pair of rounds; the median per placement and
#                   the geometric mean of each pair are printed too
#   PROM=on         always on the CPU of the side with the endpoint (its whole cost charged to it)
#   PROM=off        always on the other side's CPU
#   PROM=free       where the scheduler puts it (it moves between the two)
#
# usage: src/test/scripts/live-overhead-pair.sh [rounds] ; env DUR (s, 100), PROM, OUT (/tmp/dsload-live-pair)
# Needs: a built checkout (./mvnw package -DskipTests), prometheus on the PATH, 2 CPUs, port 9464 and
# 9099 free.
set -u
cd "$(dirname "$0")/../../.."
rounds=${1:-4}
dur=${DUR:-100}
prom_mode=${PROM:-alternate}
out=${OUT:-/tmp/dsload-live-pair}
mkdir -p "$out"
command -v prometheus > /dev/null || { echo "prometheus is not on the PATH (Debian: apt-get install prometheus)" >&2; exit 2; }

started=()
cleanup() { for p in "${started[@]}"; do kill "$p" 2> /dev/null; done; }
trap cleanup EXIT

host_of() { # the -Jhosts=... a `dsload serve redis` printed
    for _ in $(seq 1 120); do
        h=$(grep -o "Jhosts=[0-9.:]*" "$1" | head -1 | cut -d= -f2)
        [ -n "$h" ] && { echo "$h"; return; }
        sleep 0.5
    done
    echo "no redis-server address in $1" >&2
    exit 1
}

throughput() { # GETs/s of the plan's label in a summary
    grep -A1 "^== GET profile" "$1" | tail -1 | awk '{print $(NF-1)}' | tr -d ,
}

ratios=()
for i in $(seq 1 "$rounds"); do
    if [ $((i % 2)) -eq 1 ]; then con=0; coff=1; else con=1; coff=0; fi
    case "$prom_mode" in
        on) pcpu=$con ;;
        off) pcpu=$coff ;;
        free) pcpu=0,1 ;;
        *) if [ $((i % 2)) -eq 1 ]; then pcpu=$con; else pcpu=$coff; fi ;;
    esac
    taskset -c $con bin/dsload serve redis > "$out/serve-on.log" 2>&1 & son=$!
    taskset -c $coff bin/dsload serve redis > "$out/serve-off.log" 2>&1 & soff=$!
    started=("$son" "$soff")
    hon=$(host_of "$out/serve-on.log")
    hoff=$(host_of "$out/serve-off.log")
    rm -rf "$out/prom" "$out/r-on" "$out/r-off"
    mkdir -p "$out/prom"
    printf 'global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: dsload\n    static_configs:\n      - targets: [127.0.0.1:9464]\n' > "$out/prom/prometheus.yml"
    taskset -c $pcpu prometheus --config.file="$out/prom/prometheus.yml" --storage.tsdb.path="$out/prom/data" \
        --web.listen-address=127.0.0.1:9099 > "$out/prom/log" 2>&1 & prom=$!
    started+=("$prom")
    taskset -c $con bin/dsload run test-plans/ekv-profile-get.jmx -Jhosts="$hon" -Jthreads=2 -Jin_flight=16 \
        -Jduration="$dur" --metrics-port 9464 --no-dashboard --results "$out/r-on" --run-id on > "$out/run-on.log" 2>&1 & ron=$!
    taskset -c $coff bin/dsload run test-plans/ekv-profile-get.jmx -Jhosts="$hoff" -Jthreads=2 -Jin_flight=16 \
        -Jduration="$dur" --no-dashboard --results "$out/r-off" --run-id off > "$out/run-off.log" 2>&1 & roff=$!
    wait $ron
    wait $roff
    scrapes=$(curl -s 'http://127.0.0.1:9099/api/v1/query?query=sum_over_time(up%5B1h%5D)' | grep -o '"[0-9.]*"\]' | tr -d '"]')
    pticks=$(awk '{print $14 + $15}' /proc/$prom/stat)
    kill $prom $son $soff
    wait $prom $son $soff 2> /dev/null
    ton=$(throughput "$out/r-on/on/summary.txt")
    toff=$(throughput "$out/r-off/off/summary.txt")
    ratio=$(awk -v a="$ton" -v b="$toff" 'BEGIN { printf "%.3f", a / b }')
    ratios+=("$ratio")
    echo "round $i: endpoint side on CPU $con, Prometheus on CPU $pcpu ($scrapes scrapes, $(awk -v t="$pticks" 'BEGIN { printf "%.2f", t / 100 }') s of CPU): with $ton GETs/s, without $toff GETs/s, ratio $ratio"
done
printf '%s\n' "${ratios[@]}" | sort -n | awk '{ r[NR] = $1 } END { m = NR % 2 ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2; printf "median of %d rounds: %.3f (%.3f to %.3f)\n", NR, m, r[1], r[NR] }'
if [ "$prom_mode" = alternate ] && [ "$rounds" -ge 2 ]; then
    printf '%s\n' "${ratios[@]}" | awk '{ r[NR] = $1 } END { for (i = 1; i + 1 <= NR; i += 2) printf "pair %d-%d (Prometheus on each side once): %.3f\n", i, i + 1, sqrt(r[i] * r[i + 1]) }'
fi
