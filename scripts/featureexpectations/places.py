"""The rows of places.tsv and tags.tsv: every named object that is a place, with its class, type, name, point and box
(scripts/feature-expectations.py)."""
import random

from shapely.geometry import LineString, Polygon

from .reading import RELATION_TYPES, relation_way_points
from .rules import is_area, place_class


def fmt(value):
    return f"{value:.7f}"


def box(lines):
    points = [p for line in lines for p in line]
    if not points:
        return None
    lons, lats = [p[0] for p in points], [p[1] for p in points]
    return min(lats), min(lons), max(lats), max(lons)


def midpoint(line):
    """The point halfway along a line, in plane degrees."""
    point = LineString(line).interpolate(0.5, normalized=True)
    return point.x, point.y


def way_point(node_ids, points):
    """A way's point when every node is in the file: a closed way's polygon centroid, an open way's midpoint."""
    if None in points or len(points) < 2:
        return None
    closed = len(node_ids) >= 4 and node_ids[0] == node_ids[-1]
    if closed:
        polygon = Polygon(points)
        if polygon.area < 1e-14:
            return None
        return polygon.centroid.x, polygon.centroid.y
    return midpoint(points)


def relation_point(lines, waterway):
    """A waterway relation's point: halfway along its longest way (the relations of areas are checked by box only)."""
    if not waterway or not lines:
        return None
    longest = max(lines, key=lambda line: LineString(line).length if len(line) > 1 else 0)
    return midpoint(longest) if len(longest) > 1 else None


def place_rows(reading):
    """(osm_type, id, tags, row) for every place: nodes, ways with a node in the file, relations with a way in it."""
    rows = []
    for node_id, (lon, lat, tags) in sorted(reading.nodes.items()):
        found = place_class(tags, "n")
        if found:
            rows.append(("n", node_id, tags, row("n", node_id, found, (lon, lat), None)))
    for way_id, (tags, node_ids, points) in sorted(reading.ways.items()):
        found = place_class(tags, "w") if tags else None
        located = [p for p in points if p is not None]
        if found and located:
            rows.append(("w", way_id, tags, row("w", way_id, found, way_point(node_ids, points), box([located]))))
    for relation_id, (tags, _) in sorted(reading.relations.items()):
        if tags.get("type") not in RELATION_TYPES:
            continue
        found = place_class(tags, "r")
        lines = relation_way_points(reading, relation_id) if found else []
        if found and lines:
            point = relation_point(lines, tags.get("type") == "waterway")
            rows.append(("r", relation_id, tags, row("r", relation_id, found, point, box(lines))))
    return rows


def row(osm_type, osm_id, found, point, extent):
    key, value, name, chosen = found
    lat_lon = [fmt(point[1]), fmt(point[0])] if point else ["", ""]
    extent = [fmt(v) for v in extent] if extent else ["", "", "", ""]
    return [osm_type, str(osm_id), key, value, name] + lat_lon + extent + [";".join(f"{k}={v}" for k, v in chosen)]


def not_place_rows(reading):
    """Named ways and relations with an area's tags: kept as areas, never as places of this kind."""
    rows = []
    for way_id, (tags, _, _) in sorted(reading.ways.items()):
        if "name" in tags and is_area(tags):
            rows.append(["w", str(way_id), "area"])
    for relation_id, (tags, _) in sorted(reading.relations.items()):
        if "name" in tags and is_area(tags) and tags.get("type") in RELATION_TYPES:
            rows.append(["r", str(relation_id), "area"])
    return rows


def tag_rows(places, seed, sample):
    """Every tag of the places with a name beyond `name` (other languages, alt_name...), and of a seeded sample of the
    others: the test keeps those Pindrop's rule keeps and compares."""
    def has_other_names(tags):
        return any(k != "name" and (k.startswith("name:") or "_name" in k) for k in tags)
    chosen = [p for p in places if has_other_names(p[2])]
    rest = [p for p in places if not has_other_names(p[2])]
    chosen += random.Random(seed).sample(rest, min(sample, len(rest)))
    rows = []
    for osm_type, osm_id, tags, _ in sorted(chosen, key=lambda p: (p[0], p[1])):
        for key, value in sorted(tags.items()):
            if "\t" not in key + value and "\n" not in key + value:
                rows.append([osm_type, str(osm_id), key, value])
    return rows
