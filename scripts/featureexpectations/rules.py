"""Which named objects are places and with which class and type, transcribed from Nominatim's import style
(github.com/osm-search/Nominatim, v5.3.2: lib-lua/themes/nominatim/presets.lua, the `full` topic with extra tags,
and init.lua's process_tags). Written apart from Pindrop's Swift, so that the fixtures test it.

A main key maps to its rule for any value (None: the key makes no place unless its value is listed) and the rules of
single values. Rules: always / named (a place with a name) / fallback (a place only when no other main tag is one) /
named_with_key (bridge, tunnel: a place named by `<key>:name`) / skip (dropped, moved to extra tags, or never a place) /
natural_water and water_of_natural (the two halves of natural=water + water=*) / information (with tourism=information).
"""

SKIP = "skip"

MAIN_KEYS = {
    "boundary": ("named", {"place": SKIP, "land_area": SKIP, "protected_area": "fallback", "postal_code": SKIP}),
    "landuse": ("fallback", {"cemetery": "always"}),
    "place": ("always", {}),
    "waterway": ("named", {"riverbank": SKIP}),
    "natural": ("named", {"yes": SKIP, "no": SKIP, "coastline": SKIP, "saddle": "fallback", "water": "natural_water"}),
    "mountain_pass": ("always", {"no": SKIP}),
    "water": ("water_of_natural", {v: SKIP for v in ("river", "stream", "canal", "ditch", "drain", "fish_pass", "yes",
                                                      "intermittent", "tidal")}),
    "aerialway": ("always", {"no": SKIP, "pylon": SKIP}),
    "aeroway": ("always", {"no": SKIP}),
    "amenity": ("always", {v: SKIP for v in ("no", "parking_space", "parking_entrance", "waste_disposal", "hunting_stand")}),
    "building": ("fallback", {"no": SKIP}),
    "bridge": ("named_with_key", {"no": SKIP}),
    "club": ("always", {"no": SKIP}),
    "craft": ("always", {"no": SKIP}),
    "emergency": ("always", {"no": SKIP, "yes": SKIP, "fire_hydrant": SKIP}),
    "healthcare": ("fallback", {"yes": SKIP, "no": SKIP}),
    "highway": ("always", {v: SKIP for v in ("no", "turning_circle", "mini_roundabout", "noexit", "crossing", "give_way",
                                             "stop", "turning_loop", "passing_place")}),
    "historic": ("fallback", {"yes": SKIP, "no": SKIP}),
    "information": ("information", {"yes": SKIP, "route_marker": SKIP, "trail_blaze": SKIP}),
    "junction": ("fallback", {"no": SKIP}),
    "leisure": ("always", {"no": SKIP}),
    "man_made": (None, {v: "always" for v in ("pier", "tower", "bridge", "water_tower", "lighthouse", "watermill", "tunnel",
                                              "works", "dyke", "adit")}),
    "military": ("always", {"yes": SKIP, "no": SKIP}),
    "office": ("always", {"no": SKIP}),
    "railway": ("named", {v: SKIP for v in ("rail", "no", "abandoned", "disused", "razed", "level_crossing", "switch",
                                            "signal", "buffer_stop")}),
    "shop": ("always", {"no": SKIP}),
    "tourism": ("always", {"attraction": "fallback", "no": SKIP, "yes": SKIP, "information": "tourism_information"}),
    "tunnel": ("named_with_key", {"no": SKIP}),
}

# Name keys (NAME_TAGS core + poi, main group) and the ones ignored (IGNORE_KEYS name).
NAME_BASES = ("name", "int_name", "reg_name", "loc_name", "old_name", "alt_name", "official_name", "place_name",
              "short_name")
IGNORED_NAME_PREFIXES = ("name:prefix", "name:suffix", "name:etymology", "name:signed", "name:botanical")

# The name shown when `name` is missing: Nominatim shows the first it has; this order is the expectation's.
NAME_FALLBACKS = ("brand", "official_name", "short_name", "alt_name", "loc_name", "old_name", "int_name", "reg_name",
                  "place_name", "addr:housename")


def is_main_name(key):
    """Whether the key names the object for Nominatim's `named` (has_name)."""
    if key.endswith(":prefix") or key.endswith(":suffix") or key.startswith(IGNORED_NAME_PREFIXES):
        return False
    if key in ("brand", "addr:housename") or key.startswith("alt_name_"):
        return True
    base = key.split(":", 1)[0]
    return base in NAME_BASES


def display_name(tags):
    """The `name`, else the first of the fallbacks, else the first `name:xx` in key order."""
    for key in ("name",) + NAME_FALLBACKS:
        if tags.get(key):
            return tags[key]
    others = sorted(k for k in tags if is_main_name(k) and tags[k])
    return tags[others[0]] if others else None


def clean_value(raw):
    """The type as Pindrop writes it: the first of a `;` list, lower case, trimmed."""
    return raw.split(";")[0].strip().lower()


def rule(key, value, tags, named):
    """The rule's outcome for one tag: 'place', 'fallback' or None."""
    default, values = MAIN_KEYS[key]
    how = values.get(value, default)
    if how in (None, SKIP):
        return None
    if how == "always":
        return "place"
    if how == "named":
        return "place" if named else None
    if how == "fallback":
        return "fallback" if named else None
    if how == "named_with_key":
        return "place" if any(k == f"{key}:name" or k.startswith(f"{key}:name:") for k in tags) else None
    if how == "natural_water":
        return "place" if named and "water" not in tags else None
    if how == "water_of_natural":
        return "place" if named and tags.get("natural") == "water" else None
    if how == "information":
        return "place" if tags.get("tourism") == "information" else None
    if how == "tourism_information":
        return "place" if "information" not in tags else None
    raise ValueError(how)


AREA_PLACES = {"city", "town", "village", "hamlet", "municipality", "suburb", "quarter", "borough", "city_district",
               "neighbourhood"}


def is_area(tags):
    """Whether a way or relation with these tags is one of the areas the index keeps apart (a boundary, a town drawn as
    a polygon): Core's AreaLevel.of."""
    if tags.get("boundary") == "administrative":
        return tags.get("admin_level", "").lstrip("-").isdigit()
    if tags.get("boundary") == "postal_code":
        return True
    return tags.get("place") in AREA_PLACES


def main_tags(tags):
    """Every qualifying key=value of an object, alphabetical, and its fallbacks (building last: it says least)."""
    named = any(is_main_name(k) for k in tags)
    qualifying, fallbacks = [], []
    for key in sorted(tags):
        value = clean_value(tags[key]) if key in MAIN_KEYS else ""
        if not value:
            continue
        outcome = rule(key, value, tags, named)
        if outcome == "place":
            qualifying.append((key, value))
        elif outcome == "fallback":
            fallbacks.append((key, value))
    fallbacks.sort(key=lambda kv: (kv[0] == "building", kv[0]))
    return qualifying, fallbacks


def place_class(tags, osm_type):
    """(class, type, name, the qualifying tags) of a named object that is a place of its own, or None. The first main
    tag in key order wins (Nominatim's single-row rule), a fallback only when none is one. A way or relation whose winner
    is a highway is a street, and one with an area's tags an area: neither is a place of this kind."""
    qualifying, fallbacks = main_tags(tags)
    chosen = qualifying or fallbacks
    if not chosen:
        return None
    key, value = chosen[0]
    if osm_type != "n" and (key == "highway" or is_area(tags)):
        return None
    name = tags.get(f"{key}:name") if MAIN_KEYS[key][0] == "named_with_key" else display_name(tags)
    if not name:
        return None
    return key, (key if value == "yes" else value), name, chosen
