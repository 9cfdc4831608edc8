import Foundation
import PindropImport

/// Answers stdin line by line on every core and writes the answers to stdout in input order (JSON Lines).
enum BatchRunner {
    /// Lines answered per round; each round is split across the cores, then written in order.
    static let linesPerRound = 16_384

    static func run(_ answer: @escaping @Sendable (String) -> [UInt8]) throws {
        let reader = try LineReader(fileDescriptor: 0)
        var lines: [String] = []
        lines.reserveCapacity(linesPerRound)
        func flush() {
            guard !lines.isEmpty else { return }
            let workers = min(ProcessInfo.processInfo.activeProcessorCount, max(1, lines.count / 256))
            let outputs = OutputSlots(count: workers)
            let batch = lines
            DispatchQueue.concurrentPerform(iterations: workers) { w in
                let slice = batch.count * w / workers ..< batch.count * (w + 1) / workers
                var bytes: [UInt8] = []
                bytes.reserveCapacity(slice.count * 300)
                for i in slice {
                    bytes.append(contentsOf: answer(batch[i]))
                    bytes.append(0x0A)
                }
                outputs.set(w, bytes)
            }
            for w in 0..<workers { Terminal.write(outputs.get(w)) }
            lines.removeAll(keepingCapacity: true)
        }
        try reader.forEachLine { line in
            var text = String(decoding: line, as: UTF8.self)
            if text.hasSuffix("\r") { text.removeLast() }
            lines.append(text)
            if lines.count == linesPerRound { flush() }
            return true
        }
        flush()
    }
}

/// One output buffer per worker; each worker writes only its own slot.
private final class OutputSlots: @unchecked Sendable {
    private var slots: [[UInt8]]
    private let lock = NSLock()
    init(count: Int) { slots = Array(repeating: [], count: count) }
    func set(_ i: Int, _ bytes: [UInt8]) { lock.lock(); slots[i] = bytes; lock.unlock() }
    func get(_ i: Int) -> [UInt8] { lock.lock(); defer { lock.unlock() }; return slots[i] }
}
