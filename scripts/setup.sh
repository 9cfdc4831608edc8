#!/usr/bin/env bash
# Installs the system libraries the Swift build links against (zlib, SQLite with FTS5/R*Tree) and curl,
# when they are missing. Idempotent; safe to run on every test run.
set -euo pipefail
missing=()
for pkg in zlib1g-dev libsqlite3-dev curl; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
if ((${#missing[@]})); then
    SUDO=$([[ $(id -u) == 0 ]] && echo "" || echo sudo)
    $SUDO apt-get update -q
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q "${missing[@]}"
fi
