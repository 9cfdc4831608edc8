import PindropCore

/// Every folded name of every place, sorted, with a max-score segment tree so the best places under any
/// prefix come out in O(log n) each (`NameIndex+BestFirst`), a search of the keys by prefix (`PrefixSearch`) and
/// a trie walk over the sorted keys for typo-tolerant matches (`TypoWalk`). Built by `NameIndex+Build`.
struct NameIndex: Sendable {
    /// How a name belongs to its place; lower is better.
    enum Kind: UInt8 {
        case primary = 0, alternate = 1, innerWord = 2
        /// Subtracted from the place's importance (`Ranking.alternateNamePenalty`, `Ranking.innerWordPenalty`).
        var penalty: Float {
            switch self { case .primary: 0; case .alternate: Ranking.alternateNamePenalty; case .innerWord: Ranking.innerWordPenalty }
        }
    }

    /// Folded UTF-8 of all keys, back to back.
    var keyBytes: Column<UInt8>
    /// Entry i's key is keyBytes[keyStart[i] ..< keyStart[i] + keyLength[i]]; entries are sorted by key.
    var keyStart: Column<UInt32>
    var keyLength: Column<UInt8>
    /// The row of the place each entry names.
    var entryPlace: Column<Int32>
    var entryKind: Column<UInt8>
    /// Place importance minus the kind's penalty.
    var entryScore: Column<Float>
    /// An alternate-name entry's name as imported: the byte offset of the first of the place's alternate names that
    /// folds to the key, in the place table's alternate names (`PlaceTable.alternate`), so an answer that matched
    /// through it does not scan the place's hundreds of names; `notAtKnownOffset` for other entries. With
    /// `otherSpellings` set, later names of the place fold to the key too ("München", "Munchen"), and the one the
    /// typed text starts is looked for among them; without it, the first is the only one.
    var alternateAt: Column<UInt16>
    /// The best entry of any range (`best(in:)`): a segment tree over entryScore by blocks (`buildTree`).
    var tree: Column<TreeNode>
    /// The same over the scores with alternate names lowered (`ownNameScores`), stored in the index like `tree`.
    var ownNameTree: Column<TreeNode>
    /// First entry whose key starts with each two-byte prefix (b0 << 8 | b1; a one-byte key counts as b1 = 0):
    /// the top two levels of the trie walk without searching, where the ranges are largest. Stored, as a pass
    /// over every key at open would cost what mapping saves.
    let buckets: Column<UInt32>
    /// Every `fenceStride`-th entry's first eight key bytes (`SortedKeys.head`): a binary search over these, few
    /// enough to stay in the cache, narrows a search of the keys, each probe of which is a cache miss, to a few entries.
    let fence: Column<UInt64>

    var count: Int { entryPlace.count }

    /// From stored columns (already sorted).
    init(keyBytes: Column<UInt8>, keyStart: Column<UInt32>, keyLength: Column<UInt8>, entryPlace: Column<Int32>, entryKind: Column<UInt8>,
         entryScore: Column<Float>, alternateAt: Column<UInt16>, tree: Column<TreeNode>, ownNameTree: Column<TreeNode>, buckets: Column<UInt32>,
         fence: Column<UInt64>) {
        self.keyBytes = keyBytes; self.keyStart = keyStart; self.keyLength = keyLength
        self.entryPlace = entryPlace; self.entryKind = entryKind; self.entryScore = entryScore; self.alternateAt = alternateAt; self.tree = tree
        self.ownNameTree = ownNameTree; self.buckets = buckets; self.fence = fence
    }

    /// The keys as the searches read them, valid for the call that takes them (`SortedKeys`).
    @inline(__always)
    var keys: SortedKeys { SortedKeys(bytes: keyBytes.buffer, starts: keyStart.buffer, lengths: keyLength.buffer) }

    /// Entry e's folded key.
    func key(_ e: Int) -> Slice<Column<UInt8>> {
        let start = Int(keyStart[e])
        return keyBytes[start..<(start + Int(keyLength[e]))]
    }

    static let bucketCount = 65_537

    /// `alternateAt` of an entry that is not an alternate name the place table keeps (or lies past 32,766 bytes).
    static let notAtKnownOffset = UInt16.max
    /// The bit of `alternateAt` that says other spellings of the key follow; the offset is the other 15 bits.
    static let otherSpellings: UInt16 = 0x8000
    /// The largest offset `alternateAt` keeps: 0x7FFF with `otherSpellings` set would read as `notAtKnownOffset`.
    static let largestKnownOffset: UInt16 = otherSpellings - 2

    /// Entry e's score, with an alternate name lowered when own names come first (`Ranking.alternateDemotion`).
    @inline(__always)
    func score(_ e: Int, ownNamesFirst: Bool) -> Float {
        ownNamesFirst && entryKind[e] == Kind.alternate.rawValue ? entryScore[e] - Ranking.alternateDemotion : entryScore[e]
    }

    /// Entries under one leaf of the trees. A range's ends are read entry by entry up to a block's edge, so a tree
    /// holds two nodes a block instead of two an entry: 1/16 of the memory, and of the pages a query touches.
    static let treeBlock = 16

    /// The leaves of a tree over `entries` entries: one a block, the last one maybe part full.
    static func treeLeaves(forEntries entries: Int) -> Int { (entries + treeBlock - 1) / treeBlock }

    /// A node of the segment trees: the best entry below it, and that entry's score as the tree ranks it, so that a
    /// walk compares nodes without reading the entries they name (each a cache miss of its own).
    struct TreeNode: BitwiseCopyable {
        var entry: Int32
        var score: Float
    }

    /// Entries between two fence entries.
    static let fenceStride = 16

    /// Fence entries an index of `entries` name entries has.
    static func fenceCount(forEntries entries: Int) -> Int { (entries + fenceStride - 1) / fenceStride }
}
