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
import math
import os
import random
import sys
from importlib.metadata import version

try:
    import osmium
    import shapely
    from shapely.geometry import LineString, MultiPolygon, Point, Polygon
    from shapely.strtree import STRtree
except ImportError as error:
    sys.exit(f"area-expectations: missing Python package ({error}).\n"
             "Install with: pip install --break-system-packages osmium shapely")

PLACE_KINDS = {"suburb", "quarter", "neighbourhood", "city", "town", "village", "hamlet"}
M_PER_DEG = 111_320.0
# Highways that are not streets one would search for as "street, town".
NOT_STREETS = {"platform", "proposed", "construction", "abandoned", "razed", "bus_stop", "elevator"}


def area_kind(tags):
    """'admin', 'postal', 'place' or None: the areas this script assembles."""
    if tags.get("boundary") == "administrative" and "admin_level" in tags:
        return "admin"
    if tags.get("boundary") == "postal_code":
        return "postal"
    if tags.get("place") in PLACE_KINDS:
        return "place"
    return None


def postcode_of(tags):
    return tags.get("postal_code") or tags.get("ref") or ""


def clean(text):
    """TSV-safe field."""
    return str(text).replace("\t", " ").replace("\n", " ")


def fmt(value):
    return f"{value:.7f}"


class Area:
    def __init__(self, osm_type, osm_id, tags, geometry):
        self.osm_type, self.osm_id, self.tags, self.geometry = osm_type, osm_id, tags, geometry
        self.kind = area_kind(tags)
        self.name = tags.get("name", "")
        self.level = tags.get("admin_level", "")
        # Polygon parts, largest first: part 0 is the main territory, the others exclaves.
        self.parts = sorted(geometry.geoms, key=lambda p: -p.area) if geometry is not None else []
        # An unnamed area (e.g. a closed boundary way that is only a ring of its relation) names no place.
        self.named = bool(self.name or (self.kind == "postal" and postcode_of(tags)))

    def key(self):
        return f"{self.osm_type}{self.osm_id}"


