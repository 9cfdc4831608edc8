import PindropCore

/// Which named objects are places of their own, and their class and type: Nominatim's main tags, as its import style
/// reads them (the `full` topic with extra tags: lib-lua/themes/nominatim/presets.lua and init.lua, version 5.3).
enum OSMMainTags {
    /// What a main key's value makes of an object.
    enum Rule {
        /// A place, named or not (the import keeps only the named).
        case always
        /// A place when it has a name.
        case named
        /// A place only when no other main tag makes one (`building`, `historic`, `landuse`...).
        case fallback
        /// A place named by `<key>:name` (`bridge:name`, `tunnel:name`), not by its `name`, which is the road's.
        case namedWithKey
        /// Not a place (`amenity=parking_space`, `natural=coastline`, `shop=no`...).
        case skip
        /// `natural=water`: a place unless a `water` tag says what water it is.
        case naturalWater
        /// `water=*`: a place (of class `water`) with `natural=water`.
        case waterOfNatural
        /// `information=*`: a place with `tourism=information`.
        case information
        /// `tourism=information`: a place unless an `information` tag says what it is.
        case tourismInformation
    }

    /// Each main key's rule for any value (nil: only the values listed make places) and for single values.
    static let rules: [String: (any: Rule?, values: [String: Rule])] = [
        "boundary": (.named, ["place": .skip, "land_area": .skip, "protected_area": .fallback, "postal_code": .skip]),
        "landuse": (.fallback, ["cemetery": .always]),
        "place": (.always, [:]),
        "waterway": (.named, ["riverbank": .skip]),
        "natural": (.named, ["yes": .skip, "no": .skip, "coastline": .skip, "saddle": .fallback, "water": .naturalWater]),
        "mountain_pass": (.always, ["no": .skip]),
        "water": (.waterOfNatural, skipping("river", "stream", "canal", "ditch", "drain", "fish_pass", "yes", "intermittent", "tidal")),
        "aerialway": (.always, skipping("no", "pylon")),
        "aeroway": (.always, skipping("no")),
        "amenity": (.always, skipping("no", "parking_space", "parking_entrance", "waste_disposal", "hunting_stand")),
        "building": (.fallback, skipping("no")),
        "bridge": (.namedWithKey, skipping("no")),
        "club": (.always, skipping("no")),
        "craft": (.always, skipping("no")),
        "emergency": (.always, skipping("no", "yes", "fire_hydrant")),
        "healthcare": (.fallback, skipping("yes", "no")),
        "highway": (.always, skipping("no", "turning_circle", "mini_roundabout", "noexit", "crossing", "give_way", "stop",
                                      "turning_loop", "passing_place")),
        "historic": (.fallback, skipping("yes", "no")),
        "information": (.information, skipping("yes", "route_marker", "trail_blaze")),
        "junction": (.fallback, skipping("no")),
        "leisure": (.always, skipping("no")),
        "man_made": (nil, Dictionary(uniqueKeysWithValues: ["pier", "tower", "bridge", "water_tower", "lighthouse", "watermill",
                                                            "tunnel", "works", "dyke", "adit"].map { ($0, Rule.always) })),
        "military": (.always, skipping("yes", "no")),
        "office": (.always, skipping("no")),
        "railway": (.named, skipping("rail", "no", "abandoned", "disused", "razed", "level_crossing", "switch", "signal", "buffer_stop")),
        "shop": (.always, skipping("no")),
        "tourism": (.always, ["attraction": .fallback, "no": .skip, "yes": .skip, "information": .tourismInformation]),
        "tunnel": (.namedWithKey, skipping("no")),
    ]

    private static func skipping(_ values: String...) -> [String: Rule] {
        Dictionary(uniqueKeysWithValues: values.map { ($0, Rule.skip) })
    }

