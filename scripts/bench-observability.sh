#!/usr/bin/env bash
# What metrics and access logs cost: /v1/suggest throughput with wrk against two `pindrop serve` on the
# same index in the same run, one with /metrics and one access-log line per request (written to a file, as a
# service's journal would take them), one with --no-metrics --no-access-log. Each round loads both at once (16
# connections each), ROUNDS rounds, and the ratio is taken of the medians: on a shared machine, rounds one after the
# other measured the other work more than the servers (an on/off pair of identical servers differed by 8%). The
# server's CPU time per answer says the same without the scheduler's share. BENCH_ON_ARGS adds flags to the "on"
# server (BENCH_ON_ARGS="--no-metrics --no-access-log" checks the method: two identical servers should tie).
# A script, not a test: the figure goes in docs/deployment.md and the README.
#
#   scripts/bench-observability.sh [--index PATH]       (BENCH_ROUNDS=5, BENCH_DURATION=10s, PINDROP_BIN=...)
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${BENCH_DURATION:-10s}
ROUNDS=${BENCH_ROUNDS:-5}
INDEX_ARGS=()
if [[ "${1:-}" == "--index" ]]; then INDEX_ARGS=(--index "$(realpath "$2")"); shift 2; fi
scripts/need-packages.sh wrk
if [[ -n "${PINDROP_BIN:-}" ]]; then
    BIN=$(realpath "$PINDROP_BIN")
else
    swift build -c release --product pindrop
    BIN="$(swift build -c release --show-bin-path)/pindrop"
fi

WORK=$(mktemp -d /tmp/pindrop-bench-ops.XXXXXX)
export PINDROP_HOME="$WORK/home"
mkdir -p "$PINDROP_HOME"
PIDS=()
trap 'for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done; rm -rf "$WORK"' EXIT
if [[ ${#INDEX_ARGS[@]} == 0 ]]; then "$BIN" search Paris --limit 1 >/dev/null; fi
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
ON_PORT=$(free_port) OFF_PORT=$(free_port)
# One after the other: two servers making a fresh home's user-data file at once trip over each other's migration.
"$BIN" serve --port "$ON_PORT" --writes-per-minute 0 ${BENCH_ON_ARGS:-} "${INDEX_ARGS[@]}" >"$WORK/on.log" 2>&1 &
PIDS+=($!); ON_PID=$!
until curl -fsS "http://127.0.0.1:$ON_PORT/v1/status" >/dev/null 2>&1; do kill -0 "$ON_PID"; sleep 0.05; done
"$BIN" serve --port "$OFF_PORT" --writes-per-minute 0 --no-metrics --no-access-log "${INDEX_ARGS[@]}" >"$WORK/off.log" 2>&1 &
PIDS+=($!); OFF_PID=$!
until curl -fsS "http://127.0.0.1:$OFF_PORT/v1/status" >/dev/null 2>&1; do kill -0 "$OFF_PID"; sleep 0.05; done
INDEX_FILE=${INDEX_ARGS[1]:-$PINDROP_HOME/geonames.sqlite}
python3 scripts/suggest-prefixes.py "$INDEX_FILE" "$WORK/prefixes.txt"
cp scripts/suggest-mix.lua "$WORK/suggest.lua"

ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
TICK_US=$((1000000 / $(getconf CLK_TCK)))
# One server's figures from its wrk output and CPU ticks: "requests/s cpu-us-per-answer ok|ERRORS".
figures() {
    awk -v ticks="$2" -v us="$TICK_US" '
        /Requests\/sec/ { rate = $2 } /requests in/ { n = $1 } /Non-2xx|Socket errors/ { bad = bad $0 " " }
        END { printf "%s %.1f %s\n", rate, ticks * us / n, (bad == "" ? "ok" : "ERRORS:" bad) }' "$1"
}
# One round: both servers under the same load at the same time (16 connections each), so whatever else the machine
# runs weighs on both alike; each server's rate and CPU per answer.
round() {
    local on_before off_before
    on_before=$(ticks "$ON_PID") off_before=$(ticks "$OFF_PID")
    # The one started first is ahead by a little: they take turns.
    local first=ON second=OFF
    if (( $1 % 2 == 0 )); then first=OFF second=ON; fi
    local first_port=${first}_PORT second_port=${second}_PORT
    wrk -t1 -c16 -d"$DURATION" -s "$WORK/suggest.lua" "http://127.0.0.1:${!first_port}" -- "$WORK/prefixes.txt" \
        >"$WORK/${first,,}.txt" &
    local background=$!
    wrk -t1 -c16 -d"$DURATION" -s "$WORK/suggest.lua" "http://127.0.0.1:${!second_port}" -- "$WORK/prefixes.txt" >"$WORK/${second,,}.txt"
    wait "$background"
    ON+=("$(figures "$WORK/on.txt" $(($(ticks "$ON_PID") - on_before)))")
    OFF+=("$(figures "$WORK/off.txt" $(($(ticks "$OFF_PID") - off_before)))")
}
for port in "$ON_PORT" "$OFF_PORT"; do wrk -t1 -c4 -d2s -s "$WORK/suggest.lua" "http://127.0.0.1:$port" -- "$WORK/prefixes.txt" >/dev/null; done
ON=() OFF=()
for r in $(seq "$ROUNDS"); do
    round "$r"
    echo "round $r/$ROUNDS: on ${ON[-1]}; off ${OFF[-1]}"
done
echo "access-log lines written by the server with them on: $(grep -c 'pindrop.access' "$WORK/on.log")"
curl -fsS "http://127.0.0.1:$ON_PORT/metrics" | grep -E '^pindrop_http_requests_total\{.*suggest' || true
python3 - "$(printf '%s\n' "${ON[@]}")" "$(printf '%s\n' "${OFF[@]}")" "$DURATION" <<'PY'
import statistics, sys
on = [line.split() for line in sys.argv[1].splitlines()]
off = [line.split() for line in sys.argv[2].splitlines()]
on_rate, off_rate = statistics.median(float(x[0]) for x in on), statistics.median(float(x[0]) for x in off)
on_cpu, off_cpu = statistics.median(float(x[1]) for x in on), statistics.median(float(x[1]) for x in off)
print("/v1/suggest, 16 connections each, both at once, %d rounds of %s each, medians: metrics + access log on %.0f req/s, off %.0f req/s, "
      "on/off %.3f (cost %.1f%%; target < 5%%)" % (len(on), sys.argv[3], on_rate, off_rate, on_rate / off_rate,
                                                    100 * (1 - on_rate / off_rate)))
ratios = sorted(float(a[0]) / float(b[0]) for a, b in zip(on, off))
cpu_ratios = sorted(float(a[1]) / float(b[1]) for a, b in zip(on, off))
print("median of the rounds' own ratios (both servers under the same conditions): throughput on/off %.3f, CPU per answer on/off %.3f"
      % (statistics.median(ratios), statistics.median(cpu_ratios)))
print("server CPU per answer (median): on %.1f us, off %.1f us (+%.1f us, %.1f%%)"
      % (on_cpu, off_cpu, on_cpu - off_cpu, 100 * (on_cpu / off_cpu - 1)))
if any(x[2] != "ok" for x in on + off):
    print("ERRORS in some rounds: " + "; ".join(" ".join(x[2:]) for x in on + off if x[2] != "ok"))
PY
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores (wrk shares them)"
