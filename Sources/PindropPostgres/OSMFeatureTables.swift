import PindropCore

/// The tables of one import's OpenStreetMap features and their rows in COPY's text format: every part of `OSMFeatures`
/// has a column, so the features read back (`PlaceRowReader+Features`) are the ones the import read. A place's tags
/// are two parallel arrays (keys, values): exact for any text, and nothing for PostgreSQL to parse.
enum OSMFeatureTables {
    /// An address's columns, in `Address`'s order.
    static let addressColumns = ["house_number", "street", "postcode", "town", "suburb", "county", "state", "country",
                                 "neighbourhood", "place", "town_kind"]
    private static let addressDefinitions = addressColumns.map { "\($0) text" }.joined(separator: ", ")

    /// The tables, created in `schema`; `location` is the generated point column.
    static func tables(in schema: String, location: String) -> [String] {
        [
            """
            CREATE TABLE \(schema).osm_address (
                seq integer PRIMARY KEY, id text NOT NULL, latitude float8 NOT NULL, longitude float8 NOT NULL,
                \(addressDefinitions), country_code text,
                \(location)
            )
            """,
            """
            CREATE TABLE \(schema).osm_venue (
                seq integer PRIMARY KEY, id text NOT NULL, name text NOT NULL, category text NOT NULL, category_key text NOT NULL,
                latitude float8 NOT NULL, longitude float8 NOT NULL, has_address boolean NOT NULL, address_is_tagged boolean NOT NULL,
                \(addressDefinitions), country_code text, tag_keys text[] NOT NULL, tag_values text[] NOT NULL,
                box_south float8, box_west float8, box_north float8, box_east float8,
                \(location)
            )
            """,
            "CREATE TABLE \(schema).osm_street (seq integer PRIMARY KEY, id text NOT NULL, name text NOT NULL, highway text NOT NULL, line geometry(LineString, 4326) NOT NULL)",
            "CREATE TABLE \(schema).osm_building (seq integer PRIMARY KEY, id text NOT NULL, kind text NOT NULL, name text, outlines geometry(MultiLineString, 4326) NOT NULL)",
            // Boundaries and other areas: their rings, outer and inner alike (even-odd, as the engine reads them;
            // ST_BuildArea makes polygons of them). level is Core's AreaLevel; localized_names holds "de=Liechtenstein".
            """
            CREATE TABLE \(schema).osm_area (
                seq integer PRIMARY KEY, id text NOT NULL, name text NOT NULL, level smallint NOT NULL, admin_level smallint NOT NULL,
                localized_names text[] NOT NULL, rings geometry(MultiLineString, 4326) NOT NULL, postcode text, label text,
                subdivision_code text, other_names text
            )
            """,
            // scheme: odd, even, all, alphabetic, or the step ("3"); each numbered node is a stop, at its point on the line.
            "CREATE TABLE \(schema).osm_interpolation (seq integer PRIMARY KEY, id text NOT NULL, scheme text NOT NULL, line geometry(LineString, 4326) NOT NULL)",
            """
            CREATE TABLE \(schema).osm_interpolation_stop (
                interpolation integer NOT NULL, seq integer NOT NULL, point integer NOT NULL, \(addressDefinitions),
                PRIMARY KEY (interpolation, seq)
            )
            """,
            """
            CREATE TABLE \(schema).osm_entrance (
                seq integer PRIMARY KEY, id text NOT NULL, kind text NOT NULL, latitude float8 NOT NULL, longitude float8 NOT NULL,
                tag_keys text[] NOT NULL, tag_values text[] NOT NULL, ways text[] NOT NULL,
                \(location)
            )
            """,
            // What else the map draws: kind is MapFeature.Kind's name (water, waterway, park, landuse, railway, or street for an
            // unnamed road), category the tag value; an area's rings even-odd, as the engine draws them.
            """
            CREATE TABLE \(schema).osm_map_shape (
                seq integer PRIMARY KEY, id text NOT NULL, kind text NOT NULL, category text, name text,
                lines geometry(MultiLineString, 4326) NOT NULL
            )
            """,
        ]
    }

