import CZlib
import Foundation
import PindropCore

/// Reads a text file line by line, plain or gzip-compressed (zlib's gzread passes plain files through),
/// in large blocks so a 36 MB dump streams without being loaded whole.
public final class LineReader {
    private let file: gzFile
    /// The file's name, for messages.
    private let name: String
    private var buffer: [UInt8]
    private var start = 0
    private var end = 0
    private var atEOF = false
    /// Compressed or plain bytes consumed so far, for progress reporting.
    public private(set) var bytesRead = 0
    /// Whether the file's last line has no line end; set before that line is handed over. In a dump that
    /// always ends with one, the mark of a file cut short.
    public private(set) var endsWithoutLineEnd = false

    /// Opens a file; throws `.unreadableData` when it cannot be opened.
    public init(path: String, blockSize: Int = 1 << 20) throws(PindropError) {
        guard FileManager.default.isReadableFile(atPath: path), let file = gzopen(path, "rb") else {
            throw .unreadableData("cannot open \(path): no such readable file")
        }
        gzbuffer(file, UInt32(blockSize))
        self.file = file
        self.name = (path as NSString).lastPathComponent
        self.buffer = [UInt8](repeating: 0, count: blockSize)
    }

    /// Reads an open file descriptor (such as standard input, 0), plain or gzip.
    public init(fileDescriptor: Int32, blockSize: Int = 1 << 20) throws(PindropError) {
        guard let file = gzdopen(dup(fileDescriptor), "rb") else {
            throw .unreadableData("cannot read file descriptor \(fileDescriptor)")
        }
        gzbuffer(file, UInt32(blockSize))
        self.file = file
        self.name = fileDescriptor == 0 ? "standard input" : "file descriptor \(fileDescriptor)"
        self.buffer = [UInt8](repeating: 0, count: blockSize)
    }

    deinit { gzclose(file) }

    /// Calls `body` with each line's bytes (without the line end); stops early when it returns false.
    /// Throws `.unreadableData` when the file cannot be read to its end, a truncated or damaged gzip stream included.
    public func forEachLine(_ body: (UnsafeBufferPointer<UInt8>) throws -> Bool) throws {
        while true {
            // Find the next newline in what is buffered.
            let found: Int? = buffer.withUnsafeBufferPointer { buf in
                var i = start
                while i < end { if buf[i] == 0x0A { return i }; i += 1 }
                return nil
            }
            if let newline = found {
                var lineEnd = newline
                if lineEnd > start, buffer[lineEnd - 1] == 0x0D { lineEnd -= 1 }
                let keepGoing = try buffer.withUnsafeBufferPointer { buf in
                    try body(UnsafeBufferPointer(rebasing: buf[start..<lineEnd]))
                }
                start = newline + 1
                if !keepGoing { return }
                continue
            }
            if atEOF {
                endsWithoutLineEnd = start < end
                if start < end {
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

    private func refill() throws {
        // Move the partial line to the front, growing the buffer for very long lines.
        let pending = end - start
        if start > 0 {
            buffer.withUnsafeMutableBufferPointer { buf in
                _ = memmove(buf.baseAddress!, buf.baseAddress! + start, pending)
            }
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
