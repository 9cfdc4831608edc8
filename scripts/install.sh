#!/usr/bin/env bash
# Installs Pindrop like a server: builds `pindrop` in release and puts it, its web app and the shipped data under
# PREFIX (Debian's Leaflet packages come from apt, as the web app loads them from /usr/share/javascript/leaflet):
#
#   PREFIX/bin/pindrop                      -> ../lib/pindrop/pindrop
#   PREFIX/lib/pindrop/pindrop              the executable, beside its resource bundles (the web app, openapi.json)
#   PREFIX/share/pindrop/data/              GeoNames cities500, Natural Earth countries, central Helsinki (OSM)
#   PREFIX/share/pindrop/pindrop.toml.example, pindrop.service, Dockerfile, compose.yaml
#   PREFIX/share/doc/pindrop/               README.md, deployment.md, configuration.md, api-v1.md
#
#   scripts/install.sh PREFIX                       # e.g. /usr/local or /opt/pindrop (sudo for system folders)
#   PINDROP_BUILD_CONFIG=debug scripts/install.sh P  # a debug build instead (the tests use it to spare a build)
set -euo pipefail
PREFIX=${1:?usage: scripts/install.sh PREFIX}
cd "$(dirname "$0")/.."
CONFIG=${PINDROP_BUILD_CONFIG:-release}
scripts/setup.sh
scripts/need-packages.sh libjs-leaflet libjs-leaflet.markercluster
swift build -c "$CONFIG" --product pindrop
BIN_DIR=$(swift build -c "$CONFIG" --show-bin-path)

mkdir -p "$PREFIX/bin" "$PREFIX/lib/pindrop" "$PREFIX/share/pindrop"
install -m 755 "$BIN_DIR/pindrop" "$PREFIX/lib/pindrop/pindrop"
# Swift finds a target's resources in <name>.resources beside the executable; the tests' bundles stay behind.
for bundle in "$BIN_DIR"/*.resources; do
    [[ "$bundle" == *Tests.resources ]] && continue
    rm -rf "$PREFIX/lib/pindrop/$(basename "$bundle")"
    cp -R "$bundle" "$PREFIX/lib/pindrop/"
done
ln -sfn ../lib/pindrop/pindrop "$PREFIX/bin/pindrop"
rm -rf "$PREFIX/share/pindrop/data"
cp -R data "$PREFIX/share/pindrop/data"
install -m 644 deploy/pindrop.toml "$PREFIX/share/pindrop/pindrop.toml.example"
install -m 644 deploy/pindrop.service deploy/Dockerfile deploy/compose.yaml "$PREFIX/share/pindrop/"
mkdir -p "$PREFIX/share/doc/pindrop"
install -m 644 README.md docs/deployment.md docs/configuration.md docs/api-v1.md "$PREFIX/share/doc/pindrop/"
chmod -R a+rX "$PREFIX/lib/pindrop" "$PREFIX/share/pindrop"
echo "installed pindrop ($CONFIG) in $PREFIX: $PREFIX/bin/pindrop serve --config FILE (example: $PREFIX/share/pindrop/pindrop.toml.example)"