    /// The indexes made once the rows are in.
    static func indexes(in schema: String) -> [String] {
        [
            "CREATE INDEX ON \(schema).osm_address USING gist (location)",
            "CREATE INDEX ON \(schema).osm_venue USING gist (location)",
            "CREATE INDEX ON \(schema).osm_venue USING gin (name gin_trgm_ops)",
            "CREATE INDEX ON \(schema).osm_street USING gist (line)",
            "CREATE INDEX ON \(schema).osm_building USING gist (outlines)",
            "CREATE INDEX ON \(schema).osm_area USING gist (rings)",
            "CREATE INDEX ON \(schema).osm_interpolation USING gist (line)",
            "CREATE INDEX ON \(schema).osm_entrance USING gist (location)",
            "CREATE INDEX ON \(schema).osm_map_shape USING gist (lines)",
            "ANALYZE \(schema).osm_address",
            "ANALYZE \(schema).osm_venue",
        ]
    }

    /// Each table's columns and how its rows are made, in the order they are copied: one table's rows at a time, so
    /// the encoded text of only one is in memory.
    static let copies: [(table: String, columns: [String], rows: @Sendable (OSMFeatures) -> CopyRows)] = [
        ("osm_address", ["seq", "id", "latitude", "longitude"] + addressColumns + ["country_code"], { addressRows($0.addressPoints) }),
        ("osm_venue", ["seq", "id", "name", "category", "category_key", "latitude", "longitude", "has_address", "address_is_tagged"]
            + addressColumns + ["country_code", "tag_keys", "tag_values", "box_south", "box_west", "box_north", "box_east"],
         { venueRows($0.venues) }),
        ("osm_street", ["seq", "id", "name", "highway", "line"], { streetRows($0.streets) }),
        ("osm_building", ["seq", "id", "kind", "name", "outlines"], { buildingRows($0.buildings) }),
        ("osm_area", ["seq", "id", "name", "level", "admin_level", "localized_names", "rings", "postcode", "label", "subdivision_code", "other_names"], { areaRows($0.areas) }),
        ("osm_interpolation", ["seq", "id", "scheme", "line"], { interpolationRows($0.interpolations) }),
        ("osm_interpolation_stop", ["interpolation", "seq", "point"] + addressColumns, { stopRows($0.interpolations) }),
        ("osm_entrance", ["seq", "id", "kind", "latitude", "longitude", "tag_keys", "tag_values", "ways"], { entranceRows($0.entrances) }),
        ("osm_map_shape", ["seq", "id", "kind", "category", "name", "lines"], { mapShapeRows($0.mapShapes) }),
    ]

    // MARK: Rows

    private static func address(_ a: Address?, into rows: inout CopyRows) {
        for part in [a?.houseNumber, a?.street, a?.postcode, a?.town, a?.suburb, a?.county, a?.state, a?.country, a?.neighbourhood,
                     a?.place, a?.townKind] {
            rows.text(part)
        }
    }

    /// Tags as their keys and their values, in key order.
    private static func tags(_ tags: [String: String], into rows: inout CopyRows) {
        let sorted = tags.sorted { $0.key < $1.key }
        rows.textArray(sorted.map(\.key)); rows.textArray(sorted.map(\.value))
    }

    private static func addressRows(_ points: [OSMAddressPoint]) -> CopyRows {
        var rows = CopyRows()
        for (seq, a) in points.enumerated() {
            rows.integer(seq); rows.text(a.id); rows.double(a.coordinate.latitude); rows.double(a.coordinate.longitude)
            address(a.address, into: &rows); rows.text(a.countryCode); rows.endRow()
        }
        return rows
    }

