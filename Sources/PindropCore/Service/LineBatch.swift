import Foundation

/// Runs a batch: input read in large blocks, each cut at line ends into one part per core, every part answered
/// at once, and the answers written in input order. Reading and answering are parallel; only writing is serial.
/// A line longer than `maximumLineLength` is not read: its bytes are skipped to the next line end, and its answer
/// is a `too_long` error that gives its length, not its text. So each byte is looked at a bounded number of times
/// and memory stays at a block or two, whatever the input (one line of 1.5 GB once took more than ten minutes).
enum LineBatch {
    /// Bytes read per round.
    static let blockSize = 4 << 20

    /// The longest line answered: 64 KiB, far past any question (a search text holds at most 256 characters).
    static let maximumLineLength = 64 << 10

    /// How many workers answer at once.
    static let workerCount = ProcessInfo.processInfo.activeProcessorCount

    /// The answer to a line of `length` bytes, over the limit: its length and the error, without its text.
    static func tooLongAnswer(length: Int) -> [UInt8] {
        let error = PindropError.tooLong("the line is \(length) bytes long; a line holds at most \(maximumLineLength)")
        return WireEncoding.batchLine(query: [("length", .integer(length))], .failure(error)).bytes
    }

    /// What a worker is given: its number, a part of the input (whole lines, each ending in a newline) and the
    /// number of the part's first line in the whole input (1 for the first).
    typealias Answer = @Sendable (_ worker: Int, _ part: ArraySlice<UInt8>, _ firstLine: Int) async -> [UInt8]

    /// Reads everything `read` gives (it fills a buffer and returns the bytes read, 0 at the end, negative on
    /// failure), calls `answer` with a worker number and each part (whole lines, each ending in a newline), and
    /// hands each part's output to `write` in input order; a line too long to read gets `tooLongAnswer` instead,
    /// in its place.
    static func run(read: (UnsafeMutableRawBufferPointer) -> Int, write: ([UInt8]) -> Void, answer: @escaping Answer) async throws {
        var carried: [UInt8] = []  // the start of a line the last block cut off, at most maximumLineLength bytes
        var overlong: Int?  // the length so far of a line over the limit, being skipped
        var linesBefore = 0
        var block = [UInt8](repeating: 0, count: blockSize)
        while true {
            let n = block.withUnsafeMutableBytes { read($0) }
            if n < 0 { throw PindropError.unreadableData("cannot read the batch input") }
            if n == 0 {
                if let overlong { write(tooLongAnswer(length: overlong) + [0x0A]) }
                if !carried.isEmpty { carried.append(0x0A); await answerParts(carried, after: linesBefore, write: write, answer: answer) }
                return
            }
            var start = 0
            if let skipped = overlong {
                guard let newline = firstNewline(in: block, 0..<n) else { overlong = skipped + n; continue }
                write(tooLongAnswer(length: skipped + newline) + [0x0A])
                linesBefore += 1
                overlong = nil
                start = newline + 1
            }
            guard let lastNewline = lastNewline(in: block, start..<n) else {
                if carried.count + n - start > maximumLineLength {
                    overlong = carried.count + n - start
                    carried = []
                } else {
                    carried += block[start..<n]
                }
                continue
            }
            let chunk = carried + block[start...lastNewline]
            carried = Array(block[(lastNewline + 1)..<n])
            if carried.count > maximumLineLength {
                overlong = carried.count
                carried = []
            }
            linesBefore = await answerParts(chunk, after: linesBefore, write: write, answer: answer)
        }
    }

    /// Where the first line end in `bytes[range]` is (memchr: a skipped line is crossed at memory speed).
    private static func firstNewline(in bytes: [UInt8], _ range: Range<Int>) -> Int? {
        bytes.withUnsafeBytes { all in
            memchr(all.baseAddress! + range.lowerBound, 0x0A, range.count).map { UnsafeRawPointer($0) - all.baseAddress! }
        }
    }

    /// Where the last line end in `bytes[range]` is.
    private static func lastNewline(in bytes: [UInt8], _ range: Range<Int>) -> Int? {
        bytes.withUnsafeBufferPointer { all in
            var i = range.upperBound
            while i > range.lowerBound {
                i -= 1
                if all[i] == 0x0A { return i }
            }
            return nil
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
        guard j - i < 40, count < 2, let value = plainDecimal(line, i, j) ?? anyDecimal(line, i, j) else { return nil }
        if count == 0 { numbers.0 = value } else { numbers.1 = value }
        count += 1
        i = j
    }
    return count == 2 ? numbers : nil
}

/// A decimal number of any form (an exponent, more digits) from `line[from..<to]`, as strtod reads it; nil for
/// anything else, hexadecimal ("0x1p3", which strtod reads too) included.
private func anyDecimal(_ line: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int) -> Double? {
    guard DecimalNumber.isDecimal(UnsafeBufferPointer(rebasing: line[from..<to])) else { return nil }
    return withUnsafeTemporaryAllocation(of: CChar.self, capacity: 41) { text in
        for k in from..<to { text[k - from] = CChar(bitPattern: line[k]) }
        text[to - from] = 0
        var end: UnsafeMutablePointer<CChar>?
        let v = strtod(text.baseAddress!, &end)
        return end == text.baseAddress! + (to - from) && v.isFinite ? v : nil
    }
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