def read(path):
    """One pass with pyosmium: area candidates, assembled areas, addressed objects, named highways."""
    candidates = {}   # (type, id) -> (tags, way members) for every area candidate
    assembled = {}    # (type, id) -> Area
    addresses = []    # (type, id, lon, lat, tags, note)
    highways = []     # (way id, name, coords)
    way_ids = set()
    relation_areas = {}  # relation id -> shapely geometry, for addressed multipolygon relations
    address_relations = []
    node_count = 0
    lon_min = lat_min = math.inf
    lon_max = lat_max = -math.inf
    for o in osmium.FileProcessor(path).with_areas():
        if o.is_node():
            node_count += 1
            loc = o.location
            lon_min, lon_max = min(lon_min, loc.lon), max(lon_max, loc.lon)
            lat_min, lat_max = min(lat_min, loc.lat), max(lat_max, loc.lat)
            if "addr:housenumber" in o.tags or "addr:postcode" in o.tags:
                addresses.append(("n", o.id, loc.lon, loc.lat, dict(o.tags), ""))
        elif o.is_way():
            way_ids.add(o.id)
            tags = dict(o.tags)
            coords = [(n.lon, n.lat) for n in o.nodes if n.location.valid()]
            missing = len(o.nodes) - len(coords)
            if area_kind(tags) and o.is_closed():
                candidates[("w", o.id)] = (tags, [])
            if "addr:housenumber" in tags or "addr:postcode" in tags:
                if missing or not coords:
                    addresses.append(("w", o.id, None, None, tags, "nodes-missing"))
                elif o.is_closed() and len(coords) >= 4:
                    # The point an engine uses for a building: the polygon's centroid.
                    polygon = Polygon(coords)
                    c = polygon.centroid
                    note = "" if polygon.is_valid and polygon.contains(c) else (
                        "centroid-outside" if polygon.is_valid else "invalid-polygon")
                    addresses.append(("w", o.id, c.x, c.y, tags, note))
                else:
                    c = LineString(coords).centroid if len(coords) > 1 else Point(coords[0])
                    addresses.append(("w", o.id, c.x, c.y, tags, "open-way"))
            if "highway" in tags and "name" in tags and tags["highway"] not in NOT_STREETS:
                # A way clipped by the extract edge has no full geometry: left out rather than guessed.
                if len(coords) > 1 and not missing:
                    highways.append((o.id, tags["name"], coords))
        elif o.is_relation():
            tags = dict(o.tags)
            if area_kind(tags):
                members = [m.ref for m in o.members if m.type == "w"]
                candidates[("r", o.id)] = (tags, members)
            if "addr:housenumber" in tags or "addr:postcode" in tags:
                address_relations.append((o.id, tags))
        elif o.is_area():
            tags = dict(o.tags)
            osm_type = "w" if o.from_way() else "r"
            key = (osm_type, o.orig_id())
            wanted_address = osm_type == "r" and ("addr:housenumber" in tags or "addr:postcode" in tags)
            if not area_kind(tags) and not wanted_address:
                continue
            polygons = []
            for outer in o.outer_rings():
                holes = [[(n.lon, n.lat) for n in inner] for inner in o.inner_rings(outer)]
                polygons.append(Polygon([(n.lon, n.lat) for n in outer], holes))
            if not polygons:
                continue
            geometry = MultiPolygon(polygons)
            if wanted_address:
                relation_areas[o.orig_id()] = geometry
            if area_kind(tags):
                assembled[key] = Area(osm_type, o.orig_id(), tags, geometry)
    for rel_id, tags in address_relations:
        geometry = relation_areas.get(rel_id)
        if geometry is None:
            addresses.append(("r", rel_id, None, None, tags, "not-an-area"))
        else:
            c = geometry.centroid
            note = "" if geometry.contains(c) else "centroid-outside"
            addresses.append(("r", rel_id, c.x, c.y, tags, note))
    data_box = (lon_min, lat_min, lon_max, lat_max) if node_count else None
    return candidates, assembled, addresses, highways, way_ids, data_box


class Index:
    """Containment over the assembled areas (shapely STRtree)."""

    def __init__(self, areas):
        self.areas = areas
        self.tree = STRtree([a.geometry for a in areas])

    def containing(self, x, y):
        point = Point(x, y)
        found = [self.areas[i] for i in self.tree.query(point, predicate="intersects")]
        return sorted(found, key=lambda a: (a.kind, a.level.zfill(2), a.name, a.osm_id))

    @staticmethod
    def level(found, level):
        return [a for a in found if a.kind == "admin" and a.level == level]

    @staticmethod
    def postal(found):
        return [a for a in found if a.kind == "postal"]


def names(areas):
    """Names of the containing areas at one level; several (overlapping boundaries) joined by ';'."""
    return ";".join(clean(a.name or postcode_of(a.tags)) for a in areas)


def write(folder, filename, header, rows):
    with open(os.path.join(folder, filename), "w", encoding="utf-8", newline="\n") as out:
        out.write("# " + "\t".join(header) + "\n")
        for row in rows:
            out.write("\t".join(clean(v) for v in row) + "\n")
    print(f"  {filename}: {len(rows)} rows")


def metres(geometry, lat0):
    """Local equirectangular projection: enough for distances inside one small country."""
    k = math.cos(math.radians(lat0))
    return shapely.transform(geometry, lambda c: c * [M_PER_DEG * k, M_PER_DEG])


