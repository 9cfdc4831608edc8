import Foundation
import PindropCore

/// Raw little-endian bytes of plain arrays, so read structures load with one copy instead of row by row.
enum ArrayBlob {
    static func data<T: BitwiseCopyable>(_ array: [T]) -> Data {
        array.withUnsafeBytes { Data($0) }
    }

    static func array<T: BitwiseCopyable>(_ data: Data, as: T.Type = T.self, name: String) throws(PindropError) -> [T] {
        let stride = MemoryLayout<T>.stride
        guard data.count % stride == 0 else {
            throw .indexUnavailable("the index is corrupt: structure \(name) has \(data.count) bytes, not a multiple of \(stride)")
        }
        let count = data.count / stride
        return [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            data.withUnsafeBytes { raw in
                _ = memcpy(buffer.baseAddress!, raw.baseAddress!, data.count)
            }
            initialized = count
        }
    }

    /// The named structure, removed from a set of blobs (so its bytes are freed once copied: opening then never
    /// holds every structure twice), or a clear error when it is missing or malformed.
    static func take<T: BitwiseCopyable>(from blobs: inout [String: Data], name: String) throws(PindropError) -> [T] {
        guard let data = blobs.removeValue(forKey: name) else { throw .indexUnavailable("the index is incomplete: structure \(name) is missing") }
        return try array(data, name: name)
    }

    /// The named structure from a set of blobs, or a clear error when it is missing or malformed.
    static func array<T: BitwiseCopyable>(in blobs: [String: Data], name: String) throws(PindropError) -> [T] {
        guard let data = blobs[name] else { throw .indexUnavailable("the index is incomplete: structure \(name) is missing") }
        return try array(data, name: name)
    }
}
