#!/usr/bin/env bash
# Nominatim's own search and status scenarios, over HTTP against `pindrop serve` on Nominatim's API test data
# (data/osm/liechtenstein.osm.pbf). They are Nominatim's test material, run from beside the repository
# (../shared/nominatim-scenarios, or $PINDROP_NOMINATIM_SCENARIOS), never copied into it; where they are not there the
# check says so and is skipped. Fails when fewer pass than FLOOR of the 123 that Nominatim itself passes outside its
# internal and test-database-premise ones.
#
#   PINDROP_BIN=.build/debug/pindrop scripts/test-nominatim-scenarios.sh
set -euo pipefail
cd "$(dirname "$0")/.."
FLOOR=118
scenarios=${PINDROP_NOMINATIM_SCENARIOS:-../shared/nominatim-scenarios}
if [[ ! -x "$scenarios/run.sh" ]]; then
    echo "nominatim scenarios: $scenarios is not there; skipped"
    exit 0
fi
bin=$(realpath "${PINDROP_BIN:-.build/debug/pindrop}")
home=$(mktemp -d)
report="$home/report.json"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
server=
cleanup() {
    [[ -n "$server" ]] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null
    rm -rf "$home"
}
trap cleanup EXIT
export PINDROP_HOME=$home
"$bin" search Vaduz >/dev/null
"$bin" import osm data/osm/liechtenstein.osm.pbf >/dev/null 2>&1
PINDROP_SEARCH_PROVIDERS=embedded PINDROP_SUGGEST_PROVIDERS=embedded PINDROP_REVERSE_PROVIDERS=embedded \
    PINDROP_NEARBY_PROVIDERS=embedded "$bin" serve --host 127.0.0.1 --port "$port" --tile-url "" >"$home/serve.log" 2>&1 &
server=$!
for _ in $(seq 1 120); do
    curl -sf "http://127.0.0.1:$port/status" >/dev/null && break
    sleep 0.5
done
"$scenarios/run.sh" "http://127.0.0.1:$port" "$report" | tail -1
passed=$(python3 -c '
import json, sys
tests = json.load(open(sys.argv[1]))["tests"].values()
print(sum(t["outcome"] == "passed" and t["status"] == "selected" for t in tests))' "$report")
if (( passed < FLOOR )); then
    echo "nominatim scenarios: $passed pass, fewer than $FLOOR" >&2
    exit 1
fi
echo "nominatim scenarios: $passed pass (floor $FLOOR)"
