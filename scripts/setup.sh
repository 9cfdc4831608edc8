#!/usr/bin/env bash
# Installs the system libraries the Swift build links against (zlib, libdeflate, SQLite with FTS5/R*Tree) and curl,
# when they are missing. Idempotent; safe to run on every test run.
set -euo pipefail
exec "$(dirname "$0")/need-packages.sh" zlib1g-dev libdeflate-dev libsqlite3-dev curl
