#!/usr/bin/env bash
# Installs the Debian packages named as arguments that are not installed yet (apt-get, with sudo when not
# root). Idempotent: with everything present it only asks dpkg.
#
#   scripts/need-packages.sh chromium libjs-leaflet ...
set -euo pipefail
missing=()
for pkg in "$@"; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
if ((${#missing[@]})); then
    SUDO=$([[ $(id -u) == 0 ]] && echo "" || echo sudo)
    $SUDO apt-get update -q
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q "${missing[@]}"
fi
