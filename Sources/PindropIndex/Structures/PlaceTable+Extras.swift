import Foundation
import PindropCore

/// A row's extras (an OpenStreetMap row's id, category and address, as `PlaceTable.appendExtras` writes them) and
/// alternate names, read where they lie.
extension PlaceTable {
    /// The alternate name of row i, as imported, whose folded form is `key`; of several ("Munchen", "München"),
    /// the one written as `typed` starts; nil when none is. `at` is where the first such name lies in the row's
    /// alternate names when the name index knows it (`NameIndex.alternateAt`): the names before it are not read,
    /// nor those after it when it is the only one.
    func alternate(_ i: Int, at: UInt16, foldedAs key: some Collection<UInt8>, typed: String) -> String? {
        guard i + 1 < alternateStart.count else { return nil }
        var folded: [UInt8] = []
        var first: String?
        lazy var lowercased = typed.lowercased()
        let rowStart = Int(alternateStart[i]), end = Int(alternateStart[i + 1])
        let known = at != NameIndex.notAtKnownOffset, offset = Int(at & ~NameIndex.otherSpellings)
        let onlySpelling = known && at & NameIndex.otherSpellings == 0
        return alternateBytes.withUnsafeBufferPointer { all in
            // A known offset out of the row's names (a damaged file) reads them all, as an unknown one does.
            var start = known && offset < end - rowStart ? rowStart + offset : rowStart
            // Name by name, without splitting them all first: a big city has hundreds, and most differ from the key
            // in their first letters. Each is folded from its bytes; a String is made only of one that matches.
            while start < end {
                let stop = memchr(all.baseAddress! + start, 0x1F, end - start).map { UnsafeRawPointer($0) - UnsafeRawPointer(all.baseAddress!) } ?? end
                let name = UnsafeBufferPointer(rebasing: all[start..<stop])
                start = stop + 1
                if name.isEmpty || TextFolding.foldedStart(of: name, differsFrom: key) { continue }
                folded.removeAll(keepingCapacity: true)
                TextFolding.fold(utf8: name, into: &folded)
                guard folded.elementsEqual(key) else { continue }
                let text = String(decoding: name, as: UTF8.self)
                if onlySpelling || text.lowercased().hasPrefix(lowercased) { return text }
                first = first ?? text
            }
            return first
        }
    }

    /// An OpenStreetMap row's category alone (the second field of its extras, as `extras(_:)` reads it), without
    /// making strings of the other ten.
    func category(_ i: Int) -> String? {
        let range = Int(extraStart[i])..<Int(extraStart[i + 1])
        return extraBytes.withUnsafeBufferPointer { all in
            let bytes = UnsafeBufferPointer(rebasing: all[range])
            guard let end = bytes.firstIndex(of: 0x1F) else { return nil }
            let rest = UnsafeBufferPointer(rebasing: bytes[(end + 1)...])
            let field = UnsafeBufferPointer(rebasing: rest[..<(rest.firstIndex(of: 0x1F) ?? rest.endIndex)])
            return field.isEmpty ? nil : String(decoding: field, as: UTF8.self)
        }
    }

    /// An OpenStreetMap row's extras: id, category, the key it is a value of, address, tags and box.
    func extras(_ i: Int) -> PlaceExtras? {
        let range = Int(extraStart[i])..<Int(extraStart[i + 1])
        guard !range.isEmpty else { return nil }
        // The fields between separators, an empty one nil, read in one pass into space on the stack: opening an
        // index reads every street-level row's, and each street-level answer its own (no arrays of parts).
        return extraBytes.withUnsafeBufferPointer { all in
            let bytes = UnsafeBufferPointer(rebasing: all[range])
            return withUnsafeTemporaryAllocation(of: String?.self, capacity: Self.extraFieldCount) { fields in
                fields.initialize(repeating: nil)
                defer { _ = fields.deinitialize() }
                var n = 0, start = 0
                for j in 0...bytes.count where j == bytes.count || bytes[j] == PlaceExtras.fieldSeparator {
                    guard n < Self.extraFieldCount else { return nil }
                    if j > start { fields[n] = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<j]), as: UTF8.self) }
                    n += 1
                    start = j + 1
                }
                guard n == Self.extraFieldCount, let id = fields[0] else { return nil }
                return PlaceExtras(fields: UnsafeBufferPointer(fields), id: id)
            }
        }
    }

    /// The fields of an OpenStreetMap row's extras, as `appendExtras` writes them.
    static let extraFieldCount = PlaceExtras.fieldCount
}
