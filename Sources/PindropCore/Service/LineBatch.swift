import Foundation

/// Runs a batch: input read in large blocks, each cut at line ends into one part per core, every part answered
/// at once, and the answers written in input order. Reading and answering are parallel; only writing is serial.
enum LineBatch {
    /// Bytes read per round.
    static let blockSize = 4 << 20

    /// How many workers answer at once.
    static let workerCount = ProcessInfo.processInfo.activeProcessorCount

    /// What a worker is given: its number, a part of the input (whole lines, each ending in a newline) and the
    /// number of the part's first line in the whole input (1 for the first).
    typealias Answer = @Sendable (_ worker: Int, _ part: ArraySlice<UInt8>, _ firstLine: Int) async -> [UInt8]

    /// Reads everything `read` gives (it fills a buffer and returns the bytes read, 0 at the end, negative on
    /// failure), calls `answer` for each part, and hands each part's output to `write` in input order.
    static func run(read: (UnsafeMutableRawBufferPointer) -> Int, write: ([UInt8]) -> Void, answer: @escaping Answer) async throws {
        var pending: [UInt8] = []
        var block = [UInt8](repeating: 0, count: blockSize)
        var linesBefore = 0
        while true {
            let n = block.withUnsafeMutableBytes { read($0) }
            if n < 0 { throw PindropError.unreadableData("cannot read the batch input") }
            if n == 0 {
                if !pending.isEmpty { pending.append(0x0A); await answerParts(pending, after: linesBefore, write: write, answer: answer) }
                return
            }
            pending.append(contentsOf: block[0..<n])
            guard let lastNewline = pending.lastIndex(of: 0x0A) else { continue }
            linesBefore = await answerParts(Array(pending[...lastNewline]), after: linesBefore, write: write, answer: answer)
            pending.removeFirst(lastNewline + 1)
        }
    }

    /// Answers a chunk of whole lines, one part per worker, and writes the parts' output in order; returns the
    /// lines read so far (`linesBefore` and the chunk's).
    @discardableResult
    private static func answerParts(_ chunk: [UInt8], after linesBefore: Int, write: ([UInt8]) -> Void,
                                    answer: @escaping Answer) async -> Int {
        let workers = min(workerCount, max(1, chunk.count / 65_536))
        var cuts = [0]
        for w in 1..<max(workers, 1) {
            var i = chunk.count * w / workers
            while i < chunk.count, chunk[i - 1] != 0x0A { i += 1 }
            cuts.append(max(i, cuts.last!))
        }
        cuts.append(chunk.count)
        let bounds = cuts
        var firstLines = [linesBefore + 1]
        for w in 0..<workers { firstLines.append(firstLines[w] + chunk[bounds[w]..<bounds[w + 1]].count(where: { $0 == 0x0A })) }
        let starts = firstLines
        let outputs = await withTaskGroup(of: (Int, [UInt8]).self) { group in
            for w in 0..<workers {
                group.addTask { (w, await answer(w, chunk[bounds[w]..<bounds[w + 1]], starts[w])) }
            }
            var outputs = [[UInt8]](repeating: [], count: workers)
            for await (w, out) in group { outputs[w] = out }
            return outputs
        }
        for out in outputs { write(out) }
        return starts[workers] - 1
    }
}

/// Parses "lat,lon", "lat lon" or "lat, lon" from bytes without making strings; nil when it is not exactly
/// two numbers (the caller then reports the line through the normal, validating path).
func parsePoint(_ line: UnsafeBufferPointer<UInt8>) -> (Double, Double)? {
    var numbers: (Double, Double) = (0, 0)
    var count = 0
    var i = 0
    while i < line.count {
        while i < line.count, line[i] == 0x2C || line[i] == 0x20 || line[i] == 0x09 { i += 1 }
        guard i < line.count else { break }
        var j = i
        while j < line.count, line[j] != 0x2C, line[j] != 0x20, line[j] != 0x09 { j += 1 }
        guard j - i < 40, count < 2 else { return nil }
        let value: Double? = plainDecimal(line, i, j) ?? withUnsafeTemporaryAllocation(of: CChar.self, capacity: 41) { text in
            for k in i..<j { text[k - i] = CChar(bitPattern: line[k]) }
            text[j - i] = 0
            var end: UnsafeMutablePointer<CChar>?
            let v = strtod(text.baseAddress!, &end)
            return end == text.baseAddress! + (j - i) && v.isFinite ? v : nil
        }
        guard let value else { return nil }
        if count == 0 { numbers.0 = value } else { numbers.1 = value }
        count += 1
        i = j
    }
    return count == 2 ? numbers : nil
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
