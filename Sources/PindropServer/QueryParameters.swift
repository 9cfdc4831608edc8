import Foundation
import Hummingbird
import PindropCore

/// Typed access to a request's query string; every bad value becomes a 400 naming the parameter.
struct QueryParameters {
    /// The parameters as the query gives them, in order (Photon's `layer` and `osm_tag` may repeat); a name given
    /// twice reads as its last value. A list, not dictionaries: a request has a few, and every one pays for this.
    private let parameters: [(name: String, value: String)]
    /// The request's `Accept-Language` header.
    let acceptLanguage: String?

    /// Reads the query string; `.invalidInput` when its percent-encoded bytes are not UTF-8 (rather than
    /// answering for text with U+FFFD in it) or a value holds control characters. With `spacingControls` the controls
    /// that space text (line feed, vertical tab, form feed, carriage return) become spaces instead, as Nominatim reads
    /// them as white space.
    init(_ request: Request, spacingControls: Bool = false) throws(PindropError) {
        guard Self.isUTF8(request.uri.query ?? "") else { throw .invalidInput("the query string is not valid UTF-8") }
        var parameters: [(name: String, value: String)] = []
        for pair in (request.uri.query ?? "").split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = Self.decoded(parts[0])
            var value = parts.count > 1 ? Self.decoded(parts[1]) : ""
            if spacingControls, value.unicodeScalars.contains(where: Self.isSpacingControl) {
                value = String(String.UnicodeScalarView(value.unicodeScalars.map { Self.isSpacingControl($0) ? " " : $0 }))
            }
            guard !value.unicodeScalars.contains(where: Self.isControl) else {
                throw .invalidInput("\"\(key.prefix(40))\" holds control characters")
            }
            parameters.append((key, value))
        }
        self.parameters = parameters
        acceptLanguage = request.headers[.acceptLanguage]
    }

    /// Every value given for a parameter, in order; empty when absent.
    func strings(_ name: String) -> [String] { parameters.filter { $0.name == name }.map(\.value) }

    /// The first parameter's name, in the order the query gives them, for which `test` holds; nil when none.
    func firstName(where test: (String) -> Bool) -> String? { parameters.first { test($0.name) }?.name }

    /// A parameter's value (its last, when given twice), nil when absent.
    private func value(_ name: String) -> String? { parameters.last { $0.name == name }?.value }

    /// The reader's languages, best first: the parameter `name` (`/v1`'s and Photon's `lang`, Nominatim's
    /// `accept-language`), else the `Accept-Language` header, each read by `LanguagePreference`; empty when neither says.
    func languages(_ name: String = "lang") -> [String] {
        if let list = value(name), !list.isEmpty { return LanguagePreference.languages(from: list) }
        return acceptLanguage.map(LanguagePreference.languages(from:)) ?? []
    }

    /// A name or value of a query string as a form sends it: "+" a space, "%XX" the byte XX (a malformed escape as
    /// written). Python's and JavaScript's form encoders, and so geopy and most Nominatim clients, write spaces as "+".
    static func decoded(_ component: Substring) -> String {
        guard component.utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else { return String(component) }
        let input = Array(component.utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(input.count)
        var i = 0
        while i < input.count {
            if input[i] == UInt8(ascii: "%"), i + 2 < input.count, let high = hexDigit(input[i + 1]), let low = hexDigit(input[i + 2]) {
                bytes.append(high << 4 | low)
                i += 3
            } else {
                bytes.append(input[i] == UInt8(ascii: "+") ? UInt8(ascii: " ") : input[i])
                i += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The value of a hexadecimal digit's byte, nil for another byte.
    @inline(__always) static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Whether a raw query string, percent-decoded, is valid UTF-8 ("+" and malformed escapes are left alone).
    /// Decoded into a buffer on the stack and checked there: every request pays this, and arrays cost allocations.
    static func isUTF8(_ query: String) -> Bool {
        // A Swift string is UTF-8 already; only escapes can make it otherwise.
        guard query.utf8.contains(UInt8(ascii: "%")) else { return true }
        var query = query
        return query.withUTF8 { input in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: input.count) { bytes in
                var n = 0, i = 0
                while i < input.count {
                    if input[i] == UInt8(ascii: "%"), i + 2 < input.count, let high = hexDigit(input[i + 1]), let low = hexDigit(input[i + 2]) {
                        bytes[n] = high << 4 | low
                        i += 3
                    } else {
                        bytes[n] = input[i]
                        i += 1
                    }
                    n += 1
                }
                var parser = Unicode.UTF8.ForwardParser()
                var scalars = UnsafeBufferPointer(rebasing: bytes[..<n]).makeIterator()
                while true {
                    switch parser.parseScalar(from: &scalars) {
                    case .valid: continue
                    case .emptyInput: return true
                    case .error: return false
                    }
                }
            }
        }
    }

    /// Line feed, vertical tab, form feed and carriage return.
    static func isSpacingControl(_ scalar: Unicode.Scalar) -> Bool { (0x0A...0x0D).contains(scalar.value) }

    /// C0 and C1 control characters and DEL; a tab is allowed.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar != "\t" && (scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value))
    }

    /// The text of a parameter, nil when absent.
    func string(_ name: String) -> String? { value(name) }

    /// Text that must be present (it may still be blank; the core requests judge that).
    func requiredString(_ name: String) throws -> String {
        guard let text = value(name) else { throw PindropError.invalidInput("the query parameter \"\(name)\" is missing") }
        return text
    }

    /// A whole number in `range`, or `defaultValue` when absent.
    func integer(_ name: String, default defaultValue: Int, in range: ClosedRange<Int>) throws -> Int {
        guard let text = value(name) else { return defaultValue }
        guard let value = Int(text), range.contains(value) else {
            throw PindropError.invalidInput("\"\(name)\" must be a whole number between \(range.lowerBound) and \(range.upperBound), got \"\(text.prefix(40))\"")
        }
        return value
    }

    /// `limit`: how many results, 1 ... `most` (`RequestLimits.maxResults` unless told).
    func limit(default defaultValue: Int = RequestLimits.defaultLimit, most: Int = RequestLimits.maxResults) throws -> Int {
        try integer("limit", default: defaultValue, in: 1...most)
    }

    /// A finite number, nil when absent.
    func number(_ name: String) throws -> Double? {
        guard let text = value(name) else { return nil }
        guard let value = DecimalNumber.parse(text) else {
            throw PindropError.invalidInput("\"\(name)\" must be a number, got \"\(text.prefix(40))\"")
        }
        return value
    }

    /// `lat` and `lon` as a validated coordinate: both or neither (nil); out-of-range values are 400.
    func coordinate() throws -> Coordinate? {
        let lat = try number("lat"), lon = try number("lon")
        switch (lat, lon) {
        case (nil, nil): return nil
        case (let lat?, let lon?): return try Coordinate(validatingLatitude: lat, longitude: lon)
        default: throw PindropError.invalidInput("\"lat\" and \"lon\" must be given together")
        }
    }

    /// `lat` and `lon`, both required.
    func requiredCoordinate() throws -> Coordinate {
        guard let coordinate = try coordinate() else {
            throw PindropError.invalidInput("the query parameters \"lat\" and \"lon\" are required")
        }
        return coordinate
    }

    /// `provider=NAME`: the provider to ask first, lower-cased; nil when absent or blank (the default chain).
    /// Whether the name is known, configured and suitable is the registry's to judge (a 400 when not).
    func provider() -> String? {
        guard let text = value("provider")?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        return String(text.prefix(64)).lowercased()
    }

    /// A yes-or-no parameter: `1` or `true`, `0` or `false`; `absent` (false unless given) when not sent.
    func flag(_ name: String, default absent: Bool = false) throws -> Bool {
        guard let text = value(name) else { return absent }
        switch text {
        case "1", "true": return true
        case "0", "false": return false
        default: throw PindropError.invalidInput("\"\(name)\" must be 1, 0, true or false, got \"\(text.prefix(40))\"")
        }
    }

    /// `format=json` (default) or `format=geojson`.
    func format() throws -> ResultFormat {
        guard let text = value("format") else { return .json }
        guard let format = ResultFormat(rawValue: text.lowercased()) else {
            throw PindropError.invalidInput("\"format\" must be \"json\" or \"geojson\", got \"\(text.prefix(40))\"")
        }
        return format
    }
}

/// Place ids arrive percent-encoded in a path ("osm%3Anode%2F123") or with bare slashes ("osm:node/123").
extension PlaceID {
    /// Longest id accepted.
    static let maxLength = 256

    /// The decoded id captured by a `**` route, or a 400.
    static func from(_ context: some RequestContext) throws -> String {
        let raw = context.parameters[Parameters.recursiveCaptureKey].map(String.init) ?? ""
        guard let id = raw.removingPercentEncoding else { throw PindropError.invalidInput("the place id is not valid percent-encoding") }
        return try validated(id)
    }

    /// The id when it is non-empty and not oversized.
    static func validated(_ id: String) throws -> String {
        guard !id.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { throw PindropError.invalidInput("the place id is empty") }
        guard !id.unicodeScalars.contains(where: QueryParameters.isControl) else { throw PindropError.invalidInput("the place id holds control characters") }
        guard RequestLimits.fits(id, within: maxLength) else { throw PindropError.invalidInput("the place id is longer than \(maxLength) characters") }
        return id
    }
}