def write_areas(folder, candidates, assembled, way_ids):
    rows, failed = [], []
    for (t, i), (tags, members) in sorted(candidates.items(), key=lambda kv: (kv[0][0], kv[0][1])):
        area = assembled.get((t, i))
        if area is not None:
            status = "assembled" if area.geometry.is_valid else "assembled-invalid"
            if not area.named:
                status += ", unnamed: ignored"
            parts = len(area.parts)
        else:
            missing = sum(1 for w in members if w not in way_ids)
            if t == "r" and tags.get("type") not in ("multipolygon", "boundary"):
                status = f"not-an-area: type={tags.get('type', '')}"  # libosmium builds areas of these two only
            elif missing:
                status = f"not-assembled: {missing} of {len(members)} member ways missing"
            else:
                status = "not-assembled: rings do not close"
            parts = 0
            failed.append((t, i, tags.get("name", ""), status))
        rows.append((t, i, area_kind(tags), tags.get("admin_level", ""), tags.get("place", ""),
                     tags.get("name", ""), postcode_of(tags) if area_kind(tags) == "postal" else "",
                     status, parts))
    write(folder, "areas.tsv", ["osm_type", "osm_id", "kind", "admin_level", "place", "name", "postcode",
                                "status", "polygon_parts"], rows)
    unnamed = sum(1 for a in assembled.values() if not a.named)
    print(f"  area candidates: {len(candidates)}, assembled: {len(assembled)} ({unnamed} unnamed, ignored), "
          f"not assembled: {len(failed)}")
    for t, i, name, status in failed:
        print(f"    not assembled: {t}{i} {name!r}: {status}")
    return failed


def country_files(folder, country, areas, index, addresses, highways, seed, per_muni, min_per_part, unambiguous):
    """points, addresses-without-city, addresses-with-postcode, municipality-postcodes, street-town."""
    country_geom = country.geometry
    munis = sorted((a for a in areas if a.kind == "admin" and a.level == "8" and a.name
                    and country_geom.contains(a.geometry.representative_point())), key=lambda a: a.name)
    lat0 = country_geom.centroid.y
    print(f"  {country.name}: {len(munis)} admin_level=8 areas")
    for m in munis:
        print(f"    {m.name} (r{m.osm_id}): {len(m.parts)} polygon part(s)")

    # a. Seeded uniform points in each municipality; every polygon part gets at least min_per_part.
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

    # Where is each addressed object, and which municipality holds it.
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

    # b. Street addresses without addr:city.
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

    # c. Tagged postcodes inside postal_code areas (anywhere in the file), and per-municipality postcodes.
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
    in_country = sum(1 for r in located if r[7])
    print(f"    addressed objects of {country.name} inside a postal_code area: {in_country}")
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

    # d. "Street, Town": named highways per municipality; names in two or more towns first.
    pieces = collections.defaultdict(list)  # (name, muni) -> [(way id, length m, representative point)]
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
    return munis


