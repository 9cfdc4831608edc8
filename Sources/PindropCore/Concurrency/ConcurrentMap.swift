import Dispatch

// `SendableMetatype`: the cores read the elements through the collection's type.
extension RandomAccessCollection where Index == Int, Self: SendableMetatype {
    /// `transform` of each element, in order, with the elements shared out among the cores in chunks: for an
    /// import's independent lookups per row. `transform` must only read what it shares.
    @inlinable
    public func concurrentMap<Result>(_ transform: (Element) -> Result) -> [Result] {
        let n = count, first = startIndex
        let chunk = Swift.max(1, (n + 63) / 64)
        // Each result is made in its place in the array: one array of n, not one of optionals and its copy.
        return withoutActuallyEscaping(transform) { transform in
            [Result](unsafeUninitializedCapacity: n) { out, initialized in
                nonisolated(unsafe) let out = out, transform = transform, items = self
                DispatchQueue.concurrentPerform(iterations: (n + chunk - 1) / chunk) { c in
                    for i in (c * chunk)..<Swift.min(n, (c + 1) * chunk) {
                        (out.baseAddress! + i).initialize(to: transform(items[first + i]))
                    }
                }
                initialized = n
            }
        }
    }
}

extension Array where Element: BitwiseCopyable {
    /// self[order[0]], self[order[1]], ...: a gather that reads all over `self`, so the cores take chunks of `order`.
    @inlinable
    public func gathered(at order: [Int32]) -> [Element] {
        let n = order.count, chunk = Swift.max(1, (n + 63) / 64)
        return [Element](unsafeUninitializedCapacity: n) { out, count in
            withUnsafeBufferPointer { values in
                order.withUnsafeBufferPointer { order in
                    nonisolated(unsafe) let (out, values, order) = (out, values, order)
                    DispatchQueue.concurrentPerform(iterations: (n + chunk - 1) / chunk) { c in
                        for i in (c * chunk)..<Swift.min(n, (c + 1) * chunk) { out[i] = values[Int(order[i])] }
                    }
                }
            }
            count = n
        }
    }
}
