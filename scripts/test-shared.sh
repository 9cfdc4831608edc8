#!/usr/bin/env bash
# The process-level tests (Tests/deployment), on real `pindrop serve` processes over loopback:
# - test_shared_deployment.py: two servers on one PostgreSQL database; kill -9 during a burst of saves; PostgreSQL
#   restarted under load;
# - test_operations.py: SIGTERM during a burst of saves; /readyz following the database down and back; /metrics
#   counts; scripts/install.sh into a temporary prefix and a server from there; the systemd unit and compose file;
# - test_geocoder_compat.py: geopy's Nominatim and Photon geocoders, unchanged, against `pindrop serve`;
# - test_updates.py: OpenStreetMap change files and a replication feed applied to a store, served and faulted;
# - test_update_extracts.py: a change file on the default index, built from two extracts;
# - test_update_folds.py: changes folded into the extract, against `osmium apply-changes` and a fresh import;
# - test_us_postcodes.py: United States ZIP+4 codes on an extract written with pyosmium, as five-digit postcode places.
# Needs the test cluster of scripts/postgres-cluster.sh (PINDROP_TEST_DATABASE_URL, PINDROP_PG_CLUSTER), which
# scripts/test.sh starts; starts one itself otherwise. The install test installs the PINDROP_BUILD_CONFIG build
# (debug by default: the one the tests already have, sparing CI a release build).
#
#   PINDROP_BIN=.build/debug/pindrop scripts/test-shared.sh [pytest arguments...]
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
"$PYTHON" -c "import pytest" 2>/dev/null || "$PYTHON" -m pip install -q pytest
# geopy's Nominatim and Photon geocoders, at the version the compatibility is proven with (test_geocoder_compat.py).
"$PYTHON" -c "import sys, geopy; sys.exit(geopy.__version__ != '2.5.0')" 2>/dev/null || "$PYTHON" -m pip install -q geopy==2.5.0
# The change files of test_updates.py are made with osmium-tool (Debian) and pyosmium (PyPI's osmium, for this python).
scripts/need-packages.sh osmium-tool
"$PYTHON" -c "import osmium" 2>/dev/null || "$PYTHON" -m pip install -q osmium || "$PYTHON" -m pip install -q --break-system-packages osmium
if [[ -z "${PINDROP_PG_CLUSTER:-}" ]]; then
    eval "$(scripts/postgres-cluster.sh start)"
    trap 'scripts/postgres-cluster.sh stop "$PINDROP_PG_CLUSTER"' EXIT
fi
if [[ -z "${PINDROP_BIN:-}" ]]; then
    swift build --product pindrop
    PINDROP_BIN=.build/debug/pindrop
fi
PINDROP_BIN=$(realpath "$PINDROP_BIN") "$PYTHON" -m pytest -q -s -p no:cacheprovider Tests/deployment "$@"
