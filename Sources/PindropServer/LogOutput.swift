import Foundation
import Logging
import PindropCore

/// How log lines are written: for people reading a terminal, or one JSON object a line for a log shipper.
public enum LogFormat: String, Sendable, CaseIterable {
    /// `2026-11-24T08:00:00.123Z info pindrop.access: GET /v1/suggest 200 0.4 ms 812 B id=…`
    case human
    /// `{"time":"…","level":"info","logger":"pindrop.access","message":"request","method":"GET",…}` (JSON Lines)
    case json
}

/// A swift-log handler writing each line with one `write` to a file descriptor (standard error by default), in
/// either `LogFormat`. Lines from concurrent requests never interleave: each is one write of at most a few
/// hundred bytes.
public struct PindropLogHandler: LogHandler {
    /// The level below which messages are dropped.
    public var logLevel: Logger.Level
    /// Metadata set on the logger.
    public var metadata: Logger.Metadata = [:]
    let label: String
    let format: LogFormat
    let descriptor: Int32

    /// A handler for the logger `label`.
    public init(label: String, format: LogFormat, level: Logger.Level, descriptor: Int32 = 2) {
        self.label = label
        self.format = format
        self.logLevel = level
        self.descriptor = descriptor
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var merged = metadata
        if let extra = event.metadata { merged.merge(extra) { $1 } }
        var line = [UInt8]()
        line.reserveCapacity(256)
        Self.appendLine(to: &line, format: format, level: event.level, label: label, message: event.message.description,
                        fields: merged.sorted { Self.precedes($0.key, $1.key) }.map { ($0.key, $0.value.description) })
        Self.write(line, to: descriptor)
    }

    /// The access log's fields first, in the order people read them; any others after, by name.
    static let leadingFields = ["method", "route", "status", "duration_ms", "bytes", "request_id"]

    static func precedes(_ a: String, _ b: String) -> Bool {
        let i = leadingFields.firstIndex(of: a) ?? leadingFields.count, j = leadingFields.firstIndex(of: b) ?? leadingFields.count
        return i != j ? i < j : a < b
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
            for (key, value) in fields { writer.field(key, value) }
            writer.endObject()
            line.append(contentsOf: writer.bytes)
        }
        line.append(0x0A)
    }

    /// "2026-11-24T08:00:00.123Z", from the clock without a formatter (Foundation's costs microseconds a line).
    static func appendTimestamp(to line: inout [UInt8]) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var seconds = time_t(now.tv_sec)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func digits(_ value: Int, _ count: Int) {
            var divisor = 1
            for _ in 1..<count { divisor *= 10 }
            var value = value
            while divisor > 0 {
                line.append(UInt8(48 + value / divisor % 10))
                value %= divisor
                divisor /= 10
            }
        }
        digits(Int(parts.tm_year) + 1900, 4); line.append(UInt8(ascii: "-"))
        digits(Int(parts.tm_mon) + 1, 2); line.append(UInt8(ascii: "-"))
        digits(Int(parts.tm_mday), 2); line.append(UInt8(ascii: "T"))
        digits(Int(parts.tm_hour), 2); line.append(UInt8(ascii: ":"))
        digits(Int(parts.tm_min), 2); line.append(UInt8(ascii: ":"))
        digits(Int(parts.tm_sec), 2); line.append(UInt8(ascii: "."))
        digits(Int(now.tv_nsec) / 1_000_000, 3); line.append(UInt8(ascii: "Z"))
    }

    /// Writes the whole line, going on after a short write or a signal.
    static func write(_ line: [UInt8], to descriptor: Int32) {
        line.withUnsafeBytes { bytes in
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
