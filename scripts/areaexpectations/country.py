"""The expectation files of one country: seeded points, addresses without addr:city, postcodes and "street, town"
(scripts/area-expectations.py; Tests/Fixtures/areas/README.md has the columns)."""
import collections
import random

from shapely.geometry import LineString, Point
from shapely.strtree import STRtree

from .areas import fmt, metres, names, postcode_of, write


def country_files(folder, country, areas, index, addresses, highways, seed, per_muni, min_per_part, unambiguous):
    """points, addresses-without-city, addresses-with-postcode, municipality-postcodes, street-town."""
    country_geom = country.geometry
    munis = sorted((a for a in areas if a.kind == "admin" and a.level == "8" and a.name
                    and country_geom.contains(a.geometry.representative_point())), key=lambda a: a.name)
    lat0 = country_geom.centroid.y
    print(f"  {country.name}: {len(munis)} admin_level=8 areas")
    for m in munis:
        print(f"    {m.name} (r{m.osm_id}): {len(m.parts)} polygon part(s)")
    points_file(folder, munis, index, lat0, seed, per_muni, min_per_part)
    located = locate(addresses, index, munis)
    addresses_without_city(folder, located)
    addresses_with_postcode(folder, addresses, index)
    in_country = sum(1 for r in located if r[7])
    print(f"    addressed objects of {country.name} inside a postal_code area: {in_country}")
    municipality_postcodes(folder, munis, located)
    street_town(folder, munis, highways, lat0, seed, unambiguous)
    return munis


def points_file(folder, munis, index, lat0, seed, per_muni, min_per_part):
    """a. Seeded uniform points in each municipality; every polygon part gets at least min_per_part."""
    point_rows = []
    for m in munis:
        rng = random.Random(f"{seed}:{m.osm_id}")  # per municipality: stable whatever the order
        total = sum(p.area for p in m.parts)
        m_boundary = metres(m.geometry.boundary, lat0)
        for rank, part in enumerate(m.parts):
            count = max(min_per_part, round(per_muni * part.area / total))
            x0, y0, x1, y1 = part.bounds
            drawn = 0
            while drawn < count:
                x, y = rng.uniform(x0, x1), rng.uniform(y0, y1)
                if not part.contains(Point(x, y)):
                    continue
                drawn += 1
                found = index.containing(x, y)
                level8 = index.level(found, "8")
                edge = m_boundary.distance(metres(Point(x, y), lat0))
                point_rows.append((fmt(y), fmt(x), m.name, m.osm_id, rank, f"{edge:.1f}", names(level8),
                                   names(index.level(found, "2")), names(index.level(found, "4")),
                                   names(index.level(found, "6")), names(index.postal(found))))
    write(folder, "points.tsv", ["lat", "lon", "municipality", "municipality_relation", "part",
                                 "edge_distance_m", "level8_all", "admin2", "admin4", "admin6", "postal_code"],
          point_rows)
    overlaps = sum(1 for r in point_rows if ";" in r[6])
    print(f"    points in more than one admin_level=8 area: {overlaps}")


def locate(addresses, index, munis):
    """Where is each addressed object, and which municipality holds it."""
    located = []
    for t, i, x, y, tags, note in addresses:
        if x is None:
            continue
        found = index.containing(x, y)
        level8 = [a for a in index.level(found, "8") if a in munis]
        if level8:
            located.append((t, i, x, y, tags, note, level8, index.postal(found)))
    unplaced = sum(1 for a in addresses if a[2] is None)
    print(f"    addressed objects without a usable point (clipped / not an area): {unplaced}")
    return located


def addresses_without_city(folder, located):
    """b. Street addresses without addr:city."""
    rows = []
    for t, i, x, y, tags, note, level8, postal in located:
        if "addr:housenumber" in tags and "addr:street" in tags and "addr:city" not in tags:
            rows.append((t, i, fmt(y), fmt(x), tags["addr:housenumber"], tags["addr:street"], names(level8),
                         ";".join(str(a.osm_id) for a in level8), names(postal), tags.get("addr:postcode", ""),
                         note))
    rows.sort(key=lambda r: (r[0], r[1]))
    write(folder, "addresses-without-city.tsv",
          ["osm_type", "osm_id", "lat", "lon", "housenumber", "street", "municipality", "municipality_relation",
           "postal_area", "addr_postcode", "note"], rows)
    with_street = [r for r in located if "addr:housenumber" in r[4] and "addr:street" in r[4]]
    print(f"    in a municipality: {len(located)} addressed objects; {len(with_street)} with housenumber+street, "
          f"{len(rows)} of those without addr:city")
    # addr:city against the containing municipality's name (villages vs municipalities).
    city_vs = collections.Counter((r[4]["addr:city"], r[6][0].name) for r in located if "addr:city" in r[4])
    differing = {k: v for k, v in city_vs.items() if k[0] != k[1]}
    print(f"    addr:city present: {sum(city_vs.values())}, differs from the municipality name: "
          f"{sum(differing.values())}")
    for (city, muni), n in sorted(differing.items(), key=lambda kv: -kv[1]):
        print(f"      addr:city={city!r} inside {muni}: {n}")
    addr_place = sum(1 for r in located if "addr:place" in r[4] and "addr:street" not in r[4])
    print(f"    addr:place without addr:street (not in the file above): {addr_place}")


