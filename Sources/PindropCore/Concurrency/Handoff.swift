import Foundation

/// Items passed in order from a thread that makes them to one that uses them, at most `capacity` waiting: two
/// steps of an import run on two cores, the faster waits for the slower, and memory stays bounded.
public final class Handoff<Item, Failure: Error>: @unchecked Sendable {
    private let condition = NSCondition()
    private let capacity: Int
    private var items: [Item] = []
    private var finished = false, cancelled = false
    private var failure: Failure?

    /// A handoff holding at most `capacity` items at a time.
    public init(capacity: Int) { self.capacity = max(capacity, 1) }

    /// Maker: waits for room and hands `item` over; false once the user has cancelled (the maker should stop).
    public func put(_ item: Item) -> Bool {
        condition.lock(); defer { condition.unlock() }
        while items.count >= capacity && !cancelled { condition.wait() }
        guard !cancelled else { return false }
        items.append(item)
        condition.broadcast()
        return true
    }

    /// Maker: no more items. `failure`, if any, reaches the user after the items handed over before it.
    public func finish(failing failure: Failure? = nil) {
        condition.lock(); defer { condition.unlock() }
        finished = true
        self.failure = failure
        condition.broadcast()
    }

    /// User: the next item; nil after the last, or the maker's failure.
    public func take() throws(Failure) -> Item? {
        condition.lock(); defer { condition.unlock() }
        while items.isEmpty && !finished { condition.wait() }
        guard items.isEmpty else {
            condition.broadcast()
            return items.removeFirst()
        }
        if let failure { throw failure }
        return nil
    }

    /// User: takes no more; the maker's next `put` returns false.
    public func cancel() {
        condition.lock(); defer { condition.unlock() }
        cancelled = true
        items.removeAll()
        condition.broadcast()
    }
}

/// A value computed on a thread of its own, so that an import's independent steps use both cores.
public final class Background<Value>: @unchecked Sendable {
    private let condition = NSCondition()
    private var value: Value?

    /// Starts `work` now.
    public init(_ work: @escaping () -> Value) {
        nonisolated(unsafe) let work = work
        let thread = Thread { [self] in
            var result: Value? = work()
            condition.lock()
            // Swapped in, so the thread keeps no reference: the caller gets a uniquely held value to mutate.
            swap(&value, &result)
            condition.broadcast()
            condition.unlock()
        }
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// Waits for the work to end and reads its value, which stays here for other readers.
    public func read() -> Value {
        condition.lock(); defer { condition.unlock() }
        while value == nil { condition.wait() }
        return value!
    }

    /// Waits for the work to end and takes its value (once).
    public func wait() -> Value {
        condition.lock(); defer { condition.unlock() }
        while value == nil { condition.wait() }
        var taken: Value?
        swap(&taken, &value)
        return taken!
    }
}
