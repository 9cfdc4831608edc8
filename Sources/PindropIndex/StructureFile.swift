import Foundation
import PindropCore

/// One read structure on its way into the structures file: its name and its values, whose raw bytes are written
/// as they lie in memory (no copy of a structure while the import still holds them all).
struct StoredArray {
    let name: String
    let stride: Int
    /// Bytes one `pwrite` of it writes at most (see `StructureFile.writeChunk`).
    let writeChunk: Int
    let withBytes: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void

    /// A structure `StructureFile.sparselyRead` names is written in small pieces, which the kernel caches, and a
    /// fault then maps, in small folios.
    init<T: BitwiseCopyable>(_ name: String, _ column: Column<T>) {
        self.name = name
        stride = MemoryLayout<T>.stride
        writeChunk = StructureFile.sparselyRead.contains(name) ? StructureFile.sparseWriteChunk : StructureFile.writeChunk
        withBytes = { body in try column.withUnsafeBytes(body) }
    }

    init<T: BitwiseCopyable>(_ name: String, _ array: [T]) { self.init(name, Column(array)) }

    private init(name: String, stride: Int, writeChunk: Int, withBytes: @escaping ((UnsafeRawBufferPointer) throws -> Void) throws -> Void) {
        self.name = name; self.stride = stride; self.writeChunk = writeChunk; self.withBytes = withBytes
    }

    /// Structures still being made on another thread, each waited for when the file reaches it: `made` gives them
    /// (and may wait), named and typed as `template`, the same structures of an empty value.
    static func later(like template: [StoredArray], _ made: @escaping () -> [StoredArray]) -> [StoredArray] {
        template.enumerated().map { i, t in
            StoredArray(name: t.name, stride: t.stride, writeChunk: t.writeChunk) { body in
                let section = made()[i]
                precondition(section.name == t.name && section.stride == t.stride, "structure \(t.name)")
                try section.withBytes(body)
            }
        }
    }
}

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
/// - the sections, each at an offset that is a multiple of 64.
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
                    try writeAll(fd, bytes, at: offset, chunk: s.writeChunk, path: temporary)
                    table += name + [UInt8](repeating: 0, count: nameBytes - name.count)
                    append(UInt32(s.stride), to: &table)
                    append(UInt64(offset), to: &table)
                    append(UInt64(bytes.count), to: &table)
                    offset = align(offset + bytes.count)
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
    /// (up to 2 MiB here), and queries on a mapping of large folios ran faster (×50, right after the import: reverse
    /// p50/p99 8.0/14.5 µs against 10.0/27.0 written 128 KiB at a time, search 7.6/28.8 against 12.7/44.5). The cost
    /// is resident memory: a fault maps the whole cached folio around the page, 3,194 MiB at ×50 against 2,855.
    static let writeChunk = 64 << 20

    /// Bytes a `pwrite` of a sparsely read structure writes at most: the size of the kernel's fault-around window,
    /// so a fault maps no more than it would of small folios. Written in 2 MiB folios, `place.alternate_bytes`
    /// (read only to show an alternate name as written) was 728 of its 731 MiB resident after `scale-serve`'s
    /// queries at ×50, right after the import; written 64 KiB at a time, 297 MiB.
    static let sparseWriteChunk = 64 << 10

    /// The structures queries read a few bytes of now and then, not on every query's path: an alternate name as
    /// written, which alternate name an entry is, "did you mean"'s forms. They are cached and mapped a page at a
    /// time; the rest in 2 MiB pages (`MappedStructures.adviseLargePages`). At ×50, after `scale-serve --warm` from a
    /// cold cache, these four were 101 MiB resident in small pages and 945 MiB in large ones.
    static let sparselyRead: Set<String> = ["place.alternate_bytes", "name.alternate_at", "correction.hashes", "correction.slots"]

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

/// A structures file mapped read-only: its sections as columns. The mapping lasts as long as any column of it
/// (each keeps the file), and is private and read-only, so another import replacing the file by rename leaves
/// the open one answering from the file it mapped.
final class MappedStructures: @unchecked Sendable {
    let path: String
    let buildID: UUID
    private let base: UnsafeRawPointer
    private let size: Int
    private var sections: [String: (offset: Int, bytes: Int, stride: Int)] = [:]

