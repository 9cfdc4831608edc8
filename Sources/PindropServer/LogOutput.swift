import Foundation
import Logging
import NIOConcurrencyHelpers
import PindropCore

/// How log lines are written: for people reading a terminal, or one JSON object a line for a log shipper.
public enum LogFormat: String, Sendable, CaseIterable {
    /// `2026-11-24T08:00:00.123Z info pindrop.access: GET /v1/suggest 200 0.4 ms 812 B id=…`
    case human
    /// `{"time":"…","level":"info","logger":"pindrop.access","message":"request","method":"GET",…}` (JSON Lines)
    case json
}

/// A swift-log handler writing lines in either `LogFormat` to a `LogSink` (standard error by default), fields by
/// name. Lines below `warning` are buffered and written in batches; a warning or worse is written at once,
/// with everything before it.
public struct PindropLogHandler: LogHandler {
    /// The level below which messages are dropped.
    public var logLevel: Logger.Level
    /// Metadata set on the logger.
    public var metadata: Logger.Metadata = [:]
    let label: String
    let format: LogFormat
    let sink: LogSink

    /// A handler for the logger `label`.
    public init(label: String, format: LogFormat, level: Logger.Level, sink: LogSink = .standardError) {
        self.label = label
        self.format = format
        self.logLevel = level
        self.sink = sink
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var fields = metadata
        if let extra = event.metadata { fields.merge(extra) { $1 } }
        var line = [UInt8]()
        line.reserveCapacity(256)
        Self.appendLine(to: &line, format: format, level: event.level, label: label, message: event.message.description,
                        fields: fields.sorted { $0.key < $1.key }.map { ($0.key, Self.text($0.value)) })
        sink.append(line, urgent: event.level >= .warning)
    }

    /// A metadata value as text: a string as it is, anything else by its description.
    static func text(_ value: Logger.MetadataValue) -> String {
        if case .string(let text) = value { return text }
        return value.description
    }

    /// One line in `format`: time, level, logger, message, then the fields in order, and a newline.
    public static func appendLine(to line: inout [UInt8], format: LogFormat, level: Logger.Level, label: String, message: String,
                           fields: [(String, String)]) {
        switch format {
        case .human:
            appendTimestamp(to: &line)
            line.append(0x20)
            line.append(contentsOf: level.rawValue.utf8)
            line.append(0x20)
            line.append(contentsOf: label.utf8)
            line.append(contentsOf: ": ".utf8)
            line.append(contentsOf: message.utf8)
            for (key, value) in fields {
                line.append(0x20)
                line.append(contentsOf: key.utf8)
                line.append(UInt8(ascii: "="))
                line.append(contentsOf: value.utf8)
            }
        case .json:
            var stamp: [UInt8] = []
            appendTimestamp(to: &stamp)
            var writer = JSONWriter(capacity: 256)
            writer.beginObject()
            writer.field("time", String(decoding: stamp, as: UTF8.self))
            writer.field("level", level.rawValue)
            writer.field("logger", label)
            writer.field("message", message)
            for (key, value) in fields { writer.field(named: key, value) }
            writer.endObject()
            writer.withUnsafeBytes { line.append(contentsOf: $0) }
        }
        line.append(0x0A)
    }

    /// "2026-11-24T08:00:00.123Z", from the clock without a formatter (Foundation's costs microseconds a line); the
    /// date and time to the second are made once a second and kept.
    static func appendTimestamp(to line: inout [UInt8]) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let second = Int(now.tv_sec)
        let prefix = secondPrefix.withLockedValue { cached -> [UInt8] in
            if cached.second != second { cached = (second, formatSecond(second)) }
            return cached.text
        }
        line.append(contentsOf: prefix)
        let milliseconds = Int(now.tv_nsec) / 1_000_000
        line.append(UInt8(48 + milliseconds / 100))
        line.append(UInt8(48 + milliseconds / 10 % 10))
        line.append(UInt8(48 + milliseconds % 10))
        line.append(UInt8(ascii: "Z"))
    }

    private static let secondPrefix = NIOLockedValueBox<(second: Int, text: [UInt8])>((-1, []))

    /// "2026-11-24T08:00:00." of a second since 1970.
    static func formatSecond(_ second: Int) -> [UInt8] {
        var seconds = time_t(second)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        var text: [UInt8] = []
        func digits(_ value: Int, _ count: Int) {
            var divisor = 1
            for _ in 1..<count { divisor *= 10 }
            while divisor > 0 {
                text.append(UInt8(48 + value / divisor % 10))
                divisor /= 10
            }
        }
        digits(Int(parts.tm_year) + 1900, 4); text.append(UInt8(ascii: "-"))
        digits(Int(parts.tm_mon) + 1, 2); text.append(UInt8(ascii: "-"))
        digits(Int(parts.tm_mday), 2); text.append(UInt8(ascii: "T"))
        digits(Int(parts.tm_hour), 2); text.append(UInt8(ascii: ":"))
        digits(Int(parts.tm_min), 2); text.append(UInt8(ascii: ":"))
        digits(Int(parts.tm_sec), 2); text.append(UInt8(ascii: "."))
        return text
    }
}

