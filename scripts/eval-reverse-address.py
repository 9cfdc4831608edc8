#!/usr/bin/env python3
"""Reverse geocoding to a street address, judged by an independent reader of the same OSM extract.

pyosmium decodes the PBF and assembles the building polygons, shapely tests containment: nothing here
shares code with Pindrop. For every tagged address point (addr:street + addr:housenumber) it draws
points within 15 m (uniform over the disc, seeded), asks `pindrop reverse --batch` for their address
and prints two figures:

- location truth: the address of the spot. Inside a building, the nearest of the addresses tagged in
  that building (its own addr:* tags or those of its shops and entrances); elsewhere, the nearest
  address point. This is what a person standing there would read on the door.
- own address: the address whose point the probe was drawn around. Where two addresses stand closer
  than 30 m the probe's disc covers both, so no geocoder can know which one it was drawn from; the
  script prints the ceiling of this reading (the best any method can reach from the address points,
  knowing how probes are drawn) beside it.

Usage: scripts/eval-reverse-address.py [--pindrop .build/release/pindrop] [--pbf data/osm/...pbf]
Needs: pip install osmium shapely numpy
"""
import argparse
import collections
import json
import math
import os
import random
import subprocess
import tempfile

import numpy as np
import osmium
from shapely.geometry import MultiPolygon, Point, Polygon
from shapely.strtree import STRtree

RADIUS = 15.0
PROBES_PER_POINT = 3
METERS_PER_DEGREE = 111_320.0


def same_address(street, number):
    """One spelling per address: mappers write "Keskuskatu 1B" and "Keskuskatu 1b", "Alvar Aallon katu"
    and "Alvar Aallon Katu" for one door."""
    return ((street or "").casefold(), (number or "").casefold().replace(" ", ""))


class Reader(osmium.SimpleHandler):
    """Address points (nodes, and areas at their centroid) and building polygons."""

    def __init__(self):
        super().__init__()
        self.points = []     # (lat, lon, (street, number))
        self.buildings = []  # (polygon, own address or None)

    @staticmethod
    def address(tags):
        if "addr:housenumber" in tags and "addr:street" in tags:
            return same_address(tags["addr:street"], tags["addr:housenumber"])
        return None

    def node(self, n):
        a = self.address(n.tags)
        if a:
            self.points.append((n.location.lat, n.location.lon, a))

    def area(self, area):
        try:
            polygons = [Polygon([(p.lon, p.lat) for p in outer],
                                [[(p.lon, p.lat) for p in inner] for inner in area.inner_rings(outer)])
                        for outer in area.outer_rings()]
        except (osmium.InvalidLocationError, ValueError):
            return  # clipped at the extract's edge
        if not polygons:
            return
        shape = polygons[0] if len(polygons) == 1 else MultiPolygon(polygons)
        a = self.address(area.tags)
        if a:
            c = shape.centroid
            self.points.append((c.y, c.x, a))
        if area.tags.get("building", "no") != "no":
            self.buildings.append(shape)


