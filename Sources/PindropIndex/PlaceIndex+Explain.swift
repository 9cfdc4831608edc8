import Foundation
import PindropCore

/// "Did you mean" and "why this result": what the index can say about an answer beyond its places.
extension PlaceIndex {
    /// The best as-typed match is weak below the score of a place of 1,000 people (log2 units, as
    /// `PlaceTable.importance`, name term included): a hamlet, a place of unknown population, a street-level row...
    static let weakMatchScore = Float(log2(1000.0 + 100))
    /// ...when a one-edit spelling's best match scores at least this much more: 8 log2 units, 256 times the people
    /// ("Warsow", a German village of 718 → Warsaw). Bigger places matched as typed are answers, not slips.
    static let weakMatchGap: Float = 8

    /// The text the user probably meant, or nil. When `found` are typo matches (the text matched nothing as typed),
    /// the first one's name as written. When they are as-typed matches of text of 5+ letters whose best is weak
    /// (`weakMatchScore`), the own name of the best place one edit away (`correctionForms`), if it scores
    /// `weakMatchGap` more ("Warsow" → "Warsaw"). The text after the first comma is kept: "Helsinik, Finland" →
    /// "Helsinki, Finland".
    func didYouMean(_ found: [Candidate], key: [UInt8], mode: Mode, text: String, accept: (Int32) -> Bool) -> String? {
        guard let first = found.first else { return nil }
        // Found by its byte (a comma is one): a search by Characters cost more than the rest of this check.
        var rest: String { text.utf8.firstIndex(of: UInt8(ascii: ",")).map { String(text[$0...]) } ?? "" }
        if isTypo(first, key: key) { return writtenName(first, typed: text) + rest }
        // Nearness does not make a match strong: compare what the names alone are worth.
        let best = found.reduce(-Float.infinity) { max($0, $1.score - $1.distanceTerm) }
        guard best < Self.weakMatchScore, Self.letterCount(key) >= 5 else { return nil }
        let forms = corrections
        var better: (slot: Int, score: Float)?
        // Every form's run asked for before any is read: the table is megabytes, so each is a cache miss, and
        // misses asked for together are waited for together.
        let hashes = Self.deletionHashes(key)
        for hash in hashes { forms.prefetchDirectory(hash) }
        for hash in hashes { forms.prefetchRun(hash) }
        for hash in hashes {
            for i in forms.run(of: hash) {
                let slot = Int(forms.slots[i]), score = places.importance(slot)
                guard score >= best + Self.weakMatchGap, score > better?.score ?? -.infinity, accept(Int32(slot)),
                      TypoEdit.between(typed: key, name: Array(TextFolding.fold(places.name(slot)).utf8)) != nil else { continue }
                better = (slot, score)
            }
        }
        return better.map { places.name($0.slot) + rest }
    }

    /// Places of at least this many people are what a weak match may be corrected to: 256 times a place of unknown
    /// population (counted as 100), so `weakMatchGap` over any own-name match.
    static let correctionMinimumScore = Float(log2(25_000.0 + 100))

    /// The GeoNames places of `correctionMinimumScore` or more, under the hash of their folded own name and of each
    /// form of it with one byte deleted. A text one edit from such a name shares one of these forms with it (delete
    /// the differing byte from both; for a swap, one of the two from each), so a weak match costs a few lookups
    /// (SymSpell) rather than a walk of the name index, which tripled the time of searches for small places.
    /// 23,000 places, 230,000 forms, 3.7 MB at ×1; made by the import and stored (made on first use, they cost the
    /// first weak search at ×50 two seconds and 600 MB).
    static func correctionForms(of places: PlaceTable) -> CorrectionForms {
        var hashes: [UInt64] = [], slots: [Int32] = [], folded: [UInt8] = []
        places.nameBytes.withUnsafeBufferPointer { bytes in
            for i in 0..<places.geonamesCount where places.importance(i) >= Self.correctionMinimumScore {
                // Folded from the stored bytes into one buffer: no String a name (a million names at ×50).
                folded.removeAll(keepingCapacity: true)
                TextFolding.fold(utf8: UnsafeBufferPointer(rebasing: bytes[Int(places.nameStart[i])..<Int(places.nameStart[i + 1])]), into: &folded)
                forEachDeletionHash(folded) { hashes.append($0); slots.append(Int32(i)) }
            }
        }
        return CorrectionForms(hashes: hashes, slots: slots)
    }

    /// FNV-1a hashes of `key` and of each form of it with one byte deleted.
    static func deletionHashes(_ key: [UInt8]) -> [UInt64] {
        var hashes: [UInt64] = []
        forEachDeletionHash(key) { hashes.append($0) }
        return hashes
    }

    /// `deletionHashes`, handed to `body` one by one.
    static func forEachDeletionHash(_ key: [UInt8], _ body: (UInt64) -> Void) {
        for skip in -1..<key.count {
            var h: UInt64 = 0xcbf2_9ce4_8422_2325
            for (i, byte) in key.enumerated() where i != skip { h = (h ^ UInt64(byte)) &* 0x100_0000_01b3 }
            body(h)
        }
    }

