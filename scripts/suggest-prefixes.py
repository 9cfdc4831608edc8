#!/usr/bin/env python3
"""Writes a realistic mix of distinct /v1/suggest request paths, one a line, for scripts/bench-server.sh.

    scripts/suggest-prefixes.py INDEX.sqlite OUT [--count 20000] [--seed 18]

The prefixes are what people type on the way to a place's name: its first 1 to 8 letters (a trailing space
kept: "new " asks for "New York", not "Newark"). Half the places are drawn uniformly over the index's GeoNames
places, as `pindrop-bench geonames` draws its suggest queries, half by population, as people mostly look for
big places. Seeded, so every run asks the same questions; each prefix once, so no answer repeats. Every request
carries minChars=1, so no prefix is answered empty by the length rule.
"""
import argparse
import bisect
import itertools
import random
import sqlite3
import urllib.parse

parser = argparse.ArgumentParser()
parser.add_argument("index")
parser.add_argument("out")
parser.add_argument("--count", type=int, default=20000)
parser.add_argument("--seed", type=int, default=18)
args = parser.parse_args()

db = sqlite3.connect(f"file:{args.index}?mode=ro", uri=True)
rows = db.execute("SELECT name, population FROM place ORDER BY geonameid").fetchall()
names = [name for name, _ in rows]
cumulative = list(itertools.accumulate(max(population, 0) + 1 for _, population in rows))

rng = random.Random(args.seed)
seen, prefixes = set(), []
while len(prefixes) < args.count:
    if rng.random() < 0.5:
        name = names[rng.randrange(len(names))]
    else:
        name = names[bisect.bisect_right(cumulative, rng.randrange(cumulative[-1]))]
    prefix = name[: rng.randint(1, 8)]
    if prefix.strip() and prefix not in seen:
        seen.add(prefix)
        prefixes.append(prefix)

with open(args.out, "w", encoding="ascii") as out:
    for prefix in prefixes:
        out.write("/v1/suggest?q=" + urllib.parse.quote(prefix, safe="") + "&minChars=1\n")
print(f"{len(prefixes)} distinct prefixes ({sum(len(p) <= 2 for p in prefixes)} of 1-2 letters) from {len(names)} places -> {args.out}")
