import PindropCore

/// Reads osmChange files (`.osc`, plain or gzip), as replication servers and `osmium derive-changes` write them. The
/// whole file is checked before anything is returned: a truncated, damaged or malformed file is refused whole, with
/// where it went wrong, so a failed update changes nothing.
public enum OSMChangeReader {
    /// The change in the file at `path` (gzip-compressed or plain).
    public static func read(path: String) throws(PindropError) -> OSMChange {
        var bytes: [UInt8] = []
        do {
            try LineReader(path: path, maximumLineLength: 1 << 24).forEachLine { line in
                bytes.append(contentsOf: line)
                bytes.append(0x0A)
                return true
            }
        } catch let error as PindropError {
            throw error
        } catch {
            throw .unreadableData("\(path): \(error)")
        }
        do {
            return try parse(bytes)
        } catch {
            throw .unreadableData("\(path): \(error.message)")
        }
    }

    /// The change in an osmChange document.
    public static func parse(_ bytes: [UInt8]) throws(PindropError) -> OSMChange {
        var tokens = XMLTokens(bytes)
        var change = OSMChange()
        guard case .open(let root, _, let empty)? = try tokens.next(), root == "osmChange" else {
            throw .unreadableData("not an osmChange file (it does not begin with <osmChange>)")
        }
        if !empty {
            while let token = try tokens.next() {
                switch token {
                case .close("osmChange"):
                    guard try tokens.next() == nil else { throw tokens.error("content after </osmChange>") }
                    return change
                case .open(let name, _, let empty):
                    guard let action = OSMChange.Action(rawValue: name) else { throw tokens.error("unexpected <\(name)> in <osmChange>") }
                    if !empty { try readAction(action, from: &tokens, into: &change) }
                default:
                    throw tokens.error("unexpected \(token)")
                }
            }
            throw tokens.error("the file ends before </osmChange> (truncated)")
        }
        guard try tokens.next() == nil else { throw tokens.error("content after <osmChange/>") }
        return change
    }

    private static func readAction(_ action: OSMChange.Action, from tokens: inout XMLTokens, into change: inout OSMChange) throws(PindropError) {
        while let token = try tokens.next() {
            switch token {
            case .close(let name) where name == action.rawValue:
                return
            case .open(let name, let attributes, let empty):
                guard let type = OSMMemberType(rawValue: name) else { throw tokens.error("unexpected <\(name)> in <\(action.rawValue)>") }
                var object = try ObjectReading(type: type, attributes: attributes, tokens: tokens)
                if !empty { try object.readChildren(from: &tokens) }
                change.edits.append(try object.edit(action))
            default:
                throw tokens.error("unexpected \(token) in <\(action.rawValue)>")
            }
        }
        throw tokens.error("the file ends inside <\(action.rawValue)> (truncated)")
    }

    /// One object as read: its attributes, then its tags, node references or members.
    private struct ObjectReading {
        let type: OSMMemberType
        let id: Int64, version: Int, timestamp: Int64?
        let latitude: String?, longitude: String?
        let place: String
        var tags = OSMTags(), nodeIDs: [Int64] = [], members: [OSMRelationMember] = []

        init(type: OSMMemberType, attributes: [String: String], tokens: XMLTokens) throws(PindropError) {
            guard let id = attributes["id"].flatMap({ Int64($0) }) else { throw tokens.error("<\(type.rawValue)> without a numeric id") }
            place = "\(type.rawValue) \(id)"
            guard let version = attributes["version"].flatMap({ Int($0) }), version >= 0 else {
                throw tokens.error("\(place) has no version")
            }
            self.type = type; self.id = id; self.version = version
            if let text = attributes["timestamp"] {
                guard let seconds = OSMTimestamp.seconds(text) else { throw tokens.error("\(place): unreadable timestamp \(text)") }
                timestamp = seconds
            } else {
                timestamp = nil
            }
            latitude = attributes["lat"]; longitude = attributes["lon"]
        }

        mutating func readChildren(from tokens: inout XMLTokens) throws(PindropError) {
            while let token = try tokens.next() {
                switch token {
                case .close(let name) where name == type.rawValue:
                    return
                case .open(let name, let attributes, let empty):
                    if !empty {
                        guard case .close(name)? = try tokens.next() else { throw tokens.error("<\(name)> in \(place) holds content") }
                    }
                    try add(name, attributes, tokens: tokens)
                default:
                    throw tokens.error("unexpected \(token) in \(place)")
                }
            }
            throw tokens.error("the file ends inside \(place) (truncated)")
        }

