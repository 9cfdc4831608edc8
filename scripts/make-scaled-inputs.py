#!/usr/bin/env python3
"""Writes GeoNames and OpenStreetMap inputs of real shape at several sizes, offline, for `pindrop-bench scale`
(docs/scaling.md).

GeoNames (the 19-column `geoname` dump, tab-separated, UTF-8), ×1, ×10, ×50 of cities500 by default:
- ×1 is the shipped cities500 itself. ×N adds N-1 copies of every row.
- A copy stays in its row's country and lands on land: near a random real place of that country (within
  30 km, uniform over the disc), kept only when the point is inside that country's Natural Earth polygon
  (shapely). Countries Natural Earth 1:110m does not draw (small islands, microstates) and the few rows
  that miss 8 times land within 2 km of a real place of their country instead. admin1..admin4 and the
  timezone come from the nearest real place when it is in the same country (else from the anchor place),
  so codes agree with where the copy lies. Population, feature class and elevation are the row's own;
  capital and seat codes (PPLC, PPLA..) become PPL, so each country keeps one capital.
- Ids are new and unique: 20,000,000 + 100 × row number + copy number (room for ×100; real ids end
  near 13 M), so every file is sorted by geonameid, as the real dumps are, and ×10 is a prefix-by-id of
  what ×50 holds (copy k of a row is the same in every size).
- Names are perturbed letter by letter, keeping scripts and lengths: in each name, 1 to 3 letters (by
  length; never the first letter unless the name has no other) are replaced by letters of the same script
  and case, drawn with the frequencies those letters have in the input. Spellings of a row that fold to
  the same key (name, asciiname, "Sao Paulo"/"São Paulo" among the alternate names) get the same edit,
  so asciiname stays the folded name and the number of distinct index keys per place is the real one.
  Alternate names keep their count, order and kind (letters are edited, digits and punctuation are not).
  A copy's name differs from the original's and from the other copies' whenever the name has room for it.
- Beside each dump: admin1CodesASCII.txt and countryInfo.txt (copied), so `pindrop import geonames FOLDER`
  works. ×1 is `cities500.txt`, larger sizes `allCountries.txt` (the name pindrop looks for first).

OpenStreetMap PBF, ×1, ×10, ×100 of the Helsinki extract by default: the extract's nodes, ways and
relations tiled onto a grid (ceil(sqrt(N)) columns, each tile a shifted copy 5% apart from its
neighbours); tile t adds t × 10^10 to every id and to every reference (way nodes, relation members), so
tile 0 is the original. In every other tile the name-like tags (name, name:*, alt_name, addr:street,
addr:city, ...) are perturbed as GeoNames names are (1-3 letters of the same script), the same way for one
value throughout a tile, so each tile is a town of its own whose addr:street still matches its streets;
--osm-names copy keeps them unchanged (then every tile repeats Helsinki's street names and addresses). Written with pyosmium (libosmium): dense nodes, zlib blobs, version + timestamp
metadata as in the source, sorted by type then id. Tiles are written by several processes and the files'
blobs concatenated after one header (a PBF blob is self-contained), which is still one valid PBF.

Deterministic: the same seed and sizes give byte-identical files (the work is split into fixed chunks,
each with its own seeded generators, whatever --jobs is). Needs (installed when missing): pip numpy,
scipy, shapely, osmium; apt osmium-tool for --check.

Usage: scripts/make-scaled-inputs.py [--out build/scale] [--seed 11] [--geonames 1,10,50] [--osm 1,10,100]
                                     [--osm-names perturb|copy] [--jobs 2] [--gzip] [--check]
       --geonames '' or --osm '' skips that part. Output:
       OUT/geonames-x{N}/{cities500,allCountries}.txt[.gz] + admin1CodesASCII.txt + countryInfo.txt
       OUT/osm/helsinki-x{N}.osm.pbf, OUT/manifest.json
Data: © GeoNames (CC-BY 4.0); © OpenStreetMap contributors (ODbL 1.0); Natural Earth (public domain).
The outputs are derived from them and carry the same licences; never commit them (build/ is ignored).
"""
import argparse
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import time

