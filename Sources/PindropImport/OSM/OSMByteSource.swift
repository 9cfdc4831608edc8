#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif
import PindropCore

/// Where a PBF reader's bytes come from: a buffer already in memory, or a file read piece by piece.
enum OSMByteSource: Sendable {
    case memory([UInt8])
    case file(OSMOpenFile)

    /// The number of bytes.
    var count: Int {
        switch self {
        case .memory(let bytes): bytes.count
        case .file(let file): file.size
        }
    }

    /// Calls `body` with `count` bytes from `offset` (the caller has checked they exist): borrowed from memory,
    /// or read from the file into `scratch`, which is reused from call to call.
    func withBytes<Result>(
        at offset: Int, count: Int, _ scratch: inout OSMReadBuffer,
        _ body: (UnsafeRawBufferPointer) throws(PindropError) -> Result
    ) throws(PindropError) -> Result {
        switch self {
        case .memory(let bytes):
            return try bytes.osmWithUnsafeBytes { (all: UnsafeRawBufferPointer) throws(PindropError) -> Result in
                try body(UnsafeRawBufferPointer(rebasing: all[offset..<offset + count]))
            }
        case .file(let file):
            try file.read(at: offset, count: count, into: &scratch)
            return try scratch.bytes.osmWithUnsafeBytes { (all: UnsafeRawBufferPointer) throws(PindropError) -> Result in
                try body(UnsafeRawBufferPointer(rebasing: all[0..<count]))
            }
        }
    }
}

/// A reusable buffer for pieces of a file.
struct OSMReadBuffer {
    var bytes: [UInt8] = []
}

/// An open PBF file; closed when the last reader holding it goes away.
final class OSMOpenFile: Sendable {
    let path: String
    let size: Int
    private let descriptor: Int32

    init(path: String) throws(PindropError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw .unreadableData("cannot read the OSM file at \(path): \(String(cString: strerror(errno)))")
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            throw .unreadableData("cannot read the OSM file at \(path): not a regular file")
        }
        self.path = path
        self.size = Int(status.st_size)
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Reads `count` bytes at `offset` into the front of `buffer`, growing it when needed.
    func read(at offset: Int, count: Int, into buffer: inout OSMReadBuffer) throws(PindropError) {
        if buffer.bytes.count < count { buffer.bytes = [UInt8](repeating: 0, count: max(count, buffer.bytes.count * 2)) }
        var done = 0
        let failure: Int32? = buffer.bytes.withUnsafeMutableBytes { out in
            while done < count {
                let got = pread(descriptor, out.baseAddress! + done, count - done, off_t(offset + done))
                if got > 0 { done += got; continue }
                if got < 0, errno == EINTR { continue }
                return got == 0 ? 0 : errno
            }
            return nil
        }
        if let failure {
            throw .unreadableData(failure == 0
                ? "OSM PBF: \(path) ended early; was it changed during the import?"
                : "cannot read the OSM file at \(path): \(String(cString: strerror(failure)))")
        }
    }
}
