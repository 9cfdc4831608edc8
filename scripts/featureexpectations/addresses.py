"""The rows of addresses.tsv, interpolations.tsv and entrances.tsv (scripts/feature-expectations.py): house numbers as
Nominatim reads them (lists split, `addr:place` for houses without a street, street relations), the interpolation
lines with their numbered nodes, and the entrance nodes of buildings, places and addressed ways."""
import json
import re

from .places import fmt
from .reading import RELATION_TYPES, relation_way_points
from .rules import place_class

SCHEMES = {"odd", "even", "all", "alphabetic"} | {str(n) for n in range(1, 10)}


def numbers(raw):
    """A house number list split at `;` and `,`, each trimmed, empty ones dropped, repeats once."""
    out = []
    for part in re.split("[;,]", raw):
        part = part.strip()
        if part and part not in out:
            out.append(part)
    return out


def address_fields(tags, relation):
    """street, place, postcode, city, suburb, neighbourhood, county, state, country code of an object's tags, the
    street and what it lacks filled from its street relation (postcode and city only where the streets agree)."""
    street = tags.get("addr:street") or (relation[0] if relation else None)
    postcode = tags.get("addr:postcode") or tags.get("postal_code") or tags.get("postcode")
    city = tags.get("addr:city")
    if relation and street == relation[0]:
        postcode, city = postcode or relation[1], city or relation[2]
    country = tags.get("addr:country") or tags.get("addr:country_code")
    country = country.upper() if country and len(country) == 2 else None
    return [street, tags.get("addr:place"), postcode, city, tags.get("addr:suburb"),
            tags.get("addr:neighbourhood") or tags.get("addr:quarter"), tags.get("addr:county"),
            tags.get("addr:state") or tags.get("addr:province"), country]


def addressed_objects(reading):
    """(type, id, tags) of every object that can carry an address: nodes, ways with a node in the file, multipolygon,
    boundary and waterway relations with a way in it."""
    for node_id, (_, _, tags) in sorted(reading.nodes.items()):
        yield "n", node_id, tags
    for way_id, (tags, _, points) in sorted(reading.ways.items()):
        if any(p is not None for p in points):
            yield "w", way_id, tags
    for relation_id, (tags, _) in sorted(reading.relations.items()):
        if tags.get("type") in RELATION_TYPES and relation_way_points(reading, relation_id):
            yield "r", relation_id, tags


def address_rows(reading, streets):
    """One row per object with `addr:housenumber`: the number as tagged and the numbers of its list; `kept` says whether
    it names a street or a place (those are address points; the others wait for a street found by nearness)."""
    rows = []
    for osm_type, osm_id, tags in addressed_objects(reading):
        raw = tags.get("addr:housenumber", "").strip()
        if not raw:
            continue
        fields = address_fields(tags, streets.get((osm_type, osm_id)))
        kept = "kept" if (fields[0] or fields[1]) and numbers(raw) else "no-street"
        listed = json.dumps(numbers(raw), ensure_ascii=False)
        rows.append([osm_type, str(osm_id), raw, listed] + [v or "" for v in fields] + [kept])
    return rows


def interpolation_rows(reading, streets):
    """Every `addr:interpolation` way without a house number of its own and with a scheme Nominatim reads: its
    points (the nodes in the file) and the numbered nodes on it, each with its address (the node's, else the way's)."""
    rows = []
    for way_id, (tags, node_ids, points) in sorted(reading.ways.items()):
        scheme = tags.get("addr:interpolation")
        if scheme not in SCHEMES or "addr:housenumber" in tags:
            continue
        located = [(ref, p) for ref, p in zip(node_ids, points) if p is not None]
        if len(located) < 2:
            continue
        way_fields = address_fields(tags, streets.get(("w", way_id)))
        stops = []
        for index, (ref, _) in enumerate(located):
            node_tags = reading.nodes.get(ref, (0, 0, {}))[2]
            if not node_tags.get("addr:housenumber"):
                continue
            node_fields = address_fields(node_tags, streets.get(("n", ref)))
            merged = [own or way for own, way in zip(node_fields, way_fields)]
            stops.append({"point": index, "node": ref, "number": node_tags["addr:housenumber"].strip(),
                          "street": merged[0], "place": merged[1], "postcode": merged[2], "city": merged[3]})
        rows.append([str(way_id), scheme, str(len(located)), json.dumps(stops, ensure_ascii=False, sort_keys=True)])
    return rows


def entrance_rows(reading):
    """Every node tagged `entrance` (else `routing:entrance`): its kind, point, the ways holding it that are buildings,
    places or addressed, and all its tags."""
    holders = {}
    for way_id, (tags, node_ids, _) in sorted(reading.ways.items()):
        building = tags.get("building", "no") != "no"
        if building or tags.get("addr:housenumber") or place_class(tags, "w"):
            for ref in set(node_ids):
                holders.setdefault(ref, []).append(way_id)
    rows = []
    for node_id, (lon, lat, tags) in sorted(reading.nodes.items()):
        kind = tags.get("entrance") or tags.get("routing:entrance")
        if kind:
            ways = ";".join(str(w) for w in sorted(holders.get(node_id, [])))
            rows.append([str(node_id), kind, fmt(lat), fmt(lon), ways, json.dumps(tags, ensure_ascii=False, sort_keys=True)])
    return rows
