"""One pass over the PBF with pyosmium: area candidates, assembled areas, addressed objects and named highways
(scripts/area-expectations.py)."""
import math

import osmium
from shapely.geometry import LineString, MultiPolygon, Point, Polygon

from .areas import Area, area_kind

# Highways that are not streets one would search for as "street, town".
NOT_STREETS = {"platform", "proposed", "construction", "abandoned", "razed", "bus_stop", "elevator"}


def has_address(tags):
    return "addr:housenumber" in tags or "addr:postcode" in tags


class Reading:
    """What one pass collects."""

    def __init__(self):
        self.candidates = {}   # (type, id) -> (tags, way members) for every area candidate
        self.assembled = {}    # (type, id) -> Area
        self.addresses = []    # (type, id, lon, lat, tags, note)
        self.highways = []     # (way id, name, coords)
        self.way_ids = set()
        self.relation_areas = {}  # relation id -> shapely geometry, for addressed multipolygon relations
        self.address_relations = []
        self.node_count = 0
        self.lon_min = self.lat_min = math.inf
        self.lon_max = self.lat_max = -math.inf

    def node(self, o):
        self.node_count += 1
        loc = o.location
        self.lon_min, self.lon_max = min(self.lon_min, loc.lon), max(self.lon_max, loc.lon)
        self.lat_min, self.lat_max = min(self.lat_min, loc.lat), max(self.lat_max, loc.lat)
        if has_address(o.tags):
            self.addresses.append(("n", o.id, loc.lon, loc.lat, dict(o.tags), ""))

    def way(self, o):
        self.way_ids.add(o.id)
        tags = dict(o.tags)
        coords = [(n.lon, n.lat) for n in o.nodes if n.location.valid()]
        missing = len(o.nodes) - len(coords)
        if area_kind(tags) and o.is_closed():
            self.candidates[("w", o.id)] = (tags, [])
        if has_address(tags):
            self.addresses.append(way_address(o, tags, coords, missing))
        if "highway" in tags and "name" in tags and tags["highway"] not in NOT_STREETS:
            # A way clipped by the extract edge has no full geometry: left out rather than guessed.
            if len(coords) > 1 and not missing:
                self.highways.append((o.id, tags["name"], coords))

    def relation(self, o):
        tags = dict(o.tags)
        if area_kind(tags):
            members = [m.ref for m in o.members if m.type == "w"]
            self.candidates[("r", o.id)] = (tags, members)
        if has_address(tags):
            self.address_relations.append((o.id, tags))

    def area(self, o):
        tags = dict(o.tags)
        osm_type = "w" if o.from_way() else "r"
        wanted_address = osm_type == "r" and has_address(tags)
        if not area_kind(tags) and not wanted_address:
            return
        polygons = []
        for outer in o.outer_rings():
            holes = [[(n.lon, n.lat) for n in inner] for inner in o.inner_rings(outer)]
            polygons.append(Polygon([(n.lon, n.lat) for n in outer], holes))
        if not polygons:
            return
        geometry = MultiPolygon(polygons)
        if wanted_address:
            self.relation_areas[o.orig_id()] = geometry
        if area_kind(tags):
            self.assembled[(osm_type, o.orig_id())] = Area(osm_type, o.orig_id(), tags, geometry)

    def finish(self):
        for rel_id, tags in self.address_relations:
            geometry = self.relation_areas.get(rel_id)
            if geometry is None:
                self.addresses.append(("r", rel_id, None, None, tags, "not-an-area"))
            else:
                c = geometry.centroid
                note = "" if geometry.contains(c) else "centroid-outside"
                self.addresses.append(("r", rel_id, c.x, c.y, tags, note))
        self.data_box = (self.lon_min, self.lat_min, self.lon_max, self.lat_max) if self.node_count else None


def way_address(o, tags, coords, missing):
    """The addressed way's row: its point (a closed way's centroid, as an engine places a building) and a note."""
    if missing or not coords:
        return ("w", o.id, None, None, tags, "nodes-missing")
    if o.is_closed() and len(coords) >= 4:
        polygon = Polygon(coords)
        c = polygon.centroid
        note = "" if polygon.is_valid and polygon.contains(c) else (
            "centroid-outside" if polygon.is_valid else "invalid-polygon")
        return ("w", o.id, c.x, c.y, tags, note)
    c = LineString(coords).centroid if len(coords) > 1 else Point(coords[0])
    return ("w", o.id, c.x, c.y, tags, "open-way")


def read(path):
    """One pass with pyosmium: area candidates, assembled areas, addressed objects, named highways."""
    r = Reading()
    for o in osmium.FileProcessor(path).with_areas():
        if o.is_node():
            r.node(o)
        elif o.is_way():
            r.way(o)
        elif o.is_relation():
            r.relation(o)
        elif o.is_area():
            r.area(o)
    r.finish()
    return r.candidates, r.assembled, r.addresses, r.highways, r.way_ids, r.data_box
