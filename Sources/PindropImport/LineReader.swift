import CZlib
import Foundation
import PindropCore

/// Reads a text file line by line, plain or gzip-compressed (zlib's gzread passes plain files through),
/// in large blocks so a 36 MB dump streams without being loaded whole. A line longer than `maximumLineLength`
/// ends the reading with an error naming it, so memory stays at a few blocks whatever the file holds (a dump of
/// NUL bytes has no line end at all), and only regular files are read (not `/dev/zero` named cities500.txt).
public final class LineReader {
    /// The longest line read by default: 1 MiB. A GeoNames row is under 20 KB (cities500's longest, 3.6 KB).
    public static let defaultMaximumLineLength = 1 << 20

    private let file: gzFile
    /// The file's name, for messages.
    private let name: String
    private let maximumLineLength: Int
    private var buffer: [UInt8]
    private var start = 0
    private var end = 0
    /// Where the search for the next line end resumes: the bytes of the line before it hold none.
    private var searched = 0
    private var atEOF = false
    /// Lines handed over so far.
    private var lines = 0
    /// Compressed or plain bytes consumed so far, for progress reporting.
    public private(set) var bytesRead = 0
    /// Whether the file's last line has no line end; set before that line is handed over. In a dump that
    /// always ends with one, the mark of a file cut short.
    public private(set) var endsWithoutLineEnd = false

    /// Opens a regular file; throws `.unreadableData` when it cannot be opened or is something else (a device, a
    /// pipe, a folder), followed through symbolic links.
    public init(path: String, blockSize: Int = 1 << 20, maximumLineLength: Int = LineReader.defaultMaximumLineLength) throws(PindropError) {
        var status = stat()
        guard stat(path, &status) == 0, FileManager.default.isReadableFile(atPath: path) else {
            throw .unreadableData("cannot open \(path): no such readable file")
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else { throw .unreadableData("cannot read \(path): not a regular file") }
        guard let file = gzopen(path, "rb") else { throw .unreadableData("cannot open \(path): no such readable file") }
        gzbuffer(file, UInt32(blockSize))
        self.file = file
        self.name = (path as NSString).lastPathComponent
        self.maximumLineLength = maximumLineLength
        self.buffer = [UInt8](repeating: 0, count: blockSize)
    }

    deinit { gzclose(file) }

    /// Calls `body` with each line's bytes (without the line end); stops early when it returns false.
    /// Throws `.unreadableData` when the file cannot be read to its end, a truncated or damaged gzip stream included,
    /// or when a line is longer than `maximumLineLength` (naming its number).
    public func forEachLine(_ body: (UnsafeBufferPointer<UInt8>) throws -> Bool) throws {
        while true {
            // Find the next newline in what is buffered and not searched yet.
            let found: Int? = buffer.withUnsafeBufferPointer { buf in
                var i = max(start, searched)
                while i < end { if buf[i] == 0x0A { return i }; i += 1 }
                return nil
            }
            searched = found ?? end
            if let newline = found {
                var lineEnd = newline
                if lineEnd > start, buffer[lineEnd - 1] == 0x0D { lineEnd -= 1 }
                try checkLength(lineEnd - start)
                lines += 1
                let keepGoing = try buffer.withUnsafeBufferPointer { buf in
                    try body(UnsafeBufferPointer(rebasing: buf[start..<lineEnd]))
                }
                start = newline + 1
                if !keepGoing { return }
                continue
            }
            try checkLength(end - start)
            if atEOF {
                endsWithoutLineEnd = start < end
                if start < end {
                    lines += 1
                    let keepGoing = try buffer.withUnsafeBufferPointer { buf in
                        try body(UnsafeBufferPointer(rebasing: buf[start..<end]))
                    }
                    start = end
                    _ = keepGoing
                }
                return
            }
            try refill()
        }
    }

    /// Refuses a line (or the start of one) longer than the limit.
    private func checkLength(_ length: Int) throws(PindropError) {
        guard length <= maximumLineLength else {
            throw .unreadableData("\(name): line \(lines + 1) is longer than \(maximumLineLength) bytes; this is not a text"
                                  + " dump, or a damaged one")
        }
    }

    private func refill() throws {
        // Move the partial line to the front, growing the buffer for a long line (up to the limit: checked before).
        let pending = end - start
        if start > 0 {
            buffer.withUnsafeMutableBufferPointer { buf in
                _ = memmove(buf.baseAddress!, buf.baseAddress! + start, pending)
            }
            searched -= start
            start = 0
            end = pending
        }
        if end == buffer.count { buffer.append(contentsOf: [UInt8](repeating: 0, count: buffer.count)) }
        let room = buffer.count - end
        let n = buffer.withUnsafeMutableBufferPointer { buf in
            gzread(file, buf.baseAddress! + end, UInt32(room))
        }
        if n <= 0 {
            // gzread returns 0 both at a clean end and where a gzip stream stops early (a truncated download):
            // only gzerror tells them apart. A damaged stream (bad CRC, bad data) is -1.
            var code: Int32 = 0
            let message = gzerror(file, &code).map { String(cString: $0) } ?? "read error"
            if code == Z_BUF_ERROR {
                throw PindropError.unreadableData("\(name) ends early (truncated gzip): it may be an unfinished download")
            }
            if n < 0 || code != Z_OK { throw PindropError.unreadableData("cannot read \(name): \(message)") }
            atEOF = true
        }
        end += Int(n)
        bytesRead = Int(gzoffset(file))
    }
}