        private mutating func add(_ name: String, _ attributes: [String: String], tokens: XMLTokens) throws(PindropError) {
            switch (name, type) {
            case ("tag", _):
                guard let key = attributes["k"], let value = attributes["v"] else { throw tokens.error("a tag of \(place) lacks k or v") }
                tags[key] = value
            case ("nd", .way):
                guard let ref = attributes["ref"].flatMap({ Int64($0) }) else { throw tokens.error("an <nd> of \(place) has no numeric ref") }
                nodeIDs.append(ref)
            case ("member", .relation):
                guard let type = attributes["type"].flatMap(OSMMemberType.init(rawValue:)),
                      let ref = attributes["ref"].flatMap({ Int64($0) }) else {
                    throw tokens.error("a member of \(place) lacks a type or a numeric ref")
                }
                members.append(OSMRelationMember(type: type, id: ref, role: attributes["role"] ?? ""))
            default:
                throw tokens.error("unexpected <\(name)> in \(place)")
            }
        }

        func edit(_ action: OSMChange.Action) throws(PindropError) -> OSMChange.Edit {
            let key = OSMElementKey(type: type, id: id)
            guard action != .delete else { return OSMChange.Edit(action: action, key: key, version: version, element: nil) }
            let element: OSMElement
            switch type {
            case .node:
                guard let latitude, let longitude, let lat = OSMDegrees.nanodegrees(latitude), let lon = OSMDegrees.nanodegrees(longitude),
                      abs(lat) <= 90_000_000_000, abs(lon) <= 180_000_000_000 else {
                    throw PindropError.unreadableData("\(place) has no valid lat and lon")
                }
                // As the PBF reader makes it from nanodegrees, so a node reads the same from either file.
                let coordinate = Coordinate(latitude: Double(lat) * 1e-9, longitude: Double(lon) * 1e-9)
                element = .node(OSMNode(id: id, coordinate: coordinate, tags: tags, timestamp: timestamp))
            case .way:
                element = .way(OSMWay(id: id, nodeIDs: nodeIDs, tags: tags, timestamp: timestamp))
            case .relation:
                element = .relation(OSMRelation(id: id, members: members, tags: tags, timestamp: timestamp))
            }
            return OSMChange.Edit(action: action, key: key, version: version, element: element)
        }
    }
}

/// Degrees written in decimal, read exactly.
enum OSMDegrees {
    /// "47.1234567" as 47123456700 nanodegrees; nil for anything but an optionally signed decimal number with at most
    /// nine decimals.
    static func nanodegrees(_ text: String) -> Int64? {
        var utf8 = Substring(text).utf8[...]
        let negative = utf8.first == UInt8(ascii: "-")
        if negative || utf8.first == UInt8(ascii: "+") { utf8 = utf8.dropFirst() }
        var value: Int64 = 0, decimals = -1, digits = 0
        for byte in utf8 {
            if byte == UInt8(ascii: "."), decimals < 0 { decimals = 0; continue }
            guard byte >= 0x30, byte <= 0x39, digits < 18 else { return nil }
            value = value * 10 + Int64(byte - 0x30)
            digits += 1
            if decimals >= 0 { decimals += 1 }
        }
        let scale = max(decimals, 0)
        guard digits > 0, scale <= 9 else { return nil }
        for _ in scale..<9 { value *= 10 }
        return negative ? -value : value
    }
}

/// OpenStreetMap's timestamps, "2024-05-01T12:00:00Z".
public enum OSMTimestamp {
    /// Seconds since 1970 of a timestamp in OpenStreetMap's form; nil for any other text.
    public static func seconds(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        guard bytes.count == 20, bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x54, bytes[13] == 0x3A, bytes[16] == 0x3A,
              bytes[19] == 0x5A else { return nil }
        func number(_ range: Range<Int>) -> Int64? {
            var value: Int64 = 0
            for byte in bytes[range] {
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int64(byte - 0x30)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), let hour = number(11..<13),
              let minute = number(14..<16), let second = number(17..<19),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else { return nil }
        // Days from 1970-01-01 in the proleptic Gregorian calendar (Howard Hinnant's days_from_civil).
        let y = month <= 2 ? year - 1 : year
        let era = y / 400, yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return days * 86_400 + hour * 3_600 + minute * 60 + second
    }

    /// The timestamp's text for seconds since 1970.
    public static func text(_ seconds: Int64) -> String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let rest = seconds - days * 86_400
        // civil_from_days.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let yearText = String(year), padded = String(repeating: "0", count: max(0, 4 - yearText.count)) + yearText
        return "\(padded)-\(two(month))-\(two(day))T\(two(rest / 3_600)):\(two(rest % 3_600 / 60)):\(two(rest % 60))Z"
    }
}
