/// Items grouped by a key in 0 ..< keyCount, stably (a counting sort): group k is
/// order[start[k] ..< start[k + 1]], its items in their original order. Items with a negative key are left out.
func groupedByKey(_ keys: [Int], keyCount: Int) -> (start: [Int32], order: [Int32]) {
    var start = [Int32](repeating: 0, count: keyCount + 1)
    for k in keys where k >= 0 { start[k + 1] += 1 }
    for k in start.indices.dropFirst() { start[k] += start[k - 1] }
    var next = start, order = [Int32](repeating: 0, count: Int(start[keyCount]))
    for (i, k) in keys.enumerated() where k >= 0 {
        order[Int(next[k])] = Int32(i)
        next[k] += 1
    }
    return (start, order)
}
