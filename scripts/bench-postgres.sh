#!/usr/bin/env bash
# Benchmark of the shared store against the embedded one, in the same run (a script, not a test):
#   1. `pindrop-bench postgres`: COPY import of cities500 + Helsinki (the embedded build beside it), a server's
#      start on the database, search/suggest/reverse/nearby p50/p99 through each store, top-1 agreement, the
#      database answering itself (pg_trgm, KNN, ST_DWithin), saved/recent live in the database;
#   2. wrk /v1/suggest over 20,000 distinct prefixes at 32 connections: an embedded server, one server on the
#      database, and two servers on the same database at once (req/s each, errors).
#
#   scripts/bench-postgres.sh
#
# Starts its own PostgreSQL + PostGIS cluster (scripts/postgres-cluster.sh), builds the release binaries (or uses
# PINDROP_BIN and PINDROP_BENCH_BIN), installs wrk when missing. Targets: every query p99 <= 5 ms through the
# database, import of cities500 <= 30 s, >= 99% of top-1 answers identical, 0 errors under load.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
DURATION=${BENCH_DURATION:-10s}

scripts/need-packages.sh wrk >&2
if [[ -z "${PINDROP_BIN:-}" || -z "${PINDROP_BENCH_BIN:-}" ]]; then
    swift build -c release --product pindrop
    swift build -c release --product pindrop-bench
fi
BIN=$(realpath "${PINDROP_BIN:-.build/release/pindrop}")
BENCH=$(realpath "${PINDROP_BENCH_BIN:-.build/release/pindrop-bench}")

WORK=$(mktemp -d /tmp/pindrop-bench-pg.XXXXXX)
export PINDROP_HOME="$WORK/home"
mkdir -p "$PINDROP_HOME"
PIDS=()
eval "$(scripts/postgres-cluster.sh start)"
trap 'for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; scripts/postgres-cluster.sh stop "$PINDROP_PG_CLUSTER"; rm -rf "$WORK"' EXIT
URL=$PINDROP_TEST_DATABASE_URL

echo "== pindrop-bench postgres"
"$BENCH" postgres --url "$URL"

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
serve() {   # serve PORT [store arguments...]: starts a server, waits for it, prints its pid
    local port=$1; shift
    "$BIN" serve --port "$port" "$@" >"$WORK/server-$port.log" 2>&1 &
    local pid=$!
    until curl -fsS "http://127.0.0.1:$port/v1/status" >/dev/null 2>&1; do sleep 0.1; done
    echo "$pid"
}
"$BIN" status >/dev/null   # the embedded default index, from the shipped data
python3 scripts/suggest-prefixes.py "$PINDROP_HOME/geonames.sqlite" "$WORK/prefixes.txt"
EMBEDDED=$(free_port) A=$(free_port) B=$(free_port)
PIDS+=("$(serve "$EMBEDDED")")
PIDS+=("$(serve "$A" --store "$URL")")
PIDS+=("$(serve "$B" --store "$URL")")

wrk_rate() {   # wrk_rate PORT CONNECTIONS THREADS: "req/s errors" of one run
    wrk -t"$3" -c"$2" -d"$DURATION" --latency -s scripts/suggest-mix.lua "http://127.0.0.1:$1" -- "$WORK/prefixes.txt" >"$WORK/wrk-$1.txt"
    awk '/Requests\/sec/ { rate = $2 } /Non-2xx/ { errors += $NF } /Socket errors/ { errors += 1 }
         / 99%/ { p99 = $2 } END { printf "%.0f req/s, p99 %s, errors %d\n", rate, p99, errors }' "$WORK/wrk-$1.txt"
}
echo
echo "== wrk /v1/suggest, 20,000 prefixes, $DURATION each"
echo "embedded server, 32 connections:                $(wrk_rate "$EMBEDDED" 32 2)"
echo "one server on PostgreSQL, 32 connections:       $(wrk_rate "$A" 32 2)"
wrk_rate "$A" 32 1 >"$WORK/a.txt" &
wrk_rate "$B" 32 1 >"$WORK/b.txt"
wait
echo "two servers on one database at once, 32 each:   A $(cat "$WORK/a.txt"); B $(cat "$WORK/b.txt")"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores (wrk shares them with the servers)"
