#!/usr/bin/env bash
# Benchmark of `pindrop serve` over loopback (a script, not a test):
#   1. server start to first answer (index already built), best of 5 starts;
#   2. /v1/suggest throughput and latency with wrk at 1 connection and at 32 connections, over 20,000 distinct
#      prefixes of the index's place names, and its ratio to /v1/status (the HTTP stack alone) in the same run.
#
#   scripts/bench-server.sh [--index PATH]
#
# Builds the release `pindrop` (or uses PINDROP_BIN), installs wrk from Debian if missing, and uses a throw-away
# PINDROP_HOME (building the default GeoNames index there first when no --index is given).
#   3. the Nominatim- and Photon-compatible endpoints against /v1 over the same texts: Photon's /api against
#      /v1/suggest, Nominatim's /search?format=jsonv2 against /v1/search.
# Targets: suggest p99 <= 3 ms at 1 connection; >= 15,000 req/s at 32 connections with no errors; start to first
# answer <= 1 s; /v1/suggest >= 0.7x /v1/status throughput at 32 connections; the compatible APIs within 10% of /v1.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
DURATION=${BENCH_DURATION:-10s}

INDEX_ARGS=()
if [[ "${1:-}" == "--index" ]]; then INDEX_ARGS=(--index "$(realpath "$2")"); shift 2; fi

if ! command -v wrk >/dev/null; then
    SUDO=$([[ $(id -u) == 0 ]] && echo "" || echo sudo)
    $SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q wrk
fi
if [[ -n "${PINDROP_BIN:-}" ]]; then
    BIN=$(realpath "$PINDROP_BIN")
else
    SCRATCH=${PINDROP_SCRATCH:-$ROOT/.build}
    swift build -c release --scratch-path "$SCRATCH" --product pindrop
    BIN="$SCRATCH/release/pindrop"
fi

