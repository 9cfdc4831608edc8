/// A place's id, of every kind: a GeoNames place ("geonames:2988507"), an OpenStreetMap object of the embedded index
/// ("osm:node/240109189", "osm:way/122595241", "osm:relation/1155955"), or a provider's place, its name before the colon
/// ("nominatim:way/45", "photon:relation/6", "google:ChIJ…", "mapbox:…", "foursquare:…"). `Place.id` holds the text;
/// this is the one place that writes and reads it.
public enum PlaceID: Hashable, Sendable, CustomStringConvertible {
    case geonames(Int32)
    case osm(OSMObject)
    /// A postcode of a country, as a place of its own ("postcode:li:9490": the centre of the addresses that carry it).
    case postcode(country: String, code: String)
    /// A provider's place: the provider's name and its own id (an OSM object's "way/45" for Nominatim and Photon).
    case provider(name: String, id: String)

    /// An OpenStreetMap object: its kind and number.
    public struct OSMObject: Hashable, Sendable {
        /// The three kinds of OpenStreetMap object.
        public enum Kind: String, Sendable, CaseIterable {
            case node, way, relation

            /// Nominatim's one-letter form ("N", "W", "R"), as `osm_ids` and Photon's `osm_type` write it.
            public var letter: String { String(rawValue.prefix(1)).uppercased() }
        }

        public var kind: Kind
        public var number: Int64

        /// Makes an object's id.
        public init(_ kind: Kind, _ number: Int64) { self.kind = kind; self.number = number }

        /// "node/123" → node 123; nil for anything else.
        public init?<S: StringProtocol>(path: S) {
            guard let slash = path.utf8.firstIndex(of: UInt8(ascii: "/")), let number = Int64(path[path.index(after: slash)...]),
                  let kind = Kind(rawValue: String(path[..<slash])) else { return nil }
            self.init(kind, number)
        }

        /// Nominatim's `osm_ids` form, "N123", "W45", "R6" (either case); nil for anything else.
        public init?<S: StringProtocol>(nominatim text: S) {
            guard let first = text.first, let number = Int64(text.dropFirst()), number > 0,
                  let kind = Kind.allCases.first(where: { $0.letter == first.uppercased() }) else { return nil }
            self.init(kind, number)
        }

        /// "node/123".
        public var path: String { "\(kind.rawValue)/\(number)" }
    }

    /// The id of `text`; nil for a text that is no id (no source before a colon, or nothing after it).
    public init?(_ text: String) {
        guard let colon = text.utf8.firstIndex(of: UInt8(ascii: ":")), colon != text.startIndex else { return nil }
        let source = text[..<colon], rest = text[text.index(after: colon)...]
        guard !rest.isEmpty else { return nil }
        switch source {
        case "geonames":
            guard let number = Int32(rest), number > 0 else { return nil }
            self = .geonames(number)
        case "osm":
            guard let object = OSMObject(path: rest) else { return nil }
            self = .osm(object)
        case "postcode":
            guard let colon = rest.firstIndex(of: ":"), rest.startIndex < colon, rest.index(after: colon) < rest.endIndex else { return nil }
            self = .postcode(country: String(rest[..<colon]), code: String(rest[rest.index(after: colon)...]))
        default:
            self = .provider(name: String(source), id: String(rest))
        }
    }

    /// The id as `Place.id` holds it.
    public var description: String {
        switch self {
        case .geonames(let number): "geonames:\(number)"
        case .osm(let object): "osm:\(object.path)"
        case .postcode(let country, let code): "postcode:\(country):\(code)"
        case .provider(let name, let id): "\(name):\(id)"
        }
    }

    /// The OpenStreetMap object a place is, whoever answered it: the index's ("osm:node/123") or an OSM geocoder's
    /// ("nominatim:way/45", "photon:relation/6"); nil for other places. Read without splitting the text into parts:
    /// the compatible APIs ask it of every result.
    public static func osmObject(of id: String) -> OSMObject? {
        guard let colon = id.utf8.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        return OSMObject(path: id[id.index(after: colon)...])
    }
}
