#!/usr/bin/env bash
# The run command: on a fresh Debian machine, installs what is missing (the build's system libraries and the
# map library, Debian's libjs-leaflet and libjs-leaflet.markercluster), builds `pindrop` in release and starts
# the web map app and API. Arguments go to `pindrop serve` (e.g. --port 8081, --index PATH).
#
#   scripts/serve.sh            # then open http://127.0.0.1:8080
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/need-packages.sh libjs-leaflet libjs-leaflet.markercluster
swift build -c release --product pindrop
exec "$(swift build -c release --show-bin-path)/pindrop" serve "$@"
