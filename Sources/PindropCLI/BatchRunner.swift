import Foundation
import PindropCore

/// Answers stdin line by line on every core and writes the answers to stdout in input order (JSON Lines).
/// Input is read in large blocks, each cut at line ends into one part per core, so reading, answering and
/// formatting all run in parallel; only the final write is serial.
enum BatchRunner {
    /// Bytes read per round.
    static let blockSize = 4 << 20

    /// How many workers answer at once (`answer` gets its worker's number, below this).
    static let workerCount = ProcessInfo.processInfo.activeProcessorCount

    /// Calls `answer` with the worker's number, each line's bytes (no line end) and a buffer to append that
    /// line's JSON to.
    static func run(_ answer: @escaping @Sendable (Int, UnsafeBufferPointer<UInt8>, inout [UInt8]) -> Void) throws {
        var pending: [UInt8] = []
        var block = [UInt8](repeating: 0, count: blockSize)
        while true {
            let n = block.withUnsafeMutableBytes { read(0, $0.baseAddress!, blockSize) }
            if n < 0 { throw PindropError.unreadableData("cannot read standard input (errno \(errno))") }
            if n == 0 {
                if !pending.isEmpty { pending.append(0x0A); answerLines(pending, answer) }
                return
            }
            pending.append(contentsOf: block[0..<n])
            guard let lastNewline = pending.lastIndex(of: 0x0A) else { continue }
            answerLines(Array(pending[...lastNewline]), answer)
            pending.removeFirst(lastNewline + 1)
        }
    }

    /// Answers a chunk of whole lines (ending in a newline) in parallel and writes the output in order.
    private static func answerLines(_ chunk: [UInt8], _ answer: @Sendable (Int, UnsafeBufferPointer<UInt8>, inout [UInt8]) -> Void) {
        let workers = min(workerCount, max(1, chunk.count / 65_536))
        // Cut points at line ends, one part per worker.
        var cutPoints = [0]
        for w in 1..<max(workers, 1) {
            var i = chunk.count * w / workers
            while i < chunk.count, chunk[i - 1] != 0x0A { i += 1 }
            cutPoints.append(max(i, cutPoints.last!))
        }
        cutPoints.append(chunk.count)
        let cuts = cutPoints
        let outputs = OutputSlots(count: workers)
        DispatchQueue.concurrentPerform(iterations: workers) { w in
            var out: [UInt8] = []
            out.reserveCapacity((cuts[w + 1] - cuts[w]) * 12)
            chunk.withUnsafeBufferPointer { bytes in
                var start = cuts[w]
                for i in cuts[w]..<cuts[w + 1] where bytes[i] == 0x0A {
                    var end = i
                    if end > start, bytes[end - 1] == 0x0D { end -= 1 }
                    answer(w, UnsafeBufferPointer(rebasing: bytes[start..<end]), &out)
                    out.append(0x0A)
                    start = i + 1
                }
            }
            outputs.set(w, out)
        }
        for w in 0..<workers { Terminal.write(outputs.get(w)) }
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

/// Parses "lat,lon", "lat lon" or "lat, lon" from bytes without making strings; nil when it is not exactly
/// two numbers (the caller then reports the line through the normal, validating path).
func parsePoint(_ line: UnsafeBufferPointer<UInt8>) -> (Double, Double)? {
    var numbers: [Double] = []
    var i = 0
    while i < line.count {
        while i < line.count, line[i] == 0x2C || line[i] == 0x20 || line[i] == 0x09 { i += 1 }
        guard i < line.count else { break }
        var j = i
        while j < line.count, line[j] != 0x2C, line[j] != 0x20, line[j] != 0x09 { j += 1 }
        guard j - i < 40, numbers.count < 2 else { return nil }
        let value: Double? = plainDecimal(line, i, j) ?? withUnsafeTemporaryAllocation(of: CChar.self, capacity: 41) { text in
            for k in i..<j { text[k - i] = CChar(bitPattern: line[k]) }
            text[j - i] = 0
            var end: UnsafeMutablePointer<CChar>?
            let v = strtod(text.baseAddress!, &end)
            return end == text.baseAddress! + (j - i) && v.isFinite ? v : nil
        }
        guard let value else { return nil }
        numbers.append(value)
        i = j
    }
    return numbers.count == 2 ? (numbers[0], numbers[1]) : nil
}

private let powersOfTen: [Double] = (0...15).map { pow(10, Double($0)) }

/// A plain decimal ("-12.34567": sign, at most 15 digits, one point, no exponent) from `line[from..<to]`, or nil.
/// Mantissa and power of ten are both exact doubles, so the one division rounds exactly as strtod does
/// (Clinger's fast path), without strtod's copying and locale work.
private func plainDecimal(_ line: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int) -> Double? {
    var i = from, negative = false
    if i < to, line[i] == 0x2D || line[i] == 0x2B { negative = line[i] == 0x2D; i += 1 }
    var mantissa: UInt64 = 0, digits = 0, fractionDigits = 0, sawPoint = false
    while i < to {
        let c = line[i]
        if c >= 0x30, c <= 0x39 {
            mantissa = mantissa &* 10 &+ UInt64(c - 0x30)
            digits += 1
            if sawPoint { fractionDigits += 1 }
        } else if c == 0x2E, !sawPoint {
            sawPoint = true
        } else {
            return nil
        }
        i += 1
    }
    guard digits > 0, digits <= 15 else { return nil }
    let value = Double(mantissa) / powersOfTen[fractionDigits]
    return negative ? -value : value
}