    /// Maps the file at `path`. `index` names the index in errors. Throws `.indexUnavailable` with the reason
    /// when the file is missing (`missing` is then true), cut short, not a structures file, or damaged.
    init(path: String, index: String) throws(PindropError) {
        self.path = path
        let name = (path as NSString).lastPathComponent
        func damaged(_ why: String) -> PindropError {
            .indexUnavailable("the index at \(index) is corrupt: its structures file \(name) \(why); rebuild it with `pindrop import geonames`")
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { throw MappedStructures.missing(name, index: index) }
            throw .indexUnavailable("the index at \(index) cannot be read: \(name): \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw .indexUnavailable("the index at \(index) cannot be read: \(name): \(String(cString: strerror(errno)))") }
        size = Int(status.st_size)
        guard size >= StructureFile.headerBytes else { throw damaged("is cut short (\(size) bytes)") }
        // At an address a multiple of 2 MiB from the file's start, so that the kernel can map the file's 2 MiB
        // folios whole (`adviseLargePages`): room for the file and one large page more is taken, the file mapped over
        // it from the first such address, and the rest given back.
        let large = StructureFile.largePage
        guard let room = mmap(nil, size + large, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), room != MAP_FAILED else {
            throw .indexUnavailable("the index at \(index) cannot be read: cannot map \(name): \(String(cString: strerror(errno)))")
        }
        let start = (Int(bitPattern: room) + large - 1) / large * large
        guard let mapped = mmap(UnsafeMutableRawPointer(bitPattern: start), size, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd, 0),
              mapped != MAP_FAILED else {
            let reason = String(cString: strerror(errno))
            munmap(room, size + large)
            throw .indexUnavailable("the index at \(index) cannot be read: cannot map \(name): \(reason)")
        }
        if start > Int(bitPattern: room) { munmap(room, start - Int(bitPattern: room)) }
        let page = StructureFile.pageBytes
        let roomEnd = Int(bitPattern: room) + size + large, mappedEnd = (start + size + page - 1) / page * page
        if roomEnd > mappedEnd { munmap(UnsafeMutableRawPointer(bitPattern: mappedEnd), roomEnd - mappedEnd) }
        base = UnsafeRawPointer(mapped)
        let header = UnsafeRawBufferPointer(start: base, count: StructureFile.headerBytes)
        func word<T: FixedWidthInteger>(_ bytes: UnsafeRawBufferPointer, _ at: Int, _: T.Type) -> T {
            T(littleEndian: bytes.loadUnaligned(fromByteOffset: at, as: T.self))
        }
        buildID = UUID(uuid: header.loadUnaligned(fromByteOffset: 16, as: uuid_t.self))
        guard Array(header[0..<8]) == StructureFile.magic else { throw damaged("is not a Pindrop structures file") }
        guard word(header, 48, UInt64.self) == StructureFile.fnv1a(header[0..<48]) else { throw damaged("has a damaged header") }
        guard word(header, 8, UInt32.self) == StructureFile.layoutVersion else {
            throw damaged("has layout \(word(header, 8, UInt32.self)), this pindrop reads layout \(StructureFile.layoutVersion)")
        }
        let expected = Int(clamping: word(header, 32, UInt64.self))
        guard size == expected else { throw damaged(size < expected ? "is cut short (\(size) of \(expected) bytes)" : "has \(size - expected) bytes too many") }
        let count = Int(word(header, 12, UInt32.self))
        let tableEnd = StructureFile.headerBytes + count * StructureFile.entryBytes
        guard tableEnd <= size else { throw damaged("has a damaged table") }
        let table = UnsafeRawBufferPointer(start: base + StructureFile.headerBytes, count: count * StructureFile.entryBytes)
        guard word(header, 40, UInt64.self) == StructureFile.fnv1a(table) else { throw damaged("has a damaged table") }
        for i in 0..<count {
            let entry = UnsafeRawBufferPointer(rebasing: table[(i * StructureFile.entryBytes)..<((i + 1) * StructureFile.entryBytes)])
            let nameBytes = entry[0..<StructureFile.nameBytes].prefix { $0 != 0 }
            let stride = Int(word(entry, 44, UInt32.self))
            let offset = Int(clamping: word(entry, 48, UInt64.self)), bytes = Int(clamping: word(entry, 56, UInt64.self))
            guard stride > 0, offset % StructureFile.alignment == 0, offset >= tableEnd, bytes % stride == 0,
                  offset <= size, bytes <= size - offset else { throw damaged("has a damaged table") }
            sections[String(decoding: nameBytes, as: UTF8.self)] = (offset, bytes, stride)
        }
        adviseLargePages()
    }

    deinit { munmap(UnsafeMutableRawPointer(mutating: base), size) }

    /// Tells the kernel that reads from here on are random: a page not yet in memory is read alone, not with
    /// the 128 KiB around it that sequential reading would want. Queries read a few values here and there in
    /// sections of hundreds of megabytes, so reading around them filled memory with pages no query asked for.
    /// (Where the file is in 2 MiB pages, `adviseLargePages`, a missing one is still read whole.)
    func adviseRandomReads() {
        madvise(UnsafeMutableRawPointer(mutating: base), size, MADV_RANDOM)
    }

    /// Asks for the file in 2 MiB pages, but for the sparsely read sections: one address translation then covers
    /// 512 times the memory, and on this machine (a virtual one, where a missed translation walks two sets of page
    /// tables) a read that misses every cache took 172 instead of 280 ns (a chase through 256 MiB). The kernel
    /// reads a missing 2 MiB at once and keeps it whole; what is already cached in small pages stays so until it
    /// is evicted. Asked before anything is read, so that what opening reads is cached in large pages too.
    private func adviseLargePages() {
        let all = UnsafeMutableRawPointer(mutating: base)
        madvise(all, size, MADV_HUGEPAGE)
        for name in StructureFile.sparselyRead {
            guard let s = sections[name] else { continue }
            // The whole pages inside the section: advice is given by the page.
            let page = StructureFile.pageBytes
            let from = (s.offset + page - 1) / page * page, to = (s.offset + s.bytes) / page * page
            if from < to { madvise(all + from, to - from, MADV_NOHUGEPAGE) }
        }
    }

    static func missing(_ name: String, index: String) -> PindropError {
        .indexUnavailable("the index at \(index) is incomplete: its structures file \(name) is missing (an index is the two files, kept "
                          + "side by side); rebuild it with `pindrop import geonames`")
    }

    func has(_ name: String) -> Bool { sections[name] != nil }

    /// The named section as a column, or a clear error when it is missing or not of `T`'s width.
    func column<T: BitwiseCopyable>(_ name: String, as: T.Type = T.self) throws(PindropError) -> Column<T> {
        guard let s = sections[name] else {
            throw .indexUnavailable("the index is incomplete: structure \(name) is missing from \((path as NSString).lastPathComponent)")
        }
        guard s.stride == MemoryLayout<T>.stride else {
            throw .indexUnavailable("the index is corrupt: structure \(name) has \(s.stride)-byte values, not \(MemoryLayout<T>.stride)")
        }
        let start = (base + s.offset).assumingMemoryBound(to: T.self)
        return Column(mapped: UnsafeBufferPointer(start: start, count: s.bytes / s.stride), of: self)
    }

    /// The named section copied into an array (for what is rebuilt at open anyway: the street map's shapes).
    func array<T: BitwiseCopyable>(_ name: String, as: T.Type = T.self) throws(PindropError) -> [T] {
        Array(try column(name, as: T.self))
    }
}

/// An index is two files side by side: the SQLite database at its path, and the structures file its meta names,
/// "<database name>.<build id>.structures". A new import writes a structures file of a new name, and renaming the
/// database into place publishes both at once; the previous structures file is removed after (a server that has
/// it mapped keeps reading it: the file lives on until it is unmapped).
enum IndexFiles {
    /// The name of a new structures file for the index at `path`.
    static func structuresName(forIndexAt path: String, buildID: UUID) -> String {
        let id = buildID.uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16)
        return (path as NSString).lastPathComponent + ".\(id).structures"
    }

    /// The structures file `name` beside the index at `path`.
    static func structuresPath(forIndexAt path: String, named name: String) -> String {
        ((path as NSString).deletingLastPathComponent as NSString).appendingPathComponent(name)
    }

    /// Removes the structures files named after the index at `path` (as `structuresName` names them, finished or
    /// not), except `keep`: the replaced index's, and any left by an import that was interrupted.
    static func removeStructures(besideIndexAt path: String, except keep: String) {
        let folder = (path as NSString).deletingLastPathComponent, prefix = (path as NSString).lastPathComponent + "."
        for file in (try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder)) ?? []
        where file != keep && file.hasPrefix(prefix) {
            let rest = file.dropFirst(prefix.count)
            guard rest.hasSuffix(".structures") || rest.hasSuffix(".structures.building") else { continue }
            let id = rest.prefix { $0 != "." }
            guard id.count == 16, id.allSatisfy(\.isHexDigit) else { continue }
            unlink(structuresPath(forIndexAt: path, named: file))
        }
    }
}
