/// What a `Heap` holds: `precedes` is true when this element comes out before `other`.
protocol HeapOrdered {
    func precedes(_ other: Self) -> Bool
}

/// A binary heap in an array: `pop` gives the element that precedes every other.
struct Heap<Element: HeapOrdered> {
    private var items: [Element] = []

    /// An empty heap with room for `capacity` elements before it grows.
    init(capacity: Int) { items.reserveCapacity(capacity) }

    mutating func push(_ element: Element) {
        items.append(element)
        var i = items.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard items[i].precedes(items[parent]) else { break }
            items.swapAt(i, parent); i = parent
        }
    }

    mutating func pop() -> Element? {
        guard let top = items.first else { return nil }
        let last = items.removeLast()
        if !items.isEmpty {
            items[0] = last
            var i = 0
            while true {
                let l = 2 * i + 1, r = l + 1
                var m = i
                if l < items.count, items[l].precedes(items[m]) { m = l }
                if r < items.count, items[r].precedes(items[m]) { m = r }
                if m == i { break }
                items.swapAt(i, m); i = m
            }
        }
        return top
    }
}
