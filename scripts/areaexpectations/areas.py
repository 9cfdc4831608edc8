"""Areas as this script assembles them, containment over them, and the TSV writer (scripts/area-expectations.py)."""
import math
import os

import shapely
from shapely.geometry import Point
from shapely.strtree import STRtree

PLACE_KINDS = {"suburb", "quarter", "neighbourhood", "city", "town", "village", "hamlet"}
M_PER_DEG = 111_320.0


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
