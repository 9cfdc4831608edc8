import Foundation
import PindropCore

/// The read structures of an index, in a file of their own beside the SQLite file, laid out to be memory-mapped
/// and read in place: opening maps the file and reads its table of contents, nothing more. SQLite keeps a blob
/// in a chain of overflow pages, each starting with a link, so no array could be mapped from the database.
///
/// Layout (little-endian, as the arrays lie in memory):
/// - header, 64 bytes: magic "PINDROPS", layout version (UInt32), section count (UInt32), the index's build id
///   (16 bytes, also in the database's meta: a file from another build is refused), the file's size (UInt64),
///   an FNV-1a hash of the table (UInt64), an FNV-1a hash of the header's first 48 bytes (UInt64), 8 bytes zero;
/// - the table, 64 bytes a section: name (UTF-8, up to 44 bytes, zero-padded), element stride (UInt32),
///   offset and byte count (UInt64 each);
/// - the sections, each at an offset that is a multiple of 64, but for a place column's two parts (`StoredArray.Placement`):
///   the GeoNames structures file's ends on a multiple of `joinBoundary`, and the build's starts on one.
///
/// The header and table are checked when the file is opened (size, hashes, bounds, strides); the values are
/// checked by the import that writes them, which reads its new index back with every value check
/// (`PlaceIndex.verify`) before it publishes it.
enum StructureFile {
    static let magic = Array("PINDROPS".utf8)
    static let layoutVersion: UInt32 = 1
    static let headerBytes = 64, entryBytes = 64, nameBytes = 44, alignment = 64

    /// Writes the structures to a new file at `path` (through `path.building`, renamed when complete and on disk).
    /// A structure made `later` is waited for when the file reaches it; the table of contents goes in last, where
    /// room was left for it, so no size need be known ahead.
    static func write(_ structures: [StoredArray], buildID: UUID, to path: String) throws {
        let temporary = path + ".building"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw PindropError.indexUnavailable("cannot write \(temporary): \(String(cString: strerror(errno)))") }
        var closed = false
        defer { if !closed { close(fd) } }
        do {
            var offset = align(headerBytes + entryBytes * structures.count)
            var table: [UInt8] = []
            table.reserveCapacity(entryBytes * structures.count)
            for s in structures {
                let name = Array(s.name.utf8)
                precondition(name.count <= nameBytes && !name.contains(0), "structure name \(s.name)")
                try s.withBytes { bytes in
                    let at = switch s.placement {
                    case .anywhere: offset
                    case .endsOnBoundary: (offset + bytes.count + joinBoundary - 1) / joinBoundary * joinBoundary - bytes.count
                    case .startsOnBoundary: (offset + joinBoundary - 1) / joinBoundary * joinBoundary
                    }
                    try writeAll(fd, bytes, at: at, chunk: s.writeChunk, path: temporary)
                    table += name + [UInt8](repeating: 0, count: nameBytes - name.count)
                    append(UInt32(s.stride), to: &table)
                    append(UInt64(at), to: &table)
                    append(UInt64(bytes.count), to: &table)
                    offset = align(at + bytes.count)
                }
            }
            let fileSize = offset
            var header = magic
            append(layoutVersion, to: &header)
            append(UInt32(structures.count), to: &header)
            header += withUnsafeBytes(of: buildID.uuid) { Array($0) }
            append(UInt64(fileSize), to: &header)
            append(fnv1a(table), to: &header)
            append(fnv1a(header), to: &header)
            header += [UInt8](repeating: 0, count: headerBytes - header.count)
            try writeAll(fd, header, at: 0, path: temporary)
            try writeAll(fd, table, at: headerBytes, path: temporary)
            guard ftruncate(fd, off_t(fileSize)) == 0, fsync(fd) == 0 else {
                throw PindropError.indexUnavailable("cannot write \(temporary): \(String(cString: strerror(errno)))")
            }
            closed = true
            close(fd)
            guard rename(temporary, path) == 0 else {
                throw PindropError.indexUnavailable("cannot move \(temporary) to \(path): \(String(cString: strerror(errno)))")
            }
        } catch {
            unlink(temporary)
            throw error
        }
    }

    /// Where a place column's two parts meet in their files (`StoredArray.Placement`): a multiple of every page size
    /// in use (4, 16 and 64 KiB), since a file is mapped from a page's start.
    static let joinBoundary = 64 << 10

    /// The size of a large page (a PMD on x86-64 and arm64 with 4 KiB pages).
    static let largePage = 2 << 20

    /// The system's page size, what `mmap`, `munmap` and `madvise` align to (4 KiB here; 16 or 64 KiB on some arm64).
    static let pageBytes = Int(sysconf(Int32(_SC_PAGESIZE)))

    static func align(_ n: Int) -> Int { (n + alignment - 1) / alignment * alignment }

    static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }

    static func fnv1a<C: Collection<UInt8>>(_ bytes: C) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return h
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8], at offset: Int, path: String) throws {
        try bytes.withUnsafeBytes { try writeAll(fd, $0, at: offset, chunk: writeChunk, path: path) }
    }

    /// Bytes a `pwrite` writes at most. Large on purpose: the kernel caches a write in folios as large as the write
    /// (up to 2 MiB here), and queries on a mapping of large folios run faster, at the cost of resident memory (a
    /// fault maps the whole cached folio around the page).
    static let writeChunk = 64 << 20

    /// Bytes a `pwrite` of a sparsely read structure writes at most: the size of the kernel's fault-around window,
    /// so a fault maps no more than it would of small folios (written in 2 MiB folios, nearly all of
    /// `place.alternate_bytes` would become resident after a few thousand queries).
    static let sparseWriteChunk = 64 << 10

    /// The structures queries read a few bytes of now and then, not on every query's path: an alternate name as
    /// written, which alternate name an entry is, "did you mean"'s forms. They are cached and mapped a page at a
    /// time; the rest in 2 MiB pages (`MappedStructures.adviseLargePages`).
    static let sparselyRead: Set<String> = ["place.alternate_bytes", "name.alternate_at", "street.name.alternate_at", "correction.hashes", "correction.slots"]

    private static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int, chunk: Int, path: String) throws {
        var done = 0
        while done < bytes.count {
            let n = pwrite(fd, bytes.baseAddress! + done, min(bytes.count - done, chunk), off_t(offset + done))
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { throw PindropError.indexUnavailable("cannot write \(path): \(String(cString: strerror(errno)))") }
            done += n
        }
    }
}
