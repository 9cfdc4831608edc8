import PindropCore
import PostgresNIO

/// The served import's OpenStreetMap features read back from their tables (`OSMFeatureTables`), as the import read them.
/// An import made by an earlier version lacks the newer tables and columns: they read as empty.
extension PlaceRowReader {
    /// Every feature of the served import.
    func readFeatures(into features: inout OSMFeatures) async throws {
        try await readPoints(into: &features)
        try await readVenues(into: &features)
        try await readLines(into: &features)
        try await readAreas(into: &features)
        try await readInterpolations(into: &features)
        try await readEntrances(into: &features)
        try await readMapShapes(into: &features)
    }

    /// The columns a table of the served import has; none when it has no such table.
    func columns(of table: String) async throws -> Set<String> {
        var names = Set<String>()
        let rows = try await connection.query("""
            SELECT column_name::text FROM information_schema.columns WHERE table_schema = \(schema) AND table_name = \(table)
            """, logger: logger)
        for try await name in rows.decode(String.self) { names.insert(name) }
        return names
    }

    /// The select list of `wanted` columns, each missing one read as `fallback` (typed NULL or an empty array) under its name.
    private static func select(_ wanted: [String], from present: Set<String>, fallback: (String) -> String) -> String {
        wanted.map { present.contains($0) ? $0 : "\(fallback($0)) AS \($0)" }.joined(separator: ", ")
    }

    private static func nullText(_: String) -> String { "NULL::text" }

    private static func address(_ row: PostgresRandomAccessRow) throws -> Address {
        let p = try OSMFeatureTables.addressColumns.map { try row[$0].decode(String?.self) }
        return Address(houseNumber: p[0], street: p[1], postcode: p[2], town: p[3], suburb: p[4], county: p[5], state: p[6],
                       country: p[7], neighbourhood: p[8], place: p[9], townKind: p[10])
    }

    private static func tags(_ row: PostgresRandomAccessRow) throws -> [String: String] {
        let keys = try row["tag_keys"].decode([String].self), values = try row["tag_values"].decode([String].self)
        return Dictionary(zip(keys, values), uniquingKeysWith: { _, last in last })
    }

    /// The address points.
    func readPoints(into features: inout OSMFeatures) async throws {
        let present = try await columns(of: "osm_address")
        let columns = Self.select(OSMFeatureTables.addressColumns + ["country_code"], from: present, fallback: Self.nullText)
        for try await row in try await query("SELECT id, latitude, longitude, \(columns) FROM \(schema).osm_address ORDER BY seq") {
            let row = row.makeRandomAccess()
            features.addressPoints.append(OSMAddressPoint(
                id: try row["id"].decode(String.self),
                coordinate: Coordinate(latitude: try row["latitude"].decode(Double.self), longitude: try row["longitude"].decode(Double.self)),
                address: try Self.address(row), countryCode: try row["country_code"].decode(String?.self)))
        }
    }

    /// The places: venues, natural features, place nodes...
    func readVenues(into features: inout OSMFeatures) async throws {
        let present = try await columns(of: "osm_venue")
        let columns = Self.select(OSMFeatureTables.addressColumns + ["country_code", "tag_keys", "tag_values", "box_south", "box_west",
                                                                     "box_north", "box_east"], from: present) {
            $0.hasPrefix("tag_") ? "'{}'::text[]" : $0.hasPrefix("box_") ? "NULL::float8" : "NULL::text"
        }
        for try await row in try await query("""
            SELECT id, name, category, category_key, latitude, longitude, has_address, address_is_tagged, \(columns)
            FROM \(schema).osm_venue ORDER BY seq
            """) {
            let row = row.makeRandomAccess()
            let edges = try ["box_south", "box_west", "box_north", "box_east"].map { try row[$0].decode(Double?.self) }
            let box: BoundingBox? = if let south = edges[0], let west = edges[1], let north = edges[2], let east = edges[3] {
                BoundingBox(south: south, west: west, north: north, east: east)
            } else { nil }
            features.venues.append(OSMVenue(
                id: try row["id"].decode(String.self), name: try row["name"].decode(String.self),
                category: try row["category"].decode(String.self), categoryKey: try row["category_key"].decode(String.self),
                coordinate: Coordinate(latitude: try row["latitude"].decode(Double.self), longitude: try row["longitude"].decode(Double.self)),
                address: try row["has_address"].decode(Bool.self) ? try Self.address(row) : nil,
                addressIsTagged: try row["address_is_tagged"].decode(Bool.self), tags: try Self.tags(row), box: box,
                countryCode: try row["country_code"].decode(String?.self)))
        }
    }