    private static func venueRows(_ venues: [OSMVenue]) -> CopyRows {
        var rows = CopyRows()
        for (seq, v) in venues.enumerated() {
            rows.integer(seq); rows.text(v.id); rows.text(v.name); rows.text(v.category); rows.text(v.categoryKey)
            rows.double(v.coordinate.latitude); rows.double(v.coordinate.longitude)
            rows.bool(v.address != nil); rows.bool(v.addressIsTagged); address(v.address, into: &rows); rows.text(v.countryCode)
            tags(v.tags, into: &rows)
            for edge in [v.box?.south, v.box?.west, v.box?.north, v.box?.east] {
                if let edge { rows.double(edge) } else { rows.text(nil) }
            }
            rows.endRow()
        }
        return rows
    }

    private static func streetRows(_ streets: [OSMStreet]) -> CopyRows {
        var rows = CopyRows()
        for (seq, s) in streets.enumerated() {
            rows.integer(seq); rows.text(s.id); rows.text(s.name); rows.text(s.highway); rows.geometry(WKB.lineString(s.points))
            rows.endRow()
        }
        return rows
    }

    private static func buildingRows(_ buildings: [OSMBuilding]) -> CopyRows {
        var rows = CopyRows()
        for (seq, b) in buildings.enumerated() {
            rows.integer(seq); rows.text(b.id); rows.text(b.kind); rows.text(b.name); rows.geometry(WKB.multiLineString(b.outlines))
            rows.endRow()
        }
        return rows
    }

    private static func areaRows(_ areas: [OSMArea]) -> CopyRows {
        var rows = CopyRows()
        for (seq, a) in areas.enumerated() {
            rows.integer(seq); rows.text(a.id); rows.text(a.name); rows.integer(a.level.rawValue); rows.integer(a.adminLevel ?? 0)
            rows.textArray(a.localizedNames.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" })
            rows.geometry(WKB.multiLineString(a.rings)); rows.text(a.postcode); rows.text(a.label); rows.text(a.subdivisionCode)
            rows.text(PlaceTags.text(a.otherNames))
            rows.endRow()
        }
        return rows
    }

    private static func interpolationRows(_ lines: [OSMInterpolation]) -> CopyRows {
        var rows = CopyRows()
        for (seq, line) in lines.enumerated() {
            rows.integer(seq); rows.text(line.id); rows.text(line.scheme.tagValue); rows.geometry(WKB.lineString(line.points))
            rows.endRow()
        }
        return rows
    }

    private static func stopRows(_ lines: [OSMInterpolation]) -> CopyRows {
        var rows = CopyRows()
        for (seq, line) in lines.enumerated() {
            for (position, stop) in line.stops.enumerated() {
                rows.integer(seq); rows.integer(position); rows.integer(stop.point); address(stop.address, into: &rows); rows.endRow()
            }
        }
        return rows
    }

    private static func entranceRows(_ entrances: [OSMEntrance]) -> CopyRows {
        var rows = CopyRows()
        for (seq, e) in entrances.enumerated() {
            rows.integer(seq); rows.text(e.id); rows.text(e.kind); rows.double(e.coordinate.latitude); rows.double(e.coordinate.longitude)
            tags(e.tags, into: &rows); rows.textArray(e.ways); rows.endRow()
        }
        return rows
    }

    private static func mapShapeRows(_ shapes: [MapFeature]) -> CopyRows {
        var rows = CopyRows()
        for (seq, shape) in shapes.enumerated() {
            rows.integer(seq); rows.text(shape.id); rows.text(shape.kind.rawValue); rows.text(shape.category); rows.text(shape.name)
            rows.geometry(WKB.multiLineString(shape.lines)); rows.endRow()
        }
        return rows
    }

    // MARK: Interpolation schemes

    /// The scheme stored as `text`, or nil for one this version does not know.
    static func scheme(_ text: String) -> OSMInterpolation.Scheme? {
        switch text {
        case "odd": .odd
        case "even": .even
        case "all": .all
        case "alphabetic": .alphabetic
        default: Int(text).map { .step($0) }
        }
    }
}
