import PindropCore

/// "Did you mean"'s corrections (`DidYouMean`): the own names of the GeoNames places of `Ranking.correctionMinimumScore`
/// or more, under the hash of their folded name and of each form of it with one byte deleted. A text one edit from
/// such a name shares one of these forms with it (delete the differing byte from both; for a swap, one of the two
/// from each), so a weak match costs a few lookups (SymSpell) rather than a walk of the name index. Made by the
/// import (`CorrectionForms+Build`) and stored. Their hashes sorted, each with its place, and where the hashes of
/// each value of their top bits start (about one form a value, up to 2^20 values), so that a hash's run is found
/// with two reads, not the 18 of a binary search (each a cache miss in a server).
struct CorrectionForms: Sendable {
    let hashes: Column<UInt64>
    let slots: Column<Int32>
    /// directory[d] is the first form whose hash's top `directoryBits` bits are d or more.
    let directory: Column<UInt32>
    let directoryBits: Int

    init(hashes: Column<UInt64>, slots: Column<Int32>, directory: Column<UInt32>) {
        self.hashes = hashes; self.slots = slots; self.directory = directory
        directoryBits = Int.bitWidth - 1 - (directory.count - 1).leadingZeroBitCount
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
                && hashes.isAscending
                && directory.isAscending
                && (0..<(1 << bits)).allSatisfy { d in
                    (Int(directory[d])..<Int(directory[d + 1])).allSatisfy { Self.top(hashes[$0], bits) == d }
                }
        }
        guard valid else { throw .indexUnavailable("the index is corrupt: its corrections do not agree with its places; rebuild it") }
    }

    @inline(__always)
    static func top(_ hash: UInt64, _ bits: Int) -> Int { Int(hash >> UInt64(64 - bits)) }

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
}