def probe_files(path, folder, filename, probes, candidates, assembled, index, way_ids, data_box):
    """The areas holding each probe: the assembled ones, and those the clipped extract still proves."""
    x0, y0, x1, y1 = data_box
    node_pos, members = {}, {}
    for o in osmium.FileProcessor(path, osmium.osm.NODE | osmium.osm.RELATION):
        if o.is_node():
            node_pos[o.id] = (o.location.lon, o.location.lat)
        elif ("r", o.id) in candidates:
            members[o.id] = [(m.type, m.ref, m.role) for m in o.members]
    # Whole-box relations: no member way in the file, and an admin_centre/label node in the box ...
    whole = {}
    for rid, ms in members.items():
        if ("r", rid) in assembled or any(t == "w" and r in way_ids for t, r, _ in ms):
            continue
        if any(t == "n" and r in node_pos and role in ("admin_centre", "label") for t, r, role in ms):
            whole[rid] = "admin_centre node inside the extract, no boundary way inside it"
    # ... or a subarea relation that holds the whole box (repeat until nothing changes).
    changed = True
    while changed:
        changed = False
        for rid, ms in members.items():
            if rid in whole or ("r", rid) in assembled or any(t == "w" and r in way_ids for t, r, _ in ms):
                continue
            sub = [r for t, r, role in ms if t == "r" and role == "subarea" and r in whole]
            if sub:
                whole[rid] = f"subarea r{sub[0]} holds the extract, no boundary way inside it"
                changed = True
    cut = {rid for rid, ms in members.items() if ("r", rid) not in assembled and rid not in whole}
    rows = []
    for label, x, y in probes:
        inside = x0 <= x <= x1 and y0 <= y <= y1
        found = index.containing(x, y)
        derived = []
        if inside:
            derived = sorted((int(candidates[("r", r)][0].get("admin_level", 99)), candidates[("r", r)][0].get("name", ""))
                             for r in whole)
        rows.append((label, fmt(y), fmt(x), "yes" if inside else "no",
                     " | ".join(f"{a.kind}{a.level}:{a.name}" for a in found),
                     " | ".join(f"admin{lv}:{n}" for lv, n in derived),
                     " | ".join(f"admin{candidates[('r', r)][0].get('admin_level')}:{candidates[('r', r)][0].get('name', '')}"
                                for r in sorted(cut, key=lambda r: (int(candidates[('r', r)][0].get('admin_level', 99)), r)))
                     if inside else ""))
    write(folder, filename, ["probe", "lat", "lon", "inside_extract", "assembled_areas", "whole_extract_areas",
                             "undetermined_areas"], rows)
    print(f"    extract box: lon {x0:.7f}..{x1:.7f}, lat {y0:.7f}..{y1:.7f}")
    for rid in sorted(whole, key=lambda r: int(candidates[('r', r)][0].get('admin_level', 99))):
        tags = candidates[("r", rid)][0]
        print(f"    holds the whole extract: r{rid} admin{tags.get('admin_level')} {tags.get('name')!r} ({whole[rid]})")
    for rid in sorted(cut):
        tags = candidates[("r", rid)][0]
        print(f"    cut by the extract edge, undetermined: r{rid} admin{tags.get('admin_level')} {tags.get('name')!r}")
    for row in rows:
        print(f"    {row[0]} {row[1]} {row[2]} inside={row[3]}: assembled [{row[4]}] whole-extract [{row[5]}]")


def main():
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
    args = parser.parse_args()
    if not os.path.isfile(args.pbf):
        sys.exit(f"area-expectations: no such file: {args.pbf}")
    os.makedirs(args.out, exist_ok=True)
    print(f"{args.pbf} (pyosmium {version('osmium')}, shapely {shapely.__version__})")

    candidates, assembled, addresses, highways, way_ids, data_box = read(args.pbf)
    reader = osmium.io.Reader(args.pbf, osmium.osm.NOTHING)
    header_box = reader.header().box()  # the extract's box when the file states one
    reader.close()
    if header_box.valid():
        data_box = (header_box.bottom_left.lon, header_box.bottom_left.lat,
                    header_box.top_right.lon, header_box.top_right.lat)
    areas = sorted((a for a in assembled.values() if a.named), key=lambda a: (a.osm_type, a.osm_id))
    index = Index(areas)
    write_areas(args.out, candidates, assembled, way_ids)
    levels = collections.Counter(a.level for a in areas if a.kind == "admin")
    print(f"  assembled admin levels: {dict(sorted(levels.items(), key=lambda kv: int(kv[0])))}; "
          f"postal_code areas: {sum(1 for a in areas if a.kind == 'postal')}; "
          f"place areas: {collections.Counter(a.tags['place'] for a in areas if a.kind == 'place')}")

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

    countries = [a for a in areas if a.kind == "admin" and a.level == "2" and a.name == args.country]
    if countries:
        country_files(args.out, countries[0], areas, index, addresses, highways, args.seed,
                      args.per_municipality, args.min_per_part, args.unambiguous_streets)
    else:
        print(f"  no assembled admin_level=2 area named {args.country!r}: country files not written")

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
    if probes:
        probe_files(args.pbf, args.out, args.probes_name, probes, candidates, assembled, index, way_ids, data_box)


if __name__ == "__main__":
    main()
