#!/usr/bin/env bash
# End to end batch reverse geocoding, in one run on the same points: `pindrop reverse --batch` (read lines,
# answer, write JSON Lines) against reverse_geocoder's batch call (PyPI, a k-d tree in raw degrees).
#   scripts/bench-reverse-batch.sh [POINTS]   (default 1,000,000)
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-1000000}
python3 -c "import reverse_geocoder" 2>/dev/null || python3 -m pip install -q reverse_geocoder
swift build -c release --product pindrop >/dev/null
BIN=.build/release/pindrop
WORK=$(mktemp -d /tmp/pindrop-reverse.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
export PINDROP_HOME="$WORK/home"
"$BIN" search Paris --limit 1 >/dev/null 2>&1   # build the default index first
python3 - "$N" "$WORK/points.txt" <<'PY'
import math, random, sys
n, path = int(sys.argv[1]), sys.argv[2]
rng = random.Random(1990)
with open(path, "w") as f:
    for _ in range(n):
        f.write(f"{math.degrees(math.asin(rng.uniform(-1, 1))):.5f},{rng.uniform(-180, 180):.5f}\n")
PY
# Best of 3 each; to a file (what a user keeps) and to /dev/null (every answer formatted, none stored: on this
# VM the file case also pays for the disk's writeback of ~330 MB, which varies from run to run).
best() {
    local best=999
    for _ in 1 2 3; do
        local start end
        start=$(date +%s.%N); "$BIN" reverse --batch < "$WORK/points.txt" > "$1"; end=$(date +%s.%N)
        best=$(python3 -c "print(min($best, $end - $start))")
    done
    echo "$best"
}
file_s=$(best "$WORK/out.jsonl")
null_s=$(best /dev/null)
lines=$(wc -l < "$WORK/out.jsonl")
python3 - "$WORK/points.txt" "$file_s" "$null_s" "$lines" <<'PY'
import sys, time
import reverse_geocoder as rg
points = [tuple(map(float, l.split(","))) for l in open(sys.argv[1])]
rg.search(points[:10], verbose=False)  # load its data before timing
rg_s = 999.0
for _ in range(3):
    t = time.time(); rg.search(points, verbose=False); rg_s = min(rg_s, time.time() - t)
file_s, null_s, lines = float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
n = len(points)
print(f"points: {n} (best of 3 each)")
print(f"pindrop reverse --batch, JSON Lines to a file:     {file_s:.2f} s = {n/file_s/1e6:.2f} M points/s, {lines} lines")
print(f"pindrop reverse --batch, JSON Lines to /dev/null:  {null_s:.2f} s = {n/null_s/1e6:.2f} M points/s")
print(f"reverse_geocoder rg.search (in process, no output): {rg_s:.2f} s = {n/rg_s/1e6:.2f} M points/s")
print(f"ratio: pindrop is {rg_s/file_s:.2f}x (to a file) / {rg_s/null_s:.2f}x (to /dev/null) reverse_geocoder's speed")
PY
