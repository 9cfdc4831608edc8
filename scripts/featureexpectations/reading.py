"""One pass over a PBF with pyosmium, keeping what the feature expectations are made of (scripts/feature-expectations.py).
Nodes with tags, every way with its node ids and their locations, and the relations; nothing is shared with Pindrop."""
import osmium

from .rules import MAIN_KEYS

RELATION_TYPES = {"multipolygon", "boundary", "waterway"}


def interesting(tags):
    """Whether a node's tags can make a place, an address, an interpolation stop or an entrance."""
    return any(k in MAIN_KEYS or k.startswith("addr:") or k in ("entrance", "routing:entrance") for k in tags)


class Reading(osmium.SimpleHandler):
    """What one pass collects: tagged nodes, ways (tags, node ids, locations), relations (tags, members)."""

    def __init__(self):
        super().__init__()
        self.nodes = {}        # id -> (lon, lat, tags)
        self.ways = {}         # id -> (tags, [node id], [(lon, lat) or None])
        self.relations = {}    # id -> (tags, [(type, ref, role)])

    def node(self, o):
        if o.tags and interesting(dict(o.tags)):
            self.nodes[o.id] = (o.location.lon, o.location.lat, dict(o.tags))

    def way(self, o):
        points = [(n.lon, n.lat) if n.location.valid() else None for n in o.nodes]
        self.ways[o.id] = (dict(o.tags), [n.ref for n in o.nodes], points)

    def relation(self, o):
        self.relations[o.id] = (dict(o.tags), [(m.type, m.ref, m.role) for m in o.members])


def read(path):
    reading = Reading()
    reading.apply_file(path, locations=True)
    return reading


def relation_way_points(reading, relation_id):
    """The located points of the ways a relation's geometry is made of: outer and unroled ways of a multipolygon or
    boundary, every way of a waterway; nil-free lists, one per member way in the file."""
    tags, members = reading.relations[relation_id]
    waterway = tags.get("type") == "waterway"
    lines = []
    for kind, ref, role in members:
        if kind != "w" or ref not in reading.ways or not (waterway or role in ("outer", "")):
            continue
        lines.append([p for p in reading.ways[ref][2] if p is not None])
    return [line for line in lines if line]


def street_relations(reading):
    """Member (type, id) -> (street, postcode, city) of `type=street|associatedStreet` relations (roles house, address)."""
    streets = {}
    for _, (tags, members) in sorted(reading.relations.items()):
        if tags.get("type") not in ("street", "associatedStreet") or "name" not in tags:
            continue
        postcode = tags.get("addr:postcode")
        postcode = None if postcode and ";" in postcode else postcode
        for kind, ref, role in members:
            if role in ("house", "address"):
                streets[(kind, ref)] = (tags["name"], postcode, tags.get("addr:city"))
    return streets
