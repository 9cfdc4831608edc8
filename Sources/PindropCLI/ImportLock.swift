import Foundation
import PindropCore

/// The one import an embedded index takes at a time: an exclusive `flock` on a lock file beside the index
/// (`geonames.sqlite.lock` in the home for the default one), holding the importer's process id. The kernel
/// releases it when the import ends, however it ends (kill -9 included), so a lock is never left behind. A second
/// import is refused at once with the first one's pid, rather than failing later on a file the first one
/// replaced. The shared store needs none: PostgreSQL serializes imports itself (an advisory lock).
final class ImportLock {
    private let descriptor: Int32

    /// Takes the lock of the index at `indexPath`, or throws naming the import that holds it.
    init(indexPath: String) throws(PindropError) {
        let path = indexPath + ".lock"
        try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw .indexUnavailable("cannot open the import lock \(path): \(String(cString: strerror(errno)))")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let holder = Self.processID(in: descriptor)
            close(descriptor)
            throw .indexUnavailable("another import is running (\(holder.map { "pid \($0)" } ?? "its pid is not written yet"))"
                                    + " into the index at \(indexPath); wait for it to end")
        }
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = pwrite(descriptor, pid, pid.count, 0)
        self.descriptor = descriptor
    }

    /// The lock of `location`'s index, or nil for the shared store.
    static func forImport(into location: StoreLocation) throws(PindropError) -> ImportLock? {
        location.database == nil ? try ImportLock(indexPath: location.path) : nil
    }

    deinit { close(descriptor) }

    /// The process id written in the lock file, if there is one.
    private static func processID(in descriptor: Int32) -> Int32? {
        var bytes = [UInt8](repeating: 0, count: 16)
        let count = pread(descriptor, &bytes, bytes.count, 0)
        guard count > 0 else { return nil }
        return Int32(String(decoding: bytes[..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
