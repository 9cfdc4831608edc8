#!/usr/bin/env python3
"""Expectations for what an import reads out of an OSM extract, made from the data itself, independently of Pindrop.

pyosmium reads the file; scripts/featureexpectations/rules.py transcribes Nominatim's import style (which named objects
are places, with which class and type); shapely gives a way's centroid or midpoint. Nothing here shares code or output
with the import. Regenerate the committed fixtures with:

    python3 scripts/feature-expectations.py data/osm/liechtenstein.osm.pbf Tests/Fixtures/features/liechtenstein
    python3 scripts/feature-expectations.py data/osm/helsinki-center.osm.pbf Tests/Fixtures/features/helsinki

Files written (TSV, UTF-8, one header line starting with '#'; Tests/Fixtures/features/README.md has the columns):
places.tsv, areas-not-places.tsv, tags.tsv, addresses.tsv, interpolations.tsv, entrances.tsv.
Output is deterministic: sorted rows, a fixed seed. Needs: pip install osmium shapely (Debian: python3-pyosmium).
"""
import argparse
import collections
import os
import sys

try:
    import osmium  # noqa: F401 (checked here for a clear message)
    import shapely  # noqa: F401
except ImportError as error:
    sys.exit(f"feature-expectations: missing Python package ({error}).\n"
             "Install with: pip install --break-system-packages osmium shapely")

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from featureexpectations.addresses import address_rows, entrance_rows, interpolation_rows  # noqa: E402
from featureexpectations.places import not_place_rows, place_rows, tag_rows  # noqa: E402
from featureexpectations.reading import read, street_relations  # noqa: E402

HEADERS = {
    "places.tsv": ["osm_type", "osm_id", "class", "type", "name", "lat", "lon", "south", "west", "north", "east",
                   "main_tags"],
    "areas-not-places.tsv": ["osm_type", "osm_id", "why"],
    "tags.tsv": ["osm_type", "osm_id", "key", "value"],
    "addresses.tsv": ["osm_type", "osm_id", "housenumber", "numbers", "street", "place", "postcode", "city", "suburb",
                      "neighbourhood", "county", "state", "country_code", "status"],
    "interpolations.tsv": ["way_id", "scheme", "points", "stops"],
    "entrances.tsv": ["node_id", "type", "lat", "lon", "holder_ways", "tags"],
}


def write(folder, name, rows):
    with open(os.path.join(folder, name), "w", encoding="utf-8", newline="\n") as out:
        out.write("# " + "\t".join(HEADERS[name]) + "\n")
        for row in rows:
            out.write("\t".join(row) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("pbf")
    parser.add_argument("out", help="output folder (created)")
    parser.add_argument("--seed", default="pindrop-features-1")
    parser.add_argument("--tag-sample", type=int, default=150, help="places with only `name` whose tags are listed")
    args = parser.parse_args()
    if not os.path.isfile(args.pbf):
        sys.exit(f"feature-expectations: no such file: {args.pbf}")
    os.makedirs(args.out, exist_ok=True)
    reading = read(args.pbf)
    streets = street_relations(reading)
    places = place_rows(reading)
    write(args.out, "places.tsv", [p[3] for p in places])
    write(args.out, "areas-not-places.tsv", not_place_rows(reading))
    write(args.out, "tags.tsv", tag_rows(places, args.seed, args.tag_sample))
    addresses = address_rows(reading, streets)
    write(args.out, "addresses.tsv", addresses)
    interpolations = interpolation_rows(reading, streets)
    write(args.out, "interpolations.tsv", interpolations)
    entrances = entrance_rows(reading)
    write(args.out, "entrances.tsv", entrances)
    classes = collections.Counter(p[3][2] for p in places)
    print(f"{args.pbf}: {len(places)} places {dict(classes.most_common())}; {len(addresses)} house numbers "
          f"({sum(r[-1] == 'kept' for r in addresses)} with a street or place); {len(interpolations)} interpolation "
          f"lines; {len(entrances)} entrances")


if __name__ == "__main__":
    main()
