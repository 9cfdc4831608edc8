import PindropCore

/// What a street-level row keeps beyond its name, point and kind: its OSM id, its category and the key it is a value
/// of (Nominatim's type and class), its address, its other names and extra tags (`Place.tags`), and its box. Stored as
/// the row's extras, fields separated by U+001F in a fixed order (`PlaceTable.appendExtras` writes them), the tags as
/// key and value pairs separated by U+001E.
struct PlaceExtras {
    var id: String
    var category: String?
    var categoryKey: String?
    var address: Address
    var tags: [String: String]?
    var box: BoundingBox?
    var entrances: [PlaceEntrance]?

    /// The separator between fields, and the one between a tag's key and value and between tags.
    static let fieldSeparator: UInt8 = 0x1F
    static let tagSeparator: UInt8 = 0x1E
    /// The separator between entrances (each written as its fields and tags, separated as tags are).
    static let entranceSeparator: UInt8 = 0x1D
    /// The fields, in their stored order.
    static let fieldCount = 19

    init(id: String, category: String?, categoryKey: String?, address: Address, tags: [String: String]? = nil, box: BoundingBox? = nil,
         entrances: [PlaceEntrance]? = nil) {
        self.id = id; self.category = category; self.categoryKey = categoryKey; self.address = address; self.tags = tags; self.box = box
        self.entrances = entrances
    }

    /// From the stored fields: id, category, house number, street, postcode, town, suburb, county, state, country,
    /// category key, neighbourhood, addr:place or part of town, kind of town, tags, box, ISO 3166-2 codes, kind of place,
    /// entrances.
    init(fields f: UnsafeBufferPointer<String?>, id: String) {
        self.init(id: id, category: f[1], categoryKey: f[10],
                  address: Address(houseNumber: f[2], street: f[3], postcode: f[4], town: f[5], suburb: f[6], county: f[7], state: f[8],
                                   country: f[9], neighbourhood: f[11], place: f[12], townKind: f[13]),
                  tags: f[14].map(Self.tags(decoding:)), box: f[15].flatMap(Self.box(decoding:)),
                  entrances: f[18].map(Self.entrances(decoding:)))
        address.subdivisionCodes = f[16].map(Self.subdivisionCodes(decoding:))
        address.placeKind = f[17]
    }

    /// The fields as stored, in order (nil for an empty one).
    var fields: [String?] {
        [id, category, address.houseNumber, address.street, address.postcode, address.town, address.suburb, address.county, address.state,
         address.country, categoryKey, address.neighbourhood, address.place, address.townKind, tags.flatMap(Self.encoded),
         box.map { "\($0.south),\($0.west),\($0.north),\($0.east)" }, address.subdivisionCodes.flatMap(Self.encoded),
         address.placeKind, entrances.flatMap(Self.encoded)]
    }

    /// Entrances as stored: each its node id, kind, latitude, longitude and then its tags' keys and values, separated
    /// as tags are; entrances separated by U+001D.
    static func encoded(_ entrances: [PlaceEntrance]) -> String? {
        guard !entrances.isEmpty else { return nil }
        let separator = String(UnicodeScalar(tagSeparator))
        return entrances.map { e in
            ([String(e.nodeID), clean(e.kind), String(e.coordinate.latitude), String(e.coordinate.longitude)]
                + (e.tags ?? [:]).sorted { $0.key < $1.key }.flatMap { [clean($0.key), clean($0.value)] }).joined(separator: separator)
        }.joined(separator: String(UnicodeScalar(entranceSeparator)))
    }

    static func entrances(decoding text: String) -> [PlaceEntrance] {
        pieces(of: text, at: entranceSeparator).compactMap { item in
            let parts = pieces(of: item, at: tagSeparator)
            guard parts.count >= 4, let node = Int64(parts[0]), let latitude = Double(parts[2]), let longitude = Double(parts[3]) else { return nil }
            var tags: [String: String] = [:]
            for i in stride(from: 4, to: parts.count - 1, by: 2) { tags[parts[i]] = parts[i + 1] }
            return PlaceEntrance(nodeID: node, kind: parts[1], coordinate: Coordinate(latitude: latitude, longitude: longitude),
                                 tags: tags.isEmpty ? nil : tags)
        }
    }

    /// ISO 3166-2 codes as stored: "8=LI-10", space-separated, coarse to fine.
    static func encoded(_ codes: [SubdivisionCode]) -> String? {
        codes.isEmpty ? nil : codes.map { "\($0.adminLevel)=\($0.code.replacingOccurrences(of: " ", with: "_"))" }.joined(separator: " ")
    }

    static func subdivisionCodes(decoding text: String) -> [SubdivisionCode] {
        text.split(separator: " ").compactMap { item in
            let parts = item.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, let level = Int(parts[0]) else { return nil }
            return SubdivisionCode(adminLevel: level, code: String(parts[1]))
        }
    }

    /// Tags as stored: key, value, key, value… separated by U+001E, sorted by key.
    static func encoded(_ tags: [String: String]) -> String? {
        guard !tags.isEmpty else { return nil }
        let separator = Character(UnicodeScalar(tagSeparator))
        // Appended to one text: every venue's tags are written at each import.
        var text = ""
        for (n, tag) in tags.sorted(by: { $0.key < $1.key }).enumerated() {
            if n > 0 { text.append(separator) }
            text += clean(tag.key)
            text.append(separator)
            text += clean(tag.value)
        }
        return text
    }

    /// A tag's key or value with no separator in it. The separators are ASCII control characters, so their bytes
    /// are never part of another character.
    private static func clean(_ text: String) -> String {
        text.utf8.contains { $0 == tagSeparator || $0 == fieldSeparator || $0 == entranceSeparator }
            ? String(String.UnicodeScalarView(text.unicodeScalars.map { $0.value < 0x20 ? " " : $0 })) : text
    }

    static func tags(decoding text: String) -> [String: String] {
        let parts = pieces(of: text, at: tagSeparator)
        var tags: [String: String] = [:]
        tags.reserveCapacity(parts.count / 2)
        for i in stride(from: 0, to: parts.count - 1, by: 2) { tags[parts[i]] = parts[i + 1] }
        return tags
    }

    /// The pieces of `text` between the bytes `separator`, empty ones too. The separators are ASCII (control
    /// characters, a comma), never a byte of another character: cut as bytes, where a cut by `Character` read every
    /// grapheme.
    static func pieces(of text: String, at separator: UInt8) -> [String] {
        var text = text
        return text.withUTF8 { bytes in
            var pieces: [String] = [], start = 0
            for j in 0...bytes.count where j == bytes.count || bytes[j] == separator {
                pieces.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<j]), as: UTF8.self))
                start = j + 1
            }
            return pieces
        }
    }

    static func box(decoding text: String) -> BoundingBox? {
        let numbers = pieces(of: text, at: UInt8(ascii: ",")).compactMap { Double($0) }
        guard numbers.count == 4 else { return nil }
        return BoundingBox(south: numbers[0], west: numbers[1], north: numbers[2], east: numbers[3])
    }
}
