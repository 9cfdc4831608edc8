#!/usr/bin/env python3
"""Makes test material for updates from an OpenStreetMap extract: three edited copies of it, one after the other,
the osmChange files between them (`osmium derive-changes`) laid out as a replication feed, and edits.json saying
what was edited (ids, names, points), from which tests take their expectations.

    scripts/make-osm-changes.py data/osm/liechtenstein.osm.pbf OUT

OUT/stage1.osm.pbf .. stage3.osm.pbf are the edited copies (edits.json also lists 40 named places spread over the file); OUT/replication/ holds state.txt and 000/000/00N.osc.gz
with 000/000/00N.state.txt (sequence 0 is the extract as given). Needs pyosmium and osmium-tool (Debian packages).

The edits, each on objects chosen by a rule from the data (the smallest id that fits), so any extract works:
  stage 1: a new restaurant node with an address; a named street (every way of that name) renamed; a named
           restaurant node moved 600 m north;
  stage 2: a cafe retagged as a restaurant; a named venue node deleted; a numbered building way deleted; a named
           forest (a multipolygon relation) deleted;
  stage 3: a municipality's boundary relation (one with an ISO 3166-2 code) renamed; a new street (a way on two new nodes) and a house on it.
"""
import datetime
import json
import os
import subprocess
import sys

import osmium

NEW_ID = 90_000_000_000


def survey(path):
    """The objects the edits are chosen from, and the newest timestamp."""
    found = {"newest": 0, "restaurants": [], "cafes": [], "venues": [], "buildings": [], "streets": {}, "multipolygons": [],
             "boundaries": [], "members": set(), "way_nodes": set(), "named": []}

    class Survey(osmium.SimpleHandler):
        def note_time(self, o):
            found["newest"] = max(found["newest"], int(o.timestamp.timestamp()))

        def node(self, n):
            self.note_time(n)
            tags = dict(n.tags)
            if "name" not in tags:
                return
            if any(k in tags for k in ("amenity", "shop", "tourism", "place")):
                found["named"].append({"id": n.id, "name": tags["name"], "lat": n.location.lat, "lon": n.location.lon})
            if tags.get("amenity") == "restaurant":
                found["restaurants"].append(n.id)
            elif tags.get("amenity") == "cafe":
                found["cafes"].append(n.id)
            elif tags.get("amenity") or tags.get("shop") or tags.get("tourism"):
                found["venues"].append(n.id)

        def way(self, w):
            self.note_time(w)
            tags = dict(w.tags)
            for ref in w.nodes:
                found["way_nodes"].add(ref.ref)
            if "building" in tags and "addr:housenumber" in tags and "name" not in tags:
                found["buildings"].append(w.id)
            if "highway" in tags and "name" in tags and not any(k.startswith("tiger:") for k in tags):
                found["streets"].setdefault(tags["name"], []).append(w.id)

        def relation(self, r):
            self.note_time(r)
            tags = dict(r.tags)
            for m in r.members:
                found["members"].add((m.type, m.ref))
            if tags.get("type") == "multipolygon" and "name" in tags and tags.get("landuse") == "forest":
                found["multipolygons"].append(r.id)
            if tags.get("boundary") == "administrative" and tags.get("admin_level") == "8" and "ISO3166-2" in tags:
                found["boundaries"].append(r.id)

    Survey().apply_file(path)
    return found


