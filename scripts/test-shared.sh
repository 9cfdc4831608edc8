#!/usr/bin/env bash
# The shared-deployment test (Tests/deployment): two `pindrop serve` on one PostgreSQL database; kill -9 during a
# burst of saves; PostgreSQL restarted under load. Needs the test cluster of scripts/postgres-cluster.sh
# (PINDROP_TEST_DATABASE_URL, PINDROP_PG_CLUSTER), which scripts/test.sh starts; starts one itself otherwise.
#
#   PINDROP_BIN=.build/debug/pindrop scripts/test-shared.sh [pytest arguments...]
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
"$PYTHON" -c "import pytest" 2>/dev/null || "$PYTHON" -m pip install -q pytest
if [[ -z "${PINDROP_PG_CLUSTER:-}" ]]; then
    eval "$(scripts/postgres-cluster.sh start)"
    trap 'scripts/postgres-cluster.sh stop "$PINDROP_PG_CLUSTER"' EXIT
fi
if [[ -z "${PINDROP_BIN:-}" ]]; then
    swift build --product pindrop
    PINDROP_BIN=.build/debug/pindrop
fi
PINDROP_BIN=$(realpath "$PINDROP_BIN") "$PYTHON" -m pytest -q -s -p no:cacheprovider Tests/deployment "$@"
