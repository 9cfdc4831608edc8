import Foundation
import PindropCore

/// One of OpenCage's address-formatting test cases: the parts, and the text the formatter must write.
public struct AddressFormatCase: Sendable {
    /// The case's file, relative to the test cases' folder ("countries/fi.yaml").
    public var file: String
    public var description: String
    /// The parts in the file's order, values as the file writes them.
    public var components: [(name: String, value: String)]
    /// The text expected, its lines separated by "\n" (no newline at the end).
    public var expected: String
    /// A case of `abbreviations/`: written with the abbreviations.
    public var abbreviate: Bool

    /// The parts as one JSON object, as `pindrop format` reads them.
    public var json: String {
        var w = JSONWriter()
        w.beginObject()
        for (name, value) in components { w.key(named: name); w.string(value) }
        w.endObject()
        return String(decoding: w.bytes, as: UTF8.self)
    }

    /// The parts as the formatter takes them.
    public var parts: AddressParts { AddressParts(Dictionary(components.map { ($0.name, $0.value) }) { first, _ in first }) }
}

/// Reads OpenCage's test cases (`testcases/` beside the templates in ../shared/address-formatting; not copied into
/// the repository). Their YAML has one shape: documents of a `description`, a `components` map of scalars and an
/// `expected` literal block; this reads that shape (plain, single- and double-quoted scalars, comments), not YAML
/// at large.
public enum AddressFormatCases {
    /// The test cases' folder: `$PINDROP_ADDRESS_TESTCASES`, else `../shared/address-formatting/testcases` beside
    /// `repository`; nil when neither is there.
    public static func folder(besides repository: String) -> String? {
        let candidates = [ProcessInfo.processInfo.environment["PINDROP_ADDRESS_TESTCASES"],
                          repository + "/../shared/address-formatting/testcases"].compactMap { $0 }
        return candidates.first { FileManager.default.fileExists(atPath: $0 + "/countries") }
    }

    /// Every case in the folder's `countries/`, `other/` and `abbreviations/`, file by file in name order.
    public static func load(from folder: String) throws -> [AddressFormatCase] {
        var cases: [AddressFormatCase] = []
        for group in ["countries", "other", "abbreviations"] {
            let files = (try? FileManager.default.contentsOfDirectory(atPath: folder + "/" + group)) ?? []
            for file in files.filter({ $0.hasSuffix(".yaml") }).sorted() {
                let text = try String(contentsOfFile: "\(folder)/\(group)/\(file)", encoding: .utf8)
                cases += try read(text, file: "\(group)/\(file)", abbreviate: group == "abbreviations")
            }
        }
        return cases
    }

    /// The cases of one file.
    static func read(_ text: String, file: String, abbreviate: Bool) throws -> [AddressFormatCase] {
        var cases: [AddressFormatCase] = []
        var current = AddressFormatCase(file: file, description: "", components: [], expected: "", abbreviate: abbreviate)
        var section = "", block: [Substring] = []
        func finishBlock() {
            guard section == "expected" else { return }
            while let last = block.last, last.allSatisfy(\.isWhitespace) { block.removeLast() }
            let indent = block.first.map { $0.prefix { $0 == " " }.count } ?? 0
            current.expected = block.map { String($0.dropFirst(min(indent, $0.prefix { $0 == " " }.count))) }.joined(separator: "\n")
            block = []
        }
        func finishCase() {
            finishBlock()
            if !current.components.isEmpty { cases.append(current) }
            current = AddressFormatCase(file: file, description: "", components: [], expected: "", abbreviate: abbreviate)
            section = ""
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let indented = line.first == " " || line.first == "\t"
            if section == "expected", indented || line.allSatisfy(\.isWhitespace) { block.append(line); continue }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed == "---" { finishCase(); continue }
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            guard let colon = trimmed.range(of: ":") else { throw PindropError.invalidInput("\(file): cannot read \"\(line)\"") }
            let key = trimmed[..<colon.lowerBound].trimmingCharacters(in: .whitespaces), rest = trimmed[colon.upperBound...].trimmingCharacters(in: .whitespaces)
            if indented {
                guard section == "components" else { throw PindropError.invalidInput("\(file): \"\(line)\" is outside components") }
                current.components.append((key, try scalar(rest, file: file)))
                continue
            }
            finishBlock()
            section = key
            if key == "description" { current.description = try scalar(rest, file: file) }
        }
        finishCase()
        return cases
    }

    /// A scalar as YAML reads it: "double-quoted" (with escapes), 'single-quoted' ('' for '), or plain (a comment
    /// after " #" left out).
    static func scalar(_ text: String, file: String) throws -> String {
        if text.hasPrefix("\"") {
            guard let data = text.data(using: .utf8), let value = try? JSONDecoder().decode(String.self, from: data) else {
                throw PindropError.invalidInput("\(file): cannot read the quoted text \(text)")
            }
            return value
        }
        if text.hasPrefix("'"), text.hasSuffix("'"), text.count >= 2 {
            return String(text.dropFirst().dropLast()).replacingOccurrences(of: "''", with: "'")
        }
        if let comment = text.range(of: " #") { return String(text[..<comment.lowerBound]).trimmingCharacters(in: .whitespaces) }
        return text
    }
}
