import PindropCore

/// Making "did you mean"'s corrections at import.
extension CorrectionForms {
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

    /// The forms of the GeoNames places of `Ranking.correctionMinimumScore` or more: made by the import and stored,
    /// as making them on the first weak search would cost that search seconds and hundreds of megabytes at scale.
    init(places: PlaceTable) {
        var hashes: [UInt64] = [], slots: [Int32] = [], folded: [UInt8] = []
        places.nameBytes.withUnsafeBufferPointer { bytes in
            for i in 0..<places.geonamesCount where places.importance(i) >= Ranking.correctionMinimumScore {
                // Folded from the stored bytes into one buffer: no String a name (a million names at ×50).
                folded.removeAll(keepingCapacity: true)
                TextFolding.fold(utf8: UnsafeBufferPointer(rebasing: bytes[Int(places.nameStart[i])..<Int(places.nameStart[i + 1])]), into: &folded)
                Self.forEachDeletionHash(folded) { hashes.append($0); slots.append(Int32(i)) }
            }
        }
        self.init(hashes: hashes, slots: slots)
    }

    /// Stored in the index, as the import makes them.
    func blobs() -> [StoredArray] {
        [StoredArray("correction.hashes", hashes), StoredArray("correction.slots", slots), StoredArray("correction.directory", directory)]
    }
}