def choose(found):
    """Which objects each stage edits."""
    free = lambda kind, ids: sorted(i for i in ids if (kind, i) not in found["members"])
    streets = sorted((ids[0], name) for name, ids in found["streets"].items() if 1 <= len(ids) <= 3 and len(name) > 6)
    restaurants = free("n", found["restaurants"])
    street = streets[len(streets) // 2][1]
    return {
        "renamed_street": {"old": street, "new": street + " Nord", "ways": found["streets"][street]},
        "moved": restaurants[0], "retagged": free("n", found["cafes"])[0],
        "deleted_node": next(i for i in free("n", found["venues"]) if i not in found["way_nodes"]),
        "deleted_way": free("w", found["buildings"])[0], "deleted_relation": free("r", found["multipolygons"])[0],
        "renamed_boundary": sorted(found["boundaries"])[0],
    }


class Stage(osmium.SimpleHandler):
    """Copies a file with one stage's edits."""

    def __init__(self, writer, edits, time):
        super().__init__()
        self.writer, self.edits, self.time = writer, edits, time
        self.seen = {}

    def changed(self, o, **changes):
        return o.replace(version=o.version + 1, timestamp=self.time, **changes)

    def node(self, n):
        edit = self.edits.get(("n", n.id))
        self.seen[("n", n.id)] = (n.location.lat, n.location.lon, dict(n.tags))
        if edit == "delete":
            return
        self.writer.add_node(self.changed(n, **edit(n)) if edit else n)

    def way(self, w):
        edit = self.edits.get(("w", w.id))
        self.seen[("w", w.id)] = dict(w.tags)
        if edit == "delete":
            return
        self.writer.add_way(self.changed(w, **edit(w)) if edit else w)

    def relation(self, r):
        edit = self.edits.get(("r", r.id))
        self.seen[("r", r.id)] = dict(r.tags)
        if edit == "delete":
            return
        self.writer.add_relation(self.changed(r, **edit(r)) if edit else r)


def retag(**changes):
    return lambda o: {"tags": {**dict(o.tags), **changes}}


def write_stage(source, target, edits, new_objects, time):
    unsorted = target + ".unsorted.osm.pbf"
    for path in (unsorted, target):
        if os.path.exists(path):
            os.remove(path)
    writer = osmium.SimpleWriter(unsorted)
    stage = Stage(writer, edits, time)
    stage.apply_file(source)
    for kind, obj in new_objects:
        getattr(writer, "add_" + kind)(obj)
    writer.close()
    subprocess.run(["osmium", "sort", "-o", target, unsorted], check=True)
    os.remove(unsorted)
    return stage.seen


def write_feed(source, out, times):
    """The changes between the extract and each stage, as a replication feed of sequences 1 to 3."""
    feed = f"{out}/replication/000/000"
    os.makedirs(feed, exist_ok=True)
    stamp = lambda t: t.strftime("%Y-%m-%dT%H\\:%M\\:%SZ")
    previous = source
    for k in range(4):
        if k > 0:
            subprocess.run(["osmium", "derive-changes", "--increment-version", "-O", previous, f"{out}/stage{k}.osm.pbf",
                            "-o", f"{feed}/{k:03d}.osc.gz"], check=True)
            previous = f"{out}/stage{k}.osm.pbf"
        with open(f"{feed}/{k:03d}.state.txt", "w") as f:
            f.write(f"sequenceNumber={k}\ntimestamp={stamp(times[k])}\n")
    with open(f"{out}/replication/state.txt", "w") as f:
        f.write(f"sequenceNumber=3\ntimestamp={stamp(times[3])}\n")


def main(source, out):
    os.makedirs(out, exist_ok=True)
    found = survey(source)
    chosen = choose(found)
    start = found["newest"]
    times = [datetime.datetime.fromtimestamp(start + 60 * k, datetime.timezone.utc) for k in range(4)]
    mutable = osmium.osm.mutable
    moved_to = {}

    def move(n):
        moved_to["lat"], moved_to["lon"] = round(n.location.lat + 0.0054, 7), n.location.lon
        return {"location": osmium.osm.Location(moved_to["lon"], moved_to["lat"])}

    street = chosen["renamed_street"]
    restaurant = {"lat": 47.1391, "lon": 9.5203, "name": "Pindrop Testhaus", "street": street["old"], "housenumber": "99"}
    stage1 = {("w", w): retag(name=street["new"]) for w in street["ways"]}
    stage1[("n", chosen["moved"])] = move
    new1 = [("node", mutable.Node(id=NEW_ID + 1, location=(restaurant["lon"], restaurant["lat"]), version=1, timestamp=times[1],
                                  tags={"amenity": "restaurant", "name": restaurant["name"], "addr:street": street["new"],
                                        "addr:housenumber": restaurant["housenumber"], "addr:postcode": "9490"}))]
    seen = write_stage(source, f"{out}/stage1.osm.pbf", stage1, new1, times[1])

    stage2 = {("n", chosen["retagged"]): retag(amenity="restaurant"), ("n", chosen["deleted_node"]): "delete",
              ("w", chosen["deleted_way"]): "delete", ("r", chosen["deleted_relation"]): "delete"}
    write_stage(f"{out}/stage1.osm.pbf", f"{out}/stage2.osm.pbf", stage2, [], times[2])

    boundary_name = seen[("r", chosen["renamed_boundary"])]["name"]
    stage3 = {("r", chosen["renamed_boundary"]): retag(name=boundary_name + " am Rhein")}
    street_nodes = [(NEW_ID + 2, 9.5250, 47.1450), (NEW_ID + 3, 9.5262, 47.1457), (NEW_ID + 4, 9.5256, 47.1452)]
    new3 = [("node", mutable.Node(id=i, location=(lon, lat), version=1, timestamp=times[3], tags=tags))
            for (i, lon, lat), tags in zip(street_nodes, [{}, {}, {"addr:street": "Pindropweg", "addr:housenumber": "1"}])]
    new3.append(("way", mutable.Way(id=NEW_ID + 5, nodes=[NEW_ID + 2, NEW_ID + 3], version=1, timestamp=times[3],
                                    tags={"highway": "residential", "name": "Pindropweg"})))
    write_stage(f"{out}/stage2.osm.pbf", f"{out}/stage3.osm.pbf", stage3, new3, times[3])

    write_feed(source, out, times)

    lat, lon, tags = seen[("n", chosen["moved"])]
    edits = {
        "new_restaurant": {**restaurant, "street": street["new"]},
        "renamed_street": street,
        "moved": {"id": chosen["moved"], "name": tags["name"], "from": [lat, lon], "to": [moved_to["lat"], moved_to["lon"]]},
        "retagged": {"id": chosen["retagged"], "name": seen[("n", chosen["retagged"])][2]["name"]},
        "deleted_node": {"id": chosen["deleted_node"], "name": seen[("n", chosen["deleted_node"])][2]["name"],
                         "at": list(seen[("n", chosen["deleted_node"])][:2])},
        "deleted_way": {"id": chosen["deleted_way"], "tags": seen[("w", chosen["deleted_way"])]},
        "deleted_relation": {"id": chosen["deleted_relation"], "name": seen[("r", chosen["deleted_relation"])]["name"]},
        "renamed_boundary": {"id": chosen["renamed_boundary"], "old": boundary_name, "new": boundary_name + " am Rhein"},
        "new_street": {"name": "Pindropweg", "house": {"housenumber": "1", "lat": 47.1452, "lon": 9.5256}},
        "times": [t.isoformat().replace("+00:00", "Z") for t in times],
        # Named places spread over the file, for questions asked of both the updated and the freshly imported store.
        "sample": found["named"][:: max(1, len(found["named"]) // 40)][:40],
    }
    with open(f"{out}/edits.json", "w") as f:
        json.dump(edits, f, indent=1, ensure_ascii=False)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