    /// The class (the main key) and type of a named object that is a place of its own, and the name it goes by; nil
    /// for anything else. The first qualifying main key in key order wins, as in Nominatim's one row per object; a
    /// fallback only when none qualifies (a building last: it says least). A way or relation whose winner is a highway
    /// is a street, and one tagged as an area (`AreaLevel`) is an area: neither is a place of this kind.
    static func place(of tags: OSMTags, isNode: Bool) -> (key: String, category: String, name: String)? {
        let named = tags.contains { isMainName($0.key) }
        var best: (key: String, value: String)?, fallback: (key: String, value: String)?
        for tag in tags {
            guard let rule = rules[tag.key], best.map({ tag.key < $0.key }) ?? true else { continue }
            let value = cleaned(tag.value)
            guard !value.isEmpty else { continue }
            switch outcome(rule.values[value] ?? rule.any, key: tag.key, tags: tags, named: named) {
            case .always?: best = (tag.key, value)
            case .fallback?:
                if fallback.map({ Self.fallbackOrder(tag.key, before: $0.key) }) ?? true { fallback = (tag.key, value) }
            default: break
            }
        }
        guard let (key, value) = best ?? fallback else { return nil }
        if !isNode, key == "highway" || AreaLevel.of(tags: tags) != nil { return nil }
        let name = rules[key]?.any == .namedWithKey ? tags["\(key):name"] : displayName(tags)
        guard let name, !name.isEmpty else { return nil }
        return (key, value == "yes" ? key : value, name)
    }

    /// What a rule makes of one tag: `.always` for a place, `.fallback` for a fallback, nil for neither.
    private static func outcome(_ rule: Rule?, key: String, tags: OSMTags, named: Bool) -> Rule? {
        switch rule {
        case .always?: return .always
        case .named?: return named ? .always : nil
        case .fallback?: return named ? .fallback : nil
        case .namedWithKey?: return tags.contains { $0.key == "\(key):name" || $0.key.hasPrefix("\(key):name:") } ? .always : nil
        case .naturalWater?: return named && tags["water"] == nil ? .always : nil
        case .waterOfNatural?: return named && tags["natural"] == "water" ? .always : nil
        case .information?: return tags["tourism"] == "information" ? .always : nil
        case .tourismInformation?: return tags["information"] == nil ? .always : nil
        case .skip?, nil: return nil
        }
    }

    private static func fallbackOrder(_ a: String, before b: String) -> Bool {
        a == "building" || b == "building" ? b == "building" && a != "building" : a < b
    }

    /// A tag value as a type: the first of a `;` list, trimmed, lower case ("nightclub;restaurant" → "nightclub").
    static func cleaned(_ raw: String) -> String {
        // Most values are already one plain word.
        let isPlain = raw.utf8.allSatisfy { (0x61...0x7A).contains($0) || $0 == 0x5F }
        return isPlain ? raw : String(raw.split(separator: ";").first ?? "").trimmingWhitespace().lowercased()
    }

    // MARK: Names

    /// The name keys beside `name:<language>` that make an object named (Nominatim's main name tags).
    private static let nameBases: Set<String> = ["name", "int_name", "reg_name", "loc_name", "old_name", "alt_name", "official_name",
                                                 "place_name", "short_name"]
    /// `name:` keys that are not names.
    private static let notNamePrefixes = ["name:prefix", "name:suffix", "name:etymology", "name:signed", "name:botanical"]

    /// Whether the key names the object, for Nominatim: `name`, `name:de`, `alt_name`, `official_name:fr`, `brand`,
    /// `addr:housename`...
    static func isMainName(_ key: String) -> Bool {
        if key == "brand" || key == "addr:housename" { return true }
        // Most keys are no name at all: the base is looked up first.
        guard nameBases.contains(String(PlaceTags.base(of: key))) || key.hasPrefix("alt_name_") else { return false }
        return !(key.hasSuffix(":prefix") || key.hasSuffix(":suffix") || notNamePrefixes.contains { key.hasPrefix($0) })
    }

    /// The name shown when there is no `name`, in this order; then the first `name:<language>` in key order.
    private static let nameFallbacks = ["brand", "official_name", "short_name", "alt_name", "loc_name", "old_name", "int_name",
                                        "reg_name", "place_name", "addr:housename"]

    /// The name an object goes by: `name`, else another of its names.
    static func displayName(_ tags: OSMTags) -> String? {
        if let name = tags["name"], !name.isEmpty { return name }
        for key in nameFallbacks {
            if let name = tags[key], !name.isEmpty { return name }
        }
        return tags.filter { isMainName($0.key) && !$0.value.isEmpty }.min { $0.key < $1.key }?.value
    }
}