/// The access log: one line per request, written straight into its sink in the server's `LogFormat`, with the same
/// time, level and logger fields as every other line (`pindrop.access`, info). It does not go through swift-log: a
/// metadata dictionary and its sorting per request were most of what the access log cost (scripts/bench-observability.sh).
/// In JSON the status, duration and bytes are numbers.
public struct AccessLog: Sendable {
    let format: LogFormat
    let sink: LogSink

    /// Lines in `format` into `sink`.
    public init(format: LogFormat, sink: LogSink = .standardError) {
        self.format = format
        self.sink = sink
    }

    /// One request's line. `method` is an HTTP token, `route` one of the server's patterns and `id` checked by
    /// `RequestID`: none holds a quote or a backslash, so they are written as they are.
    func write(method: String, route: String, status: Int, nanoseconds: UInt64, bytes: Int, id: String) {
        var line = [UInt8]()
        line.reserveCapacity(224)
        let hundredths = (nanoseconds + 5_000) / 10_000
        func milliseconds() {
            Self.appendInteger(Int(hundredths / 100), to: &line)
            line.append(UInt8(ascii: "."))
            line.append(UInt8(48 + hundredths / 10 % 10))
            line.append(UInt8(48 + hundredths % 10))
        }
        switch format {
        case .human:
            PindropLogHandler.appendTimestamp(to: &line)
            line.append(contentsOf: " info pindrop.access: request method=".utf8)
            line.append(contentsOf: method.utf8)
            line.append(contentsOf: " route=".utf8)
            line.append(contentsOf: route.utf8)
            line.append(contentsOf: " status=".utf8)
            Self.appendInteger(status, to: &line)
            line.append(contentsOf: " duration_ms=".utf8)
            milliseconds()
            line.append(contentsOf: " bytes=".utf8)
            Self.appendInteger(bytes, to: &line)
            line.append(contentsOf: " request_id=".utf8)
            line.append(contentsOf: id.utf8)
        case .json:
            line.append(contentsOf: #"{"time":""#.utf8)
            PindropLogHandler.appendTimestamp(to: &line)
            line.append(contentsOf: #"","level":"info","logger":"pindrop.access","message":"request","method":""#.utf8)
            line.append(contentsOf: method.utf8)
            line.append(contentsOf: #"","route":""#.utf8)
            line.append(contentsOf: route.utf8)
            line.append(contentsOf: #"","status":"#.utf8)
            Self.appendInteger(status, to: &line)
            line.append(contentsOf: #","duration_ms":"#.utf8)
            milliseconds()
            line.append(contentsOf: #","bytes":"#.utf8)
            Self.appendInteger(bytes, to: &line)
            line.append(contentsOf: #","request_id":""#.utf8)
            line.append(contentsOf: id.utf8)
            line.append(contentsOf: #""}"#.utf8)
        }
        line.append(0x0A)
        sink.append(line)
    }

    /// The decimal digits of a non-negative integer, without making a String.
    static func appendInteger(_ value: Int, to line: inout [UInt8]) {
        var value = max(0, value), digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                                            UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[19 - count] = UInt8(48 + value % 10)
                value /= 10
                count += 1
            } while value > 0
            line.append(contentsOf: buffer[(20 - count)...])
        }
    }
}

/// Where log lines go: a file descriptor, written in batches. Lines gather in memory and are written when 64 KiB have
/// gathered, every quarter of a second, at `flush()`, and at once with an urgent line. One `write` per batch instead of
/// one per line is most of what an access log costs (measured: scripts/bench-observability.sh); the price is that a
/// `kill -9` loses up to a quarter of a second of lines. Lines never interleave: each is whole in one batch, and
/// batches are written in order.
public final class LogSink: Sendable {
    /// Standard error, the server's log.
    public static let standardError = LogSink(descriptor: 2)

    let descriptor: Int32
    private let pending = NIOLockedValueBox<[UInt8]>([])
    /// Held while a batch is written, so batches go out in the order they were taken.
    private let writing = NIOLock()
    static let batchBytes = 64 * 1024

    /// A sink writing to `descriptor`, with a thread of its own flushing it every quarter of a second.
    public init(descriptor: Int32) {
        self.descriptor = descriptor
        Thread.detachNewThread { [weak self] in
            while let sink = self {
                usleep(250_000)
                sink.flush()
            }
        }
    }

    /// Adds a whole line (with its newline); writes at once when `urgent` or when a batch is full.
    public func append(_ line: [UInt8], urgent: Bool = false) {
        let full = pending.withLockedValue { pending in
            pending.append(contentsOf: line)
            return pending.count >= Self.batchBytes
        }
        if urgent || full { flush() }
    }

    /// Writes what has gathered.
    public func flush() {
        writing.withLock {
            let batch = pending.withLockedValue { pending in
                let batch = pending
                pending.removeAll(keepingCapacity: true)
                return batch
            }
            guard !batch.isEmpty else { return }
            batch.withUnsafeBytes { bytes in
                var offset = 0
                while offset < bytes.count {
                    let written = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        return
                    }
                    offset += written
                }
            }
        }
    }
}
