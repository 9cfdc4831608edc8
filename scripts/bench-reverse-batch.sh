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
start=$(date +%s.%N)
"$BIN" reverse --batch < "$WORK/points.txt" > "$WORK/out.jsonl"
end=$(date +%s.%N)
lines=$(wc -l < "$WORK/out.jsonl")
pindrop_s=$(python3 -c "print(f'{$end - $start:.2f}')")
python3 - "$WORK/points.txt" "$pindrop_s" "$lines" <<'PY'
import sys, time
import reverse_geocoder as rg
points = [tuple(map(float, l.split(","))) for l in open(sys.argv[1])]
rg.search(points[:10], verbose=False)  # load its data before timing
t = time.time(); rg.search(points, verbose=False); rg_s = time.time() - t
p_s, lines = float(sys.argv[2]), int(sys.argv[3])
print(f"points: {len(points)}")
print(f"pindrop reverse --batch (end to end, JSON Lines out): {p_s:.2f} s = {len(points)/p_s/1e6:.2f} M points/s, {lines} lines")
print(f"reverse_geocoder rg.search (in process, no output):  {rg_s:.2f} s = {len(points)/rg_s/1e6:.2f} M points/s")
print(f"ratio: pindrop is {rg_s/p_s:.2f}x reverse_geocoder's speed")
PY
