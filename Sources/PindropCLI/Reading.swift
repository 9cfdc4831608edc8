import Foundation
import Logging
import PindropCore
import PindropServer

/// How a setting's text becomes its value (and back): the one reader of a flag, a variable and a file's value, all
/// spelled as the environment spells them ("8080", "true", "a,b"). A text it refuses throws `.invalidInput` with the
/// reason alone ("must be a whole number in 1...3600, got \"7200\""); the caller says where the text came from.
struct Reading<Value>: Sendable {
    let kind: ServeSetting.Kind
    let read: @Sendable (String) throws(PindropError) -> Value
    let write: @Sendable (Value) -> String

    /// The items of a list: split at commas, trimmed, the empty ones dropped.
    static func items(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}

extension Reading where Value == String {
    static var text: Self { Self(kind: .text, read: { $0 }, write: { $0 }) }

    static var nonEmptyText: Self {
        Self(kind: .nonEmptyText, read: { text throws(PindropError) in
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty else { throw ServeSetting.Kind.nonEmptyText.refusal(text) }
            return trimmed
        }, write: { $0 })
    }
}

extension Reading where Value == String? {
    /// Text kept as it is ("" too: for the coastlines, "" is none and nil asks python3).
    static var text: Self { Self(kind: .text, read: { $0 }, write: { $0 ?? "" }) }

    /// Text, "" for none.
    static var optionalText: Self { Self(kind: .optionalText, read: { $0.isEmpty ? nil : $0 }, write: { $0 ?? "" }) }

    /// An absolute URL, "" for none.
    static var optionalURL: Self {
        Self(kind: .optionalURL, read: { text throws(PindropError) in
            guard !text.isEmpty else { return nil }
            guard URL(string: text)?.scheme != nil else { throw ServeSetting.Kind.optionalURL.refusal(text) }
            return text
        }, write: { $0 ?? "" })
    }
}

extension Reading where Value == Int {
    static func integer(_ range: ClosedRange<Int>) -> Self {
        Self(kind: .integer(range), read: { text throws(PindropError) in
            guard let value = Int(text.trimmingCharacters(in: .whitespaces)), range.contains(value) else {
                throw ServeSetting.Kind.integer(range).refusal(text)
            }
            return value
        }, write: { String($0) })
    }
}

extension Reading where Value == Int? {
    /// A whole number in `range`, "" for none.
    static func optionalInteger(_ range: ClosedRange<Int>) -> Self {
        Self(kind: .optionalInteger(range), read: { text throws(PindropError) in
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty else { return nil }
            guard let value = Int(trimmed), range.contains(value) else { throw ServeSetting.Kind.optionalInteger(range).refusal(text) }
            return value
        }, write: { $0.map { String($0) } ?? "" })
    }
}

extension Reading where Value == Bool {
    /// true or 1, false or 0 (any case); "" is false, as an empty variable is.
    static var boolean: Self {
        Self(kind: .boolean, read: { text throws(PindropError) in
            switch text.trimmingCharacters(in: .whitespaces).lowercased() {
            case "1", "true": return true
            case "0", "false", "": return false
            default: throw ServeSetting.Kind.boolean.refusal(text)
            }
        }, write: { String($0) })
    }
}

extension Reading where Value: CaseIterable & RawRepresentable & Sendable, Value.RawValue == String {
    /// One of the cases' names, in any case.
    static var choice: Self {
        let kind = ServeSetting.Kind.choice(Value.allCases.map(\.rawValue))
        return Self(kind: kind, read: { text throws(PindropError) in
            guard let value = Value(rawValue: text.trimmingCharacters(in: .whitespaces).lowercased()) else { throw kind.refusal(text) }
            return value
        }, write: { $0.rawValue })
    }
}

extension Reading where Value == Coordinate {
    static var coordinate: Self {
        Self(kind: .coordinate, read: { text throws(PindropError) in
            do { return try Coordinate(parsing: text) } catch { throw ServeSetting.Kind.coordinate.refusal(text) }
        }, write: { "\($0.latitude),\($0.longitude)" })
    }
}

extension Reading where Value == [String] {
    static var list: Self { Self(kind: .list, read: { items($0) }, write: { $0.joined(separator: ",") }) }

    /// Web origins (a scheme and a host, `https://example.com`), or "*" for any.
    static var origins: Self {
        Self(kind: .origins, read: { text throws(PindropError) in
            let origins = items(text)
            for origin in origins where origin != "*" {
                guard let url = URL(string: origin), url.scheme != nil, url.host != nil, url.path.isEmpty else {
                    throw ServeSetting.Kind.origins.refusal(text)
                }
            }
            return origins
        }, write: { $0.joined(separator: ",") })
    }
}
