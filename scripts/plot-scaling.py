#!/usr/bin/env python3
"""Draws `pindrop-bench scale`'s results (scale.json) against input size as one PNG.

scripts/plot-scaling.py [build/scale/bench/scale.json] [docs/scaling.png]

Installs matplotlib from PyPI when it is missing.
"""
import importlib.util
import json
import subprocess
import sys

if importlib.util.find_spec("matplotlib") is None:
    print("installing matplotlib (pip)", file=sys.stderr)
    subprocess.check_call([sys.executable, "-m", "pip", "install", "-q", "--break-system-packages", "matplotlib"])

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

source = sys.argv[1] if len(sys.argv) > 1 else "build/scale/bench/scale.json"
target = sys.argv[2] if len(sys.argv) > 2 else "docs/scaling.png"
rows = json.load(open(source))

panels = [
    ("import: rows (OSM: nodes) per CPU second", lambda r: r["rows"] / r["importCPUSeconds"]),
    ("import: peak RSS, MiB", lambda r: r["importPeakMB"]),
    ("index MB (OSM: added)", lambda r: r["indexMB"]),
    ("open, ms", lambda r: r["openMS"]),
    ("serving RSS, MiB (dotted: from a cold page cache)", lambda r: r["servingMB"]),
]
types = ["search", "suggest", "reverse", "reverse, 10 places", "nearby", "reverse street", "nearby + category"]
fig, axes = plt.subplots(2, 3, figsize=(15, 8.5))
for ax, (title, value) in zip(axes.flat, panels):
    for source_kind, marker in (("geonames", "o-"), ("osm", "s--")):
        part = [r for r in rows if r["input"] == source_kind]
        if part:
            ax.plot([r["size"] for r in part], [value(r) for r in part], marker, label=source_kind)
    ax.set_title(title)
    ax.set_xscale("log")
    ax.set_xlabel("size (× the shipped data)")
    ax.grid(True, alpha=0.3)
    ax.legend()
# A server that starts with the index out of the page cache holds only what its queries read.
for source_kind, marker in (("geonames", "o:"), ("osm", "s:")):
    part = [r for r in rows if r["input"] == source_kind and r.get("servingColdMB")]
    if part:
        axes.flat[4].plot([r["size"] for r in part], [r["servingColdMB"] for r in part], marker, label=f"{source_kind}, cold cache")
axes.flat[4].legend()
ax = axes.flat[5]
for source_kind, style in (("geonames", "o-"), ("osm", "s--")):
    for t in types:
        part = [r for r in rows if r["input"] == source_kind and t in r["latency"]]
        if part:
            ax.plot([r["size"] for r in part], [r["latency"][t][1] for r in part], style, label=f"{t} ({source_kind})")
ax.set_title("query p99, µs of CPU (not warm: a query may touch a page first)")
ax.set_xscale("log")
ax.set_yscale("log")
ax.set_xlabel("size (× the shipped data)")
ax.grid(True, alpha=0.3)
ax.legend(fontsize=8)
fig.suptitle("Pindrop's embedded engine against input size (pindrop-bench scale, release)")
fig.tight_layout()
fig.savefig(target, dpi=90)
print(f"wrote {target}")