WORK=$(mktemp -d /tmp/pindrop-bench.XXXXXX)
export PINDROP_HOME="$WORK/home"
mkdir -p "$PINDROP_HOME"
SERVER_PID=""
trap '[[ -n "$SERVER_PID" ]] && kill "$SERVER_PID" 2>/dev/null; rm -rf "$WORK"' EXIT
if [[ ${#INDEX_ARGS[@]} == 0 ]]; then "$BIN" search Paris --limit 1 >/dev/null; fi
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
URL="http://127.0.0.1:$PORT"

echo "== start to first answer (/v1/suggest?q=Pari), best of 5"
python3 - "$BIN" "$PORT" "${INDEX_ARGS[@]}" <<'PY'
import http.client, subprocess, sys, time
binary, port, extra = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
times = []
for _ in range(5):
    start = time.perf_counter()
    server = subprocess.Popen([binary, "serve", "--port", str(port)] + extra,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    while True:
        if server.poll() is not None:
            sys.exit("pindrop serve exited with status %d before answering (run it by hand to see why)" % server.returncode)
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
            c.request("GET", "/v1/suggest?q=Pari")
            if c.getresponse().status == 200:
                break
        except OSError:
            time.sleep(0.002)
    times.append(time.perf_counter() - start)
    server.terminate()
    server.wait()
print("start to first answer: best %.0f ms, worst %.0f ms (target <= 1000 ms)" % (min(times) * 1000, max(times) * 1000))
PY

"$BIN" serve --port "$PORT" "${INDEX_ARGS[@]}" >"$WORK/server.log" 2>&1 &
SERVER_PID=$!
until curl -fsS "$URL/v1/status" >/dev/null 2>&1; do sleep 0.05; done

# 20,000 distinct prefixes drawn from the index's own place names (scripts/suggest-prefixes.py, seeded), read by
# the wrk script at start: the engine never answers the same question twice in a row.
INDEX_FILE=${INDEX_ARGS[1]:-$PINDROP_HOME/geonames.sqlite}
python3 scripts/suggest-prefixes.py "$INDEX_FILE" "$WORK/prefixes.txt"
cp scripts/suggest-mix.lua "$WORK/suggest.lua"
curl -fsS "$URL/v1/suggest?q=Pari" >/dev/null

# The server's CPU time so far (user + system), in clock ticks.
server_ticks() { awk '{ print $14 + $15 }' "/proc/$SERVER_PID/stat"; }
TICK_US=$((1000000 / $(getconf CLK_TCK)))

# wrk's summary lines, then the server's CPU time per answer; its requests per second alone in $WORK/rate.
wrk_run() {
    local before
    before=$(server_ticks)
    wrk --latency "$@" | tee "$WORK/wrk.txt" | grep -E "Latency|50%|90%|99%|Requests/sec|requests in|Non-2xx|Socket errors" || true
    awk '/Requests\/sec/ { print $2 }' "$WORK/wrk.txt" >"$WORK/rate"
    awk -v ticks=$(($(server_ticks) - before)) -v us="$TICK_US" '/requests in/ { printf "  server CPU per answer: %.1f us\n", ticks * us / $1 }' "$WORK/wrk.txt" |
        tee "$WORK/cpu"
}

echo
echo "== /v1/suggest, 1 connection, 1 wrk thread, $DURATION"
wrk_run -t1 -c1 -d"$DURATION" -s "$WORK/suggest.lua" "$URL" -- "$WORK/prefixes.txt"
echo "(target: p99 <= 3 ms)"

# The HTTP stack's own ceiling on this machine: /v1/status over the same 32 connections does no search at all, so
# suggest's share of the cost is what it adds (engine, parameters, encoding). It is asked through the same wrk
# script (a list of one path), so wrk spends the same per request on both. wrk shares the cores with the server,
# so the two alternate, ROUNDS times each, and the ratio is taken of their medians; the server's CPU time per
# answer says the same without the scheduler's share (other work on the machine moves throughput, not it).
echo "/v1/status" >"$WORK/status.txt"
# The same suggest requests with a minimum length none of them reaches: parsed, validated and answered through the
# facade with an empty list, the engine never asked. Its gap to /v1/status is the request's own cost; the rest of
# suggest's gap is the engine's and the longer answer's.
sed 's/minChars=1$/minChars=200/' "$WORK/prefixes.txt" >"$WORK/no-engine.txt"
ROUNDS=${BENCH_ROUNDS:-3}
SUGGEST_RATES=() STATUS_RATES=() SUGGEST_CPU=() STATUS_CPU=() BARE_RATES=() BARE_CPU=()
for round in $(seq "$ROUNDS"); do
    echo
    echo "== round $round/$ROUNDS: /v1/suggest, 32 connections, 2 wrk threads, $DURATION"
    wrk_run -t2 -c32 -d"$DURATION" -s "$WORK/suggest.lua" "$URL" -- "$WORK/prefixes.txt"
    SUGGEST_RATES+=("$(cat "$WORK/rate")")
    SUGGEST_CPU+=("$(awk '{ print $(NF - 1) }' "$WORK/cpu")")
    echo "== round $round/$ROUNDS: reference /v1/status, 32 connections, 2 wrk threads, $DURATION"
    wrk_run -t2 -c32 -d"$DURATION" -s "$WORK/suggest.lua" "$URL" -- "$WORK/status.txt"
    STATUS_RATES+=("$(cat "$WORK/rate")")
    STATUS_CPU+=("$(awk '{ print $(NF - 1) }' "$WORK/cpu")")
    echo "== round $round/$ROUNDS: /v1/suggest answered without the engine (minChars=200), 32 connections, 2 wrk threads, $DURATION"
    wrk_run -t2 -c32 -d"$DURATION" -s "$WORK/suggest.lua" "$URL" -- "$WORK/no-engine.txt"
    BARE_RATES+=("$(cat "$WORK/rate")")
    BARE_CPU+=("$(awk '{ print $(NF - 1) }' "$WORK/cpu")")
done
echo
python3 - "${SUGGEST_RATES[*]}" "${STATUS_RATES[*]}" "${SUGGEST_CPU[*]}" "${STATUS_CPU[*]}" "${BARE_RATES[*]}" "${BARE_CPU[*]}" <<'PY'
import statistics, sys
suggest, status, suggest_cpu, status_cpu, bare, bare_cpu = ([float(x) for x in arg.split()] for arg in sys.argv[1:7])
s, t = statistics.median(suggest), statistics.median(status)
print("32 connections, median of %d rounds: /v1/suggest %.0f req/s, /v1/status %.0f req/s, ratio %.2f (target >= 0.70; >= 15,000 req/s, no errors)"
      % (len(suggest), s, t, s / t))
print("  per round: " + ", ".join("%.0f / %.0f = %.2f" % (a, b, a / b) for a, b in zip(suggest, status)))
sc, tc = statistics.median(suggest_cpu), statistics.median(status_cpu)
print("  server CPU per answer (median): /v1/suggest %.1f us, /v1/status %.1f us; status/suggest %.2f" % (sc, tc, tc / sc))
b, bc = statistics.median(bare), statistics.median(bare_cpu)
print("  /v1/suggest without the engine: %.0f req/s, ratio %.2f to /v1/status; server CPU %.1f us per answer" % (b, b / t, bc))
PY
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores (wrk shares them; other work on the machine skews every figure)"

# The compatible APIs over the same texts, alternating with the /v1 operation they translate to.
# /api with /v1/suggest's default limit (10; Photon's own is 15), so both give the same number of places.
sed -e 's|^/v1/suggest?|/api?limit=10\&|' -e 's|&minChars=1$||' "$WORK/prefixes.txt" >"$WORK/photon.txt"
sed -e 's|^/v1/suggest?|/v1/search?|' -e 's|&minChars=1$||' "$WORK/prefixes.txt" >"$WORK/search.txt"
sed -e 's|^/v1/suggest?|/search?format=jsonv2\&|' -e 's|&minChars=1$||' "$WORK/prefixes.txt" >"$WORK/nominatim.txt"
curl -fsS "$URL$(head -1 "$WORK/photon.txt")" >/dev/null && curl -fsS "$URL$(head -1 "$WORK/nominatim.txt")" >/dev/null
declare -A COMPAT_RATES=()
for round in $(seq "$ROUNDS"); do
    for name in suggest-v1:prefixes photon-api:photon search-v1:search nominatim-search:nominatim; do
        echo
        echo "== round $round/$ROUNDS: ${name%%:*}, 32 connections, 2 wrk threads, $DURATION"
        wrk_run -t2 -c32 -d"$DURATION" -s "$WORK/suggest.lua" "$URL" -- "$WORK/${name##*:}.txt"
        COMPAT_RATES[${name%%:*}]+="$(cat "$WORK/rate") "
    done
done
echo
python3 - "${COMPAT_RATES[suggest-v1]}" "${COMPAT_RATES[photon-api]}" "${COMPAT_RATES[search-v1]}" "${COMPAT_RATES[nominatim-search]}" <<'PY'
import statistics, sys
suggest, photon, search, nominatim = ([float(x) for x in arg.split()] for arg in sys.argv[1:5])
for label, compat, base in [("Photon /api vs /v1/suggest", photon, suggest), ("Nominatim /search?format=jsonv2 vs /v1/search", nominatim, search)]:
    c, b = statistics.median(compat), statistics.median(base)
    print("%s: %.0f vs %.0f req/s, ratio %.2f (target >= 0.90)" % (label, c, b, c / b))
PY
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
