import Foundation

/// A place's position in the stable nearby order: by distance from the point, then by id (in code-point order),
/// so every store pages the same way and a page never repeats or skips a place of the one before.
public struct NearbyPosition: Sendable, Hashable, Comparable {
    /// Metres from the request's point, exactly as the store computed them.
    public var distanceMeters: Double
    /// The place's id.
    public var id: String

    /// Makes a position.
    public init(distanceMeters: Double, id: String) {
        self.distanceMeters = distanceMeters; self.id = id
    }

    /// The position of a nearby result (a result without a distance sorts last).
    public init(_ result: PlaceResult) {
        self.init(distanceMeters: result.distanceMeters ?? .infinity, id: result.place.id)
    }

    /// Whether `a` comes before `b`: nearer, or as near with the smaller id.
    public static func < (a: Self, b: Self) -> Bool {
        a.distanceMeters != b.distanceMeters ? a.distanceMeters < b.distanceMeters : a.id.unicodeScalars.lexicographicallyPrecedes(b.id.unicodeScalars)
    }
}

/// The `total` and `next` of one page of a longer list (saved places, nearby venues).
public struct ResultPage: Sendable, Hashable {
    /// How many the whole list holds, when known.
    public var total: Int?
    /// The cursor of the next page; nil on the last page (or from a provider that cannot page).
    public var next: String?

    /// Makes a page's description.
    public init(total: Int?, next: String?) {
        self.total = total; self.next = next
    }
}

/// One page of places within a radius, as a store answers it.
public struct NearbyPage: Sendable, Hashable {
    /// The page's places in the nearby order.
    public var results: [PlaceResult]
    /// How many places the radius holds (of the category, when one is given), on every page.
    public var total: Int

    /// Makes a page.
    public init(results: [PlaceResult], total: Int) {
        self.results = results; self.total = total
    }
}

/// The `next` cursor of a nearby page: the last place's position, as the 16 hex digits of its distance's
/// IEEE 754 bits (exact: no rounding can make a page repeat or skip a place), "~", and its id. Clients pass it
/// back unchanged. Any well-formed cursor means "the places after this position" (so `openapi.json` can
/// describe it exactly); one that is not well formed is refused.
enum NearbyCursor {
    /// Longest id a cursor holds, in Unicode scalars.
    static let maxIDLength = 200

    /// The cursor of the page after `position`.
    static func cursor(after position: NearbyPosition) -> String {
        let hex = String(position.distanceMeters.bitPattern, radix: 16)
        return String(repeating: "0", count: 16 - hex.utf8.count) + hex + "~" + position.id
    }

    /// The position a cursor names; `.invalidInput` unless it is well formed.
    static func position(_ cursor: String) throws(PindropError) -> NearbyPosition {
        let bits = cursor.utf8.prefix(16)
        let id = cursor.unicodeScalars.dropFirst(17)
        guard bits.count == 16, bits.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }),
              cursor.unicodeScalars.dropFirst(16).first == "~",
              let pattern = UInt64(String(decoding: bits, as: UTF8.self), radix: 16),
              case let distance = Double(bitPattern: pattern), distance.isFinite, distance.sign == .plus,
              (1...maxIDLength).contains(id.count),
              !id.contains(where: { $0.value < 0x20 && $0 != "\t" || (0x7F...0x9F).contains($0.value) }) else {
            throw .invalidInput("\"cursor\" must be the \"next\" of an earlier page, got \"\(cursor.prefix(60))\"")
        }
        return NearbyPosition(distanceMeters: distance, id: String(String.UnicodeScalarView(id)))
    }
}