class Space:
    """The address points in local metres, the buildings, and the truth of a spot."""

    def __init__(self, reader):
        self.points, self.buildings = reader.points, reader.buildings
        lat0 = sum(p[0] for p in self.points) / len(self.points)
        self.kx = METERS_PER_DEGREE * math.cos(math.radians(lat0))
        self.xs = np.array([p[1] * self.kx for p in self.points])
        self.ys = np.array([p[0] * METERS_PER_DEGREE for p in self.points])
        self.keys = [p[2] for p in self.points]
        self.tree = STRtree(self.buildings)
        self.inside = collections.defaultdict(list)  # building → address points in it
        for j, (lat, lon, _) in enumerate(self.points):
            for b in self.tree.query(Point(lon, lat), predicate="intersects"):
                self.inside[int(b)].append(j)
        self.everyone = np.arange(len(self.points))

    def nearest(self, x, y, among):
        among = np.asarray(among)
        return self.keys[among[int(np.argmin((self.xs[among] - x) ** 2 + (self.ys[among] - y) ** 2))]]

    def truth(self, x, y):
        spot = Point(x / self.kx, y / METERS_PER_DEGREE)
        for b in self.tree.query(spot, predicate="intersects"):
            if self.inside[int(b)]:
                return self.nearest(x, y, self.inside[int(b)]), "in a building"
        return self.nearest(x, y, self.everyone), "outside buildings"

    def ceiling_share(self, x, y, own):
        """Chance the best guess from the address points alone is the probe's own address."""
        near = (self.xs - x) ** 2 + (self.ys - y) ** 2 <= RADIUS ** 2 + 1e-6
        counts = collections.Counter(self.keys[j] for j in np.nonzero(near)[0])
        best = max(counts.values())
        winners = [k for k, v in counts.items() if v == best]
        return (own in winners) / len(winners)

    def probes(self, seed):
        """(lat, lon, own, truth, where, ceiling) for PROBES_PER_POINT seeded points around each address point."""
        rng = random.Random(seed)
        probes = []
        for j in range(len(self.points)):
            for _ in range(PROBES_PER_POINT):
                r, bearing = RADIUS * math.sqrt(rng.random()), rng.random() * 2 * math.pi
                x, y = self.xs[j] + r * math.sin(bearing), self.ys[j] + r * math.cos(bearing)
                where_truth, where = self.truth(x, y)
                probes.append((y / METERS_PER_DEGREE, x / self.kx, self.keys[j], where_truth, where,
                               self.ceiling_share(x, y, self.keys[j])))
        return probes


def answers_of(pindrop, probes):
    """The street address `pindrop reverse --batch` gives each probe, in a throwaway PINDROP_HOME."""
    with tempfile.TemporaryDirectory() as home:
        stdin = "".join(f"{lat:.8f},{lon:.8f}\n" for lat, lon, *_ in probes)
        run = subprocess.run([pindrop, "reverse", "--batch"], input=stdin, capture_output=True, text=True,
                             env={**os.environ, "PINDROP_HOME": home}, check=True)
    answers = []
    for line in run.stdout.splitlines():
        results = json.loads(line).get("results") or [{}]
        address = results[0].get("address") or {}
        answers.append(same_address(address.get("street"), address.get("houseNumber")))
    assert len(answers) == len(probes), "one answer per probe"
    return answers


def report(space, probes, answers):
    n = len(probes)
    by_where = collections.defaultdict(lambda: [0, 0])
    for (*_, where_truth, where, _), answer in zip(probes, answers):
        by_where[where][0] += answer == where_truth
        by_where[where][1] += 1
    right = sum(v[0] for v in by_where.values())
    own = sum(answer == p[2] for p, answer in zip(probes, answers))
    ceiling = sum(p[5] for p in probes)
    print(f"{len(space.points)} address points ({len(set(space.keys))} addresses), {len(space.buildings)} buildings; "
          f"{n} probes uniform within {RADIUS:.0f} m")
    print(f"location truth (address of the spot): {right}/{n} = {100 * right / n:.1f}%")
    for where, (good, total) in sorted(by_where.items()):
        print(f"  {where}: {good}/{total} = {100 * good / total:.1f}%")
    print(f"own address (the point the probe was drawn around): {100 * own / n:.1f}%; "
          f"ceiling for any method on this reading: {100 * ceiling / n:.1f}%")


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pindrop", default=os.path.join(root, ".build/release/pindrop"))
    parser.add_argument("--pbf", default=os.path.join(root, "data/osm/helsinki-center.osm.pbf"))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    reader = Reader()
    reader.apply_file(args.pbf, locations=True)
    space = Space(reader)
    probes = space.probes(args.seed)
    report(space, probes, answers_of(args.pindrop, probes))


if __name__ == "__main__":
    main()