    /// The streets and the buildings.
    func readLines(into features: inout OSMFeatures) async throws {
        for try await row in try await query("SELECT id, name, highway, ST_AsBinary(line) FROM \(schema).osm_street ORDER BY seq") {
            let (id, name, highway, wkb) = try row.decode((String, String, String, ByteBuffer).self)
            features.streets.append(OSMStreet(id: id, name: name, highway: highway,
                                              points: try WKB.lines(Array(buffer: wkb)).first ?? []))
        }
        for try await row in try await query("SELECT id, kind, name, ST_AsBinary(outlines) FROM \(schema).osm_building ORDER BY seq") {
            let (id, kind, name, wkb) = try row.decode((String, String, String?, ByteBuffer).self)
            features.buildings.append(OSMBuilding(id: id, kind: kind, name: name, outlines: try WKB.lines(Array(buffer: wkb))))
        }
    }

    /// The areas.
    func readAreas(into features: inout OSMFeatures) async throws {
        let present = try await columns(of: "osm_area")
        guard !present.isEmpty else { return }
        let columns = Self.select(["postcode", "label", "subdivision_code", "other_names"], from: present, fallback: Self.nullText)
        for try await row in try await query("""
            SELECT id, name, level, admin_level, localized_names, ST_AsBinary(rings), \(columns) FROM \(schema).osm_area ORDER BY seq
            """) {
            let (id, name, level, adminLevel, localized, wkb, postcode, label, code, otherNames) =
                try row.decode((String, String, Int16, Int16, [String], ByteBuffer, String?, String?, String?, String?).self)
            guard let level = AreaLevel(rawValue: Int(level)) else { continue }
            let names = Dictionary(localized.map { entry in
                let parts = entry.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
            }, uniquingKeysWith: { first, _ in first })
            features.areas.append(OSMArea(id: id, name: name, level: level, adminLevel: adminLevel == 0 ? nil : Int(adminLevel),
                                          localizedNames: names, rings: try WKB.lines(Array(buffer: wkb)), postcode: postcode, label: label,
                                          subdivisionCode: code))
            features.areas[features.areas.count - 1].otherNames = PlaceTags.tags(text: otherNames) ?? [:]
        }
    }

    /// The house-number interpolation lines and their numbered nodes.
    func readInterpolations(into features: inout OSMFeatures) async throws {
        guard try await !columns(of: "osm_interpolation").isEmpty else { return }
        var stops: [Int: [(point: Int, address: Address)]] = [:]
        let addressColumns = OSMFeatureTables.addressColumns.joined(separator: ", ")
        for try await row in try await query("""
            SELECT interpolation, point, \(addressColumns) FROM \(schema).osm_interpolation_stop ORDER BY interpolation, seq
            """) {
            let row = row.makeRandomAccess()
            stops[try row["interpolation"].decode(Int.self), default: []].append((try row["point"].decode(Int.self), try Self.address(row)))
        }
        for try await row in try await query("SELECT seq, id, scheme, ST_AsBinary(line) FROM \(schema).osm_interpolation ORDER BY seq") {
            let (seq, id, scheme, wkb) = try row.decode((Int, String, String, ByteBuffer).self)
            guard let scheme = OSMFeatureTables.scheme(scheme) else { continue }
            features.interpolations.append(OSMInterpolation(id: id, scheme: scheme, points: try WKB.lines(Array(buffer: wkb)).first ?? [],
                                                            stops: stops[seq] ?? []))
        }
    }

    /// The entrance nodes.
    func readEntrances(into features: inout OSMFeatures) async throws {
        guard try await !columns(of: "osm_entrance").isEmpty else { return }
        for try await row in try await query("""
            SELECT id, kind, latitude, longitude, tag_keys, tag_values, ways FROM \(schema).osm_entrance ORDER BY seq
            """) {
            let row = row.makeRandomAccess()
            features.entrances.append(OSMEntrance(
                id: try row["id"].decode(String.self), kind: try row["kind"].decode(String.self),
                coordinate: Coordinate(latitude: try row["latitude"].decode(Double.self), longitude: try row["longitude"].decode(Double.self)),
                tags: try Self.tags(row), ways: try row["ways"].decode([String].self)))
        }
    }

    /// What else the map draws; a kind this build does not know is left out.
    func readMapShapes(into features: inout OSMFeatures) async throws {
        guard try await !columns(of: "osm_map_shape").isEmpty else { return }
        for try await row in try await query("SELECT id, kind, category, name, ST_AsBinary(lines) FROM \(schema).osm_map_shape ORDER BY seq") {
            let (id, kind, category, name, wkb) = try row.decode((String, String, String?, String?, ByteBuffer).self)
            guard let kind = MapFeature.Kind(rawValue: kind) else { continue }
            features.mapShapes.append(MapFeature(kind: kind, id: id, name: name, category: category, lines: try WKB.lines(Array(buffer: wkb))))
        }
    }
}
