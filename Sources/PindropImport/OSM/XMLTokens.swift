import PindropCore

/// The tags of an XML document as far as osmChange files use XML: elements with attributes, no text content. The
/// declaration, comments and whitespace between tags are skipped; anything else (text, CDATA, a document type) is an
/// error naming its line.
struct XMLTokens {
    /// One tag.
    enum Token: Equatable, CustomStringConvertible {
        /// `<name a="v">`, or `<name a="v"/>` when `empty`.
        case open(String, [String: String], empty: Bool)
        /// `</name>`.
        case close(String)

        var description: String {
            switch self {
            case .open(let name, _, _): "<\(name)>"
            case .close(let name): "</\(name)>"
            }
        }
    }

    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// An error at the current position.
    func error(_ message: String) -> PindropError {
        let line = 1 + bytes[..<min(position, bytes.count)].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        return .unreadableData("line \(line): \(message)")
    }

    /// The next tag, or nil at the end of the document.
    mutating func next() throws(PindropError) -> Token? {
        while true {
            skipWhitespace()
            guard position < bytes.count else { return nil }
            guard bytes[position] == UInt8(ascii: "<") else { throw error("unexpected text outside a tag") }
            if starts(with: "<?") {
                try skip(past: "?>")
            } else if starts(with: "<!--") {
                try skip(past: "-->")
            } else if starts(with: "<!") {
                throw error("document types and CDATA are not part of an osmChange file")
            } else if starts(with: "</") {
                position += 2
                let name = try readName()
                skipWhitespace()
                try expect(">")
                return .close(name)
            } else {
                position += 1
                return try readOpening()
            }
        }
    }

    private mutating func readOpening() throws(PindropError) -> Token {
        let name = try readName()
        var attributes: [String: String] = [:]
        while true {
            skipWhitespace()
            guard position < bytes.count else { throw error("the file ends inside <\(name)> (truncated)") }
            if starts(with: "/>") { position += 2; return .open(name, attributes, empty: true) }
            if bytes[position] == UInt8(ascii: ">") { position += 1; return .open(name, attributes, empty: false) }
            let attribute = try readName()
            skipWhitespace()
            try expect("=")
            skipWhitespace()
            attributes[attribute] = try readValue()
        }
    }

    private mutating func readName() throws(PindropError) -> String {
        let start = position
        while position < bytes.count, Self.isNameByte(bytes[position]) { position += 1 }
        guard position > start else {
            // Nothing, or a last "/" of a cut "/>", after it: the file ends here.
            throw error(position + 1 < bytes.count ? "a tag or attribute without a name" : "the file ends inside a tag (truncated)")
        }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: ":"), UInt8(ascii: "."): true
        default: byte >= 0x80
        }
    }

    /// A quoted attribute value, its entities and character references replaced.
    private mutating func readValue() throws(PindropError) -> String {
        guard position < bytes.count else { throw error("the file ends inside a tag (truncated)") }
        guard bytes[position] == 0x22 || bytes[position] == 0x27 else { throw error("an attribute value without quotes") }
        let quote = bytes[position]
        position += 1
        var value: [UInt8] = []
        while position < bytes.count, bytes[position] != quote {
            let byte = bytes[position]
            guard byte != UInt8(ascii: "<") else { throw error("a '<' inside an attribute value") }
            if byte == UInt8(ascii: "&") {
                try readReference(into: &value)
            } else {
                // Whitespace in a value is read as a space (XML's attribute-value normalisation).
                value.append(byte == 0x0A || byte == 0x0D || byte == 0x09 ? 0x20 : byte)
                position += 1
            }
        }
        guard position < bytes.count else { throw error("the file ends inside an attribute value (truncated)") }
        position += 1
        guard let text = String(validating: value, as: UTF8.self) else { throw error("an attribute value that is not UTF-8") }
        return text
    }

    private mutating func readReference(into value: inout [UInt8]) throws(PindropError) {
        guard let end = bytes[position...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else {
            throw error(bytes.count - position < 12 ? "the file ends inside an attribute value (truncated)" : "an '&' that starts no entity")
        }
        let name = String(decoding: bytes[(position + 1)..<end], as: UTF8.self)
        let scalar: Unicode.Scalar?
        switch name {
        case "amp": scalar = "&"
        case "lt": scalar = "<"
        case "gt": scalar = ">"
        case "quot": scalar = "\""
        case "apos": scalar = "'"
        default:
            if name.hasPrefix("#x") {
                scalar = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
            } else if name.hasPrefix("#") {
                scalar = UInt32(name.dropFirst(1)).flatMap(Unicode.Scalar.init)
            } else {
                scalar = nil
            }
        }
        guard let scalar else { throw error("unknown entity &\(name);") }
        value.append(contentsOf: String(Character(scalar)).utf8)
        position = end + 1
    }

    private mutating func skipWhitespace() {
        while position < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[position]) { position += 1 }
    }

    private func starts(with text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard position + count <= bytes.count else { return false }
        return text.withUTF8Buffer { prefix in (0..<count).allSatisfy { bytes[position + $0] == prefix[$0] } }
    }

    private mutating func skip(past end: StaticString) throws(PindropError) {
        while position < bytes.count {
            if starts(with: end) { position += end.utf8CodeUnitCount; return }
            position += 1
        }
        throw error("the file ends inside a comment or declaration (truncated)")
    }

    private mutating func expect(_ text: StaticString) throws(PindropError) {
        guard position < bytes.count else { throw error("the file ends inside a tag (truncated)") }
        guard starts(with: text) else { throw error("expected '\(text)'") }
        position += text.utf8CodeUnitCount
    }
}