    /// The name a candidate's entry is, as written: the place's own name, the alternate name as imported, or the
    /// later words of its name for an inner word ("York" of "New York"); the folded key when none folds to it.
    func writtenName(_ c: Candidate, typed: String) -> String {
        let key = entryKey(c.entry), name = places.name(c.slot)
        switch NameIndex.Kind(rawValue: names.entryKind[c.entry]) {
        case .alternate:
            return places.alternate(c.slot, at: names.alternateAt[c.entry], foldedAs: key[...], typed: typed) ?? String(decoding: key, as: UTF8.self)
        case .innerWord:
            var i = name.startIndex
            while let space = name[i...].firstIndex(where: { !$0.isLetter && !$0.isNumber }) {
                i = name.index(after: space)
                if TextFolding.fold(name[i...]).utf8.elementsEqual(key) { return String(name[i...]) }
            }
            return String(decoding: key, as: UTF8.self)
        default:
            return name
        }
    }

    /// Why candidate `c`, found for the folded `key` in `mode`, ranked where it did: the terms `rank` kept on it.
    func explanation(_ c: Candidate, key: [UInt8], mode: Mode, typed: String, distanceMeters: Double?) -> MatchExplanation {
        let matched = entryKey(c.entry)
        let match: MatchExplanation.Match = isTypo(c, key: key) ? .typo : (matched == key ? .exact : .prefix)
        let nameKind: MatchExplanation.NameKind = switch NameIndex.Kind(rawValue: names.entryKind[c.entry]) {
        case .alternate: .alternate
        case .innerWord: .innerWord
        default: .name
        }
        let row = places.rowKind(c.slot)
        return MatchExplanation(
            match: match, nameKind: nameKind, text: String(decoding: key, as: UTF8.self), matchedName: writtenName(c, typed: typed),
            edit: match == .typo ? TypoEdit.describe(typed: key, matched: matched, asPrefix: mode == .suggest) : nil,
            rowKind: row.placeKind, population: Int(places.population[c.slot]), importance: Double(c.importance),
            kindBonus: Double(row.bonus), nameTerm: Double(c.nameTerm), distanceMeters: distanceMeters,
            distanceTerm: distanceMeters == nil ? nil : Double(c.distanceTerm), tier: c.tier, score: Double(c.score))
    }

    /// Whether candidate `c` matched `key` only through a typo: a typo range's, or a whole name one likely slip
    /// away that search ranks among the prefixes ("Wawr" → Wawer).
    func isTypo(_ c: Candidate, key: [UInt8]) -> Bool {
        guard c.tier >= 2 else { return true }
        // Read where the key lies (every answer asks this of its first result): a copy of it cost an array.
        let start = Int(names.keyStart[c.entry])
        return !names.keyBytes[start..<(start + Int(names.keyLength[c.entry]))].starts(with: key)
    }

    /// The folded key of a name entry.
    private func entryKey(_ entry: Int) -> [UInt8] {
        let start = Int(names.keyStart[entry])
        return Array(names.keyBytes[start..<(start + Int(names.keyLength[entry]))])
    }
}

/// How typed text differs from the name it was matched to, as a person reads it.
extension TypoEdit {
    /// The edits from `matched` to `typed` (folded UTF-8), in reading order: "'y' for 'i'" (typed y where the name
    /// has i), "missing 'l'", "extra 'x'", "swapped 'ki'" (the name's two letters), joined by ", ". With `asPrefix`,
    /// against the start of `matched` the text is closest to (the longest of equals), as a suggestion matches.
    static func describe(typed: [UInt8], matched: [UInt8], asPrefix: Bool) -> String {
        let a = Array(String(decoding: typed, as: UTF8.self).unicodeScalars)
        let b = Array(String(decoding: matched, as: UTF8.self).unicodeScalars)
        let n = a.count, m = b.count
        // Optimal string alignment: d[i][j] edits between a[..<i] and b[..<j], as the index's walk counts them.
        var d = (0...n).map { i in (0...m).map { j in i == 0 ? j : (j == 0 ? i : 0) } }
        for i in stride(from: 1, through: n, by: 1) {
            for j in stride(from: 1, through: m, by: 1) {
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
            }
        }
        var j = m
        if asPrefix { for k in stride(from: m, through: 0, by: -1) where d[n][k] < d[n][j] { j = k } }
        // Back from the end, naming each edit the distance took.
        var i = n, edits: [String] = []
        while i > 0 || j > 0 {
            if i > 0, j > 0, a[i - 1] == b[j - 1], d[i][j] == d[i - 1][j - 1] {
                i -= 1; j -= 1
            } else if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1], d[i][j] == d[i - 2][j - 2] + 1 {
                edits.append("swapped '\(b[j - 2])\(b[j - 1])'"); i -= 2; j -= 2
            } else if i > 0, j > 0, d[i][j] == d[i - 1][j - 1] + 1 {
                edits.append("'\(a[i - 1])' for '\(b[j - 1])'"); i -= 1; j -= 1
            } else if j > 0, d[i][j] == d[i][j - 1] + 1 {
                edits.append("missing '\(b[j - 1])'"); j -= 1
            } else {
                edits.append("extra '\(a[i - 1])'"); i -= 1
            }
        }
        return edits.reversed().joined(separator: ", ")
    }
}