from scaledinputs import checks, geonames, osm

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PIP_PACKAGES = {"numpy": "numpy", "scipy": "scipy", "shapely": "shapely", "osmium": "osmium"}


def ensure_packages(check):
    missing = [pip for module, pip in PIP_PACKAGES.items() if importlib.util.find_spec(module) is None]
    if missing:
        print(f"installing {' '.join(missing)} (pip)", file=sys.stderr)
        subprocess.check_call([sys.executable, "-m", "pip", "install", "-q", *missing])
        importlib.invalidate_caches()
    if check and shutil.which("osmium") is None:
        print("installing osmium-tool (apt)", file=sys.stderr)
        sudo = [] if os.geteuid() == 0 else ["sudo"]
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        subprocess.check_call(sudo + ["apt-get", "update", "-q"], env=env)
        subprocess.check_call(sudo + ["apt-get", "install", "-y", "-q", "osmium-tool"], env=env)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", default=os.path.join(ROOT, "build", "scale"))
    p.add_argument("--seed", type=int, default=11)
    p.add_argument("--geonames", default="1,10,50", help="sizes, comma-separated ('' for none)")
    p.add_argument("--osm", default="1,10,100", help="sizes, comma-separated ('' for none)")
    p.add_argument("--geonames-dir", default=os.path.join(ROOT, "data", "geonames"))
    p.add_argument("--osm-file", default=os.path.join(ROOT, "data", "osm", "helsinki-center.osm.pbf"))
    p.add_argument("--naturalearth", default=os.path.join(ROOT, "data", "naturalearth", "countries-110m.geojson"))
    p.add_argument("--osm-names", choices=("perturb", "copy"), default="perturb",
                   help="in tiles after the first, perturb name-like tags (name, name:*, addr:street, addr:city, ...) "
                        "so each tile is its own town with its own street names (default), or copy them unchanged")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    p.add_argument("--gzip", action="store_true", help="write the GeoNames dumps as .gz (level 1; slower)")
    p.add_argument("--check", action="store_true", help="verify the outputs (osmium fileinfo -e, re-read dumps)")
    args = p.parse_args()
    args.geonames_sizes = [int(x) for x in args.geonames.split(",") if x.strip()]
    args.osm_sizes = [int(x) for x in args.osm.split(",") if x.strip()]
    if any(s < 1 for s in args.geonames_sizes + args.osm_sizes):
        p.error("sizes are whole numbers ≥ 1")
    for name in ("cities500.txt", "cities500.txt.gz"):
        if os.path.exists(os.path.join(args.geonames_dir, name)):
            args.geonames_file = os.path.join(args.geonames_dir, name)
            break
    else:
        p.error(f"no cities500.txt(.gz) in {args.geonames_dir}")
    ensure_packages(args.check)
    import multiprocessing
    context = multiprocessing.get_context("fork")
    os.makedirs(args.out, exist_ok=True)
    manifest_path = os.path.join(args.out, "manifest.json")
    manifest = json.load(open(manifest_path)) if os.path.exists(manifest_path) else {}
    if manifest.get("seed") != args.seed:
        manifest = {}
    manifest.update(seed=args.seed, generator="scripts/make-scaled-inputs.py")
    started = time.time()
    if args.geonames_sizes:
        geonames.make_geonames(args, context, manifest)
    if args.osm_sizes:
        osm.make_osm(args, context, manifest)
    manifest["seconds_last_run"] = round(time.time() - started, 1)
    good = checks.check(args, manifest) if args.check else True
    with open(manifest_path, "w") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"done in {time.time() - started:.0f} s; {os.path.join(args.out, 'manifest.json')}", file=sys.stderr)
    sys.exit(0 if good else 1)


if __name__ == "__main__":
    main()