def addresses_with_postcode(folder, addresses, index):
    """c. Tagged postcodes inside postal_code areas (anywhere in the file)."""
    rows = []
    for t, i, x, y, tags, note in addresses:
        if x is None or "addr:postcode" not in tags:
            continue
        postal = index.postal(index.containing(x, y))
        if postal:
            polygon_codes = [postcode_of(a.tags) for a in postal]
            rows.append((t, i, fmt(y), fmt(x), tags["addr:postcode"], ";".join(polygon_codes),
                         "yes" if tags["addr:postcode"] in polygon_codes else "no"))
    rows.sort(key=lambda r: (r[0], r[1]))
    write(folder, "addresses-with-postcode.tsv",
          ["osm_type", "osm_id", "lat", "lon", "addr_postcode", "polygon_postcode", "agrees"], rows)
    if rows:
        agree = sum(1 for r in rows if r[6] == "yes")
        print(f"    postcode tag agrees with the containing postal_code area: {agree}/{len(rows)} "
              f"({100 * agree / len(rows):.1f} %)")


def municipality_postcodes(folder, munis, located):
    """c. Each municipality's most common tagged postcode."""
    rows, consistent, total = [], 0, 0
    for m in munis:
        codes = collections.Counter(r[4]["addr:postcode"] for r in located if r[6][0] is m and "addr:postcode" in r[4])
        if not codes:
            continue
        (top, n), count = codes.most_common(1)[0], sum(codes.values())
        consistent, total = consistent + n, total + count
        others = ",".join(f"{c}:{k}" for c, k in sorted(codes.items()) if c != top)
        rows.append((m.name, m.osm_id, top, n, count, f"{n / count:.3f}", others))
    write(folder, "municipality-postcodes.tsv",
          ["municipality", "municipality_relation", "most_common_postcode", "count", "addresses_with_postcode",
           "fraction", "other_postcodes"], rows)
    if total:
        print(f"    addr:postcode equal to its municipality's most common postcode: {consistent}/{total} "
              f"({100 * consistent / total:.1f} %)")


def street_pieces(munis, highways, lat0):
    """(name, town) -> [(way id, length m, representative point, town)]: named highways cut by municipality."""
    pieces = collections.defaultdict(list)
    tree = STRtree([m.geometry for m in munis])
    dropped = 0
    for way_id, name, coords in highways:
        line = LineString(coords)
        for j in tree.query(line, predicate="intersects"):
            inside = line.intersection(munis[j].geometry)
            length = metres(inside, lat0).length
            if length < 30:  # a street that only grazes a town is not that town's street
                dropped += 1
                continue
            pieces[(name, munis[j].name)].append((way_id, length, inside.representative_point(), munis[j]))
    return pieces, dropped


def street_town(folder, munis, highways, lat0, seed, unambiguous):
    """d. "Street, Town": named highways per municipality; names in two or more towns first."""
    pieces, dropped = street_pieces(munis, highways, lat0)
    towns_of = collections.defaultdict(set)
    for name, town in pieces:
        towns_of[name].add(town)
    ambiguous = sorted(k for k in pieces if len(towns_of[k[0]]) > 1)
    single = sorted(k for k in pieces if len(towns_of[k[0]]) == 1)
    rng = random.Random(f"{seed}:streets")
    chosen = ambiguous + sorted(rng.sample(single, min(len(single), max(unambiguous, 200 - len(ambiguous)))))
    rows = []
    for name, town in chosen:
        ways = sorted(pieces[(name, town)], key=lambda w: (-w[1], w[0]))
        rep = ways[0][2]  # on the longest way of the street inside the town
        rows.append((f"{name}, {town}", name, town, ways[0][3].osm_id, fmt(rep.y), fmt(rep.x),
                     len(towns_of[name]), f"{sum(w[1] for w in ways):.0f}", ",".join(str(w[0]) for w in sorted(ways, key=lambda w: w[0]))))
    rows.sort(key=lambda r: (r[1], r[2]))
    write(folder, "street-town.tsv", ["query", "street", "town", "town_relation", "lat", "lon", "towns_with_name",
                                      "length_m", "way_ids"], rows)
    print(f"    named streets: {len(towns_of)} names, {len(pieces)} (name, town) pairs, "
          f"{len({k[0] for k in ambiguous})} names in 2+ towns ({len(ambiguous)} pairs); "
          f"way pieces under 30 m in a town dropped: {dropped}")
