#!/usr/bin/env python3
"""Expectations for "places inside places", built from the OSM geometry itself, independently of Pindrop.

pyosmium assembles the area polygons (libosmium's multipolygon assembler) and shapely answers containment;
nothing here shares code or output with the engine. Regenerate the committed fixtures with:

    python3 scripts/area-expectations.py data/osm/liechtenstein.osm.pbf Tests/Fixtures/areas/liechtenstein
    python3 scripts/area-expectations.py data/osm/helsinki-center.osm.pbf Tests/Fixtures/areas/helsinki \\
        --probe 60.1687,24.9310 --random-probes 8 --probes-name helsinki-centre.tsv

Areas: boundary=administrative (every admin_level), boundary=postal_code and place=suburb|quarter|
neighbourhood|city|town|village|hamlet, as relations (type=multipolygon|boundary) or closed ways.
Files written (all TSV, UTF-8, one header line starting with '#'):

- areas.tsv: every such area candidate, assembled or not (and why not).
- when the country named by --country (admin_level=2) assembles:
  points.tsv, addresses-without-city.tsv, addresses-with-postcode.tsv, municipality-postcodes.tsv,
  street-town.tsv (see Tests/Fixtures/areas/README.md for the columns).
- with --probe / --random-probes: the areas containing each probe point (--probes-name).

Output is deterministic: fixed seeds, sorted rows. Needs: pip install osmium shapely
"""
import argparse
import collections
import os
import random
import sys
from importlib.metadata import version

try:
    import osmium
    import shapely
    from shapely.geometry import Point
except ImportError as error:
    sys.exit(f"area-expectations: missing Python package ({error}).\n"
             "Install with: pip install --break-system-packages osmium shapely")

from areaexpectations.areas import Index, postcode_of, write_areas
from areaexpectations.country import country_files
from areaexpectations.probes import probe_files
from areaexpectations.reading import read


def arguments():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("pbf")
    parser.add_argument("out", help="output folder (created)")
    parser.add_argument("--country", default="Liechtenstein", help="admin_level=2 name whose municipalities to test")
    parser.add_argument("--seed", default="pindrop-areas-1")
    parser.add_argument("--per-municipality", type=int, default=50)
    parser.add_argument("--min-per-part", type=int, default=5)
    parser.add_argument("--unambiguous-streets", type=int, default=50,
                        help="street-town rows whose name is in one town only (at least; 200 rows in all if fewer)")
    parser.add_argument("--probe", action="append", default=[], help="LAT,LON; repeatable")
    parser.add_argument("--random-probes", type=int, default=0, help="seeded points inside the extract's box")
    parser.add_argument("--probes-name", default="probes.tsv")
    parser.add_argument("--check", action="append", default=[],
                        help="LAT,LON to print the containing areas of (for Liechtenstein by default: the "
                             "point in Balzers' exclave, 47.152407,9.594155)")
    return parser.parse_args()


def header_box(path, data_box):
    """The extract's box when the file states one, else the box of its nodes."""
    reader = osmium.io.Reader(path, osmium.osm.NOTHING)
    box = reader.header().box()
    reader.close()
    if box.valid():
        return box.bottom_left.lon, box.bottom_left.lat, box.top_right.lon, box.top_right.lat
    return data_box


def print_checks(args, areas, index):
    checks = args.check or (["47.152407,9.594155"] if args.country == "Liechtenstein" and areas else [])
    for check in checks:
        lat, lon = (float(v) for v in check.split(","))
        found = index.containing(lon, lat)
        detail = []
        for a in found:
            part = next((j for j, p in enumerate(a.parts) if p.intersects(Point(lon, lat))), None)
            detail.append(f"{a.kind}{a.level} {a.name or postcode_of(a.tags)} ({a.key()}, part {part} of "
                          f"{len(a.parts)}, {'the main part' if part == 0 else 'an exclave'})")
        print(f"  check {lat} {lon}: " + ("; ".join(detail) if detail else "no assembled area"))


def probe_points(args, data_box):
    probes = []
    for p in args.probe:
        lat, lon = (float(v) for v in p.split(","))
        probes.append((f"given-{len(probes) + 1}", lon, lat))
    if args.random_probes and data_box:
        rng = random.Random(f"{args.seed}:probes")
        x0, y0, x1, y1 = data_box
        probes.append(("extract-centre", (x0 + x1) / 2, (y0 + y1) / 2))
        for k in range(args.random_probes):
            probes.append((f"random-{k + 1}", rng.uniform(x0, x1), rng.uniform(y0, y1)))
    return probes


def main():
    args = arguments()
    if not os.path.isfile(args.pbf):
        sys.exit(f"area-expectations: no such file: {args.pbf}")
    os.makedirs(args.out, exist_ok=True)
    print(f"{args.pbf} (pyosmium {version('osmium')}, shapely {shapely.__version__})")

    candidates, assembled, addresses, highways, way_ids, data_box = read(args.pbf)
    data_box = header_box(args.pbf, data_box)
    areas = sorted((a for a in assembled.values() if a.named), key=lambda a: (a.osm_type, a.osm_id))
    index = Index(areas)
    write_areas(args.out, candidates, assembled, way_ids)
    levels = collections.Counter(a.level for a in areas if a.kind == "admin")
    print(f"  assembled admin levels: {dict(sorted(levels.items(), key=lambda kv: int(kv[0])))}; "
          f"postal_code areas: {sum(1 for a in areas if a.kind == 'postal')}; "
          f"place areas: {collections.Counter(a.tags['place'] for a in areas if a.kind == 'place')}")
    print_checks(args, areas, index)

    countries = [a for a in areas if a.kind == "admin" and a.level == "2" and a.name == args.country]
    if countries:
        country_files(args.out, countries[0], areas, index, addresses, highways, args.seed,
                      args.per_municipality, args.min_per_part, args.unambiguous_streets)
    else:
        print(f"  no assembled admin_level=2 area named {args.country!r}: country files not written")

    probes = probe_points(args, data_box)
    if probes:
        probe_files(args.pbf, args.out, args.probes_name, probes, candidates, assembled, index, way_ids, data_box)


if __name__ == "__main__":
    main()
