import CZlib
import PindropCore

/// Inflates the zlib streams of `zlib_data` blobs with the system zlib.
enum OSMZlib {
    private enum Outcome { case done, sizeMismatch, zlibError(Int32) }

    /// Inflates `compressed` into exactly `expectedSize` bytes (the blob's `raw_size`).
    static func inflate(_ compressed: UnsafeRawBufferPointer, expectedSize: Int) throws(PindropError) -> [UInt8] {
        guard expectedSize > 0 else { return [] }
        guard compressed.count > 0, let input = compressed.baseAddress else {
            throw .unreadableData("OSM PBF: empty zlib_data in a blob")
        }
        var output = [UInt8](repeating: 0, count: expectedSize)
        let outcome: Outcome = output.withUnsafeMutableBytes { out in
            var stream = z_stream()
            let initStatus = inflateInit_(&stream, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
            guard initStatus == Z_OK else { return .zlibError(initStatus) }
            defer { inflateEnd(&stream) }
            stream.next_in = UnsafeMutablePointer(mutating: input.assumingMemoryBound(to: Bytef.self))
            stream.avail_in = uInt(compressed.count)
            stream.next_out = out.baseAddress!.assumingMemoryBound(to: Bytef.self)
            stream.avail_out = uInt(out.count)
            let status = CZlib.inflate(&stream, Z_FINISH)
            // Success means the stream ended exactly when the declared raw_size was filled.
            if status == Z_STREAM_END { return stream.avail_out == 0 ? .done : .sizeMismatch }
            if status == Z_OK || status == Z_BUF_ERROR { return .sizeMismatch }
            return .zlibError(status)
        }
        switch outcome {
        case .done:
            return output
        case .sizeMismatch:
            throw .unreadableData("OSM PBF: a zlib blob does not inflate to its declared raw_size of \(expectedSize) bytes")
        case .zlibError(let status):
            throw .unreadableData("OSM PBF: corrupt zlib data in a blob (zlib error \(status))")
        }
    }
}
