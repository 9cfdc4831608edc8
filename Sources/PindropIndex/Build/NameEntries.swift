import PindropCore

/// Name entries being collected, before sorting into a `NameIndex`.
struct NameEntries {
    var keys: [UInt8]
    var starts: [UInt32] = [], lengths: [UInt8] = [], owners: [Int32] = [], kinds: [UInt8] = [], scores: [Float] = []
    /// Where each alternate name lies in its place's alternate names (`NameIndex.alternateAt`).
    var alternateAt: [UInt16] = []

    /// Adds one folded name of a place, once per place (an alternate name at `at` in the place's alternate names).
    private mutating func add(_ bytes: ArraySlice<UInt8>, place: Int, kind: NameIndex.Kind, importance: Float,
                              at: UInt16 = NameIndex.notAtKnownOffset) {
        guard !bytes.isEmpty, bytes.count <= Self.maxKeyBytes else { return }
        // Each name once per place: the row's keys so far are told apart by a hash (FNV-1a), then by their bytes
        // (no set of arrays, whose copies cost an allocation a name).
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        for (seenHash, entry) in rowKeys where seenHash == hash {
            let e = Int(entry), start = Int(starts[e])
            guard keys[start..<(start + Int(lengths[e]))].elementsEqual(bytes) else { continue }
            // Another spelling of an alternate name the place has ("Munchen" after "München"): the answer picks
            // among them by the typed text, so it must know to look past the first.
            if kind == .alternate, alternateAt[e] != NameIndex.notAtKnownOffset { alternateAt[e] |= NameIndex.otherSpellings }
            return
        }
        rowKeys.append((hash, Int32(starts.count)))
        starts.append(UInt32(keys.count))
        keys.append(contentsOf: bytes)
        lengths.append(UInt8(bytes.count))
        owners.append(Int32(place))
        kinds.append(kind.rawValue)
        scores.append(importance - kind.penalty)
        alternateAt.append(at)
    }

    /// Scratch space of a row's names, kept between rows: the folded name, and the hash and entry of each key the
    /// row has.
    var folded: [UInt8] = [], rowKeys: [(hash: UInt64, entry: Int32)] = []

    /// Folds and adds one row's names: each once, alternates that are names (not links), and the later words of
    /// its primary names, so "york" finds "New York" (ranked below names that start so).
    mutating func addRow(primary: [String], alternate: [String], place: Int, importance: Float) {
        startRow()
        for name in primary { addPrimary(name, place: place, importance: importance) }
        for var name in alternate {
            name.withUTF8 { if Self.isName(utf8: $0) { addAlternate(utf8: $0, at: nil, place: place, importance: importance) } }
        }
    }

    /// Starts a row's names (`addRow` in parts, for a row whose alternate names are bytes already).
    mutating func startRow() { rowKeys.removeAll(keepingCapacity: true) }

    /// A primary name of the row, and its later words.
    mutating func addPrimary(_ name: String, place: Int, importance: Float) {
        folded.removeAll(keepingCapacity: true)
        TextFolding.fold(name, into: &folded)
        add(folded[...], place: place, kind: .primary, importance: importance)
        for (j, byte) in folded.enumerated() where byte == 0x20 {
            add(folded[(j + 1)...], place: place, kind: .innerWord, importance: importance)
        }
    }

    /// An alternate name of the row that is a name (`Self.isName`), as UTF-8, `offset` bytes into the row's
    /// alternate names in the place table (nil when the table does not keep them).
    mutating func addAlternate(utf8 name: UnsafeBufferPointer<UInt8>, at offset: Int?, place: Int, importance: Float) {
        folded.removeAll(keepingCapacity: true)
        TextFolding.fold(utf8: name, into: &folded)
        let at = offset.flatMap { $0 <= Int(NameIndex.largestKnownOffset) ? UInt16($0) : nil } ?? NameIndex.notAtKnownOffset
        add(folded[...], place: place, kind: .alternate, importance: importance, at: at)
    }

    /// Folds and adds the names of the rows of `places`, the index's rows firstRow, firstRow + 1, ... (one tuple each),
    /// as name entries.
    mutating func addRows(_ rowNames: [(primary: [String], alternate: [String])], firstRow: Int, places: PlaceTable) {
        for (n, row) in rowNames.enumerated() {
            addRow(primary: row.primary, alternate: row.alternate, place: firstRow + n, importance: places.importance(n))
        }
    }

    /// Longest folded name kept, in bytes (longer "names" in the dumps are descriptions, not names).
    static let maxKeyBytes = 120

    /// Whether an alternate name in the dumps (its UTF-8) is a name: some are links to articles, which hold "http".
    /// A byte search answers nearly every name (a search by Characters is far slower); only a byte hit is confirmed
    /// by a search of the text, so that which names count is exactly what the text search says.
    static func isName(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count >= 4 else { return true }
        for i in 0...(bytes.count - 4) where bytes[i] == 0x68 && bytes[i + 1] == 0x74 && bytes[i + 2] == 0x74 && bytes[i + 3] == 0x70 {
            return !String(decoding: bytes, as: UTF8.self).contains("http")
        }
        return true
    }

    func index() -> NameIndex {
        NameIndex(keys: keys, starts: starts, lengths: lengths, places: owners, kinds: kinds, scores: scores, alternateAt: alternateAt)
    }
}