/// The forms of `PlaceIndex.correctionForms`: their hashes sorted, each with its place, and where the hashes of
/// each value of their top bits start (about one form a value, up to 2^20 values), so that a hash's run is found
/// with two reads, not the 18 of a binary search (each a cache miss in a server).
struct CorrectionForms: Sendable {
    let hashes: Column<UInt64>
    let slots: Column<Int32>
    /// directory[d] is the first form whose hash's top `directoryBits` bits are d or more.
    let directory: Column<UInt32>
    let directoryBits: Int

    /// The forms (`hashes[i]` of place `slots[i]`) in hash order, of equal hashes in the order given: placed by
    /// their top bits, as the directory counts them, then each directory run sorted (a run holds about one form),
    /// not a sort of them all.
    init(hashes given: [UInt64], slots givenSlots: [Int32]) {
        let bits = min(20, max(8, Int.bitWidth - given.count.leadingZeroBitCount))
        var directory = [UInt32](repeating: 0, count: (1 << bits) + 1)
        for hash in given { directory[Self.top(hash, bits) + 1] += 1 }
        for d in 1..<directory.count { directory[d] += directory[d - 1] }
        var next = directory
        var hashes = [UInt64](repeating: 0, count: given.count), slots = [Int32](repeating: 0, count: given.count)
        for (hash, slot) in zip(given, givenSlots) {
            let d = Self.top(hash, bits), at = Int(next[d])
            hashes[at] = hash; slots[at] = slot
            next[d] += 1
        }
        for d in 0..<(1 << bits) where directory[d + 1] - directory[d] > 1 {
            // Insertion sort: stable, and the runs are short.
            let first = Int(directory[d])
            for i in (first + 1)..<Int(directory[d + 1]) {
                let (hash, slot) = (hashes[i], slots[i])
                var j = i
                while j > first, hashes[j - 1] > hash { hashes[j] = hashes[j - 1]; slots[j] = slots[j - 1]; j -= 1 }
                hashes[j] = hash; slots[j] = slot
            }
        }
        self.init(hashes: Column(hashes), slots: Column(slots), directory: Column(directory))
    }

    private init(hashes: Column<UInt64>, slots: Column<Int32>, directory: Column<UInt32>) {
        self.hashes = hashes; self.slots = slots; self.directory = directory
        directoryBits = Int.bitWidth - 1 - (directory.count - 1).leadingZeroBitCount
    }

    /// Stored in the index, as the import makes them.
    func blobs() -> [StoredArray] {
        [StoredArray("correction.hashes", hashes), StoredArray("correction.slots", slots), StoredArray("correction.directory", directory)]
    }

    /// From the stored columns; `verify` checks every value (as the import does): each slot a GeoNames place, the
    /// hashes in order, each under its directory entry.
    init(_ file: MappedStructures, geonamesCount: Int, verify: Bool) throws(PindropError) {
        self.init(hashes: try file.column("correction.hashes"), slots: try file.column("correction.slots"),
                  directory: try file.column("correction.directory"))
        let bits = directoryBits
        var valid = (8...20).contains(bits) && directory.count == (1 << bits) + 1 && hashes.count == slots.count
            && directory.first == 0 && Int(directory.last ?? 0) == hashes.count
        if valid, verify {
            valid = slots.allSatisfy { $0 >= 0 && Int($0) < geonamesCount }
                && zip(hashes, hashes.dropFirst()).allSatisfy { $0 <= $1 }
                && zip(directory, directory.dropFirst()).allSatisfy { $0 <= $1 }
                && (0..<(1 << bits)).allSatisfy { d in
                    (Int(directory[d])..<Int(directory[d + 1])).allSatisfy { Self.top(hashes[$0], bits) == d }
                }
        }
        guard valid else { throw .indexUnavailable("the index is corrupt: its corrections do not agree with its places; rebuild it") }
    }

    @inline(__always)
    private static func top(_ hash: UInt64, _ bits: Int) -> Int { Int(hash >> UInt64(64 - bits)) }

    /// Starts loading where `hash`'s run lies...
    func prefetchDirectory(_ hash: UInt64) { directory.prefetch(Self.top(hash, directoryBits)) }

    /// ...then the run.
    func prefetchRun(_ hash: UInt64) {
        let i = Int(directory[Self.top(hash, directoryBits)])
        hashes.prefetch(i); slots.prefetch(i)
    }

    /// The forms whose hash is `hash`.
    func run(of hash: UInt64) -> Range<Int> {
        let d = Self.top(hash, directoryBits)
        let end = Int(directory[d + 1])
        var i = Int(directory[d])
        while i < end, hashes[i] < hash { i += 1 }
        var j = i
        while j < end, hashes[j] == hash { j += 1 }
        return i..<j
    }
}
