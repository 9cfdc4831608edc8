import Foundation
import PindropCore

/// A structures file mapped read-only: its sections as columns, and those of the GeoNames structures file it lies
/// over. The mapping lasts as long as any column of it (each keeps the file), and is private and read-only, so
/// another import replacing the file by rename leaves the open one answering from the file it mapped.
final class MappedStructures: @unchecked Sendable {
    let path: String
    let buildID: UUID
    private let base: UnsafeRawPointer
    private let size: Int
    private let sections: [String: Section]
    /// The file whose sections this one's are looked up after (`IndexFiles`).
    let geonames: MappedStructures?

    /// Where a section lies in the file, and the size of its values.
    struct Section { var offset, bytes, stride: Int }

    /// Maps the file at `path`, over the GeoNames structures file `geonames` when given. `index` names the index in
    /// errors. Throws `.indexUnavailable` with the reason when the file is missing, cut short, not a structures
    /// file, or damaged.
    init(path: String, index: String, over geonames: MappedStructures? = nil) throws(PindropError) {
        self.path = path
        self.geonames = geonames
        let problems = MappingProblems(file: (path as NSString).lastPathComponent, index: index)
        (base, size) = try Self.mapAligned(path, problems)
        do {
            (buildID, sections) = try Self.readTable(base: base, size: size, problems)
        } catch {
            munmap(UnsafeMutableRawPointer(mutating: base), size)
            throw error
        }
        adviseLargePages()
    }

    /// The errors of mapping one structures file, each naming it and its index.
    struct MappingProblems {
        let file: String, index: String

        func damaged(_ why: String) -> PindropError {
            .indexUnavailable("the index at \(index) is corrupt: its structures file \(file) \(why); rebuild it with `pindrop import geonames`")
        }

        func unreadable(_ why: String) -> PindropError {
            .indexUnavailable("the index at \(index) cannot be read: \(why)")
        }
    }

    /// The file mapped read-only at an address a multiple of 2 MiB from its start, so that the kernel can map its
    /// 2 MiB folios whole (`adviseLargePages`): room for the file and one large page more is taken, the file mapped
    /// over it from the first such address, and the rest given back.
    private static func mapAligned(_ path: String, _ problems: MappingProblems) throws(PindropError) -> (UnsafeRawPointer, Int) {
        let name = problems.file
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { throw MappedStructures.missing(name, index: problems.index) }
            throw problems.unreadable("\(name): \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw problems.unreadable("\(name): \(String(cString: strerror(errno)))") }
        let size = Int(status.st_size)
        guard size >= StructureFile.headerBytes else { throw problems.damaged("is cut short (\(size) bytes)") }
        let large = StructureFile.largePage
        guard let room = mmap(nil, size + large, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), room != MAP_FAILED else {
            throw problems.unreadable("cannot map \(name): \(String(cString: strerror(errno)))")
        }
        let start = (Int(bitPattern: room) + large - 1) / large * large
        guard let mapped = mmap(UnsafeMutableRawPointer(bitPattern: start), size, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd, 0),
              mapped != MAP_FAILED else {
            let reason = String(cString: strerror(errno))
            munmap(room, size + large)
            throw problems.unreadable("cannot map \(name): \(reason)")
        }
        if start > Int(bitPattern: room) { munmap(room, start - Int(bitPattern: room)) }
        let page = StructureFile.pageBytes
        let roomEnd = Int(bitPattern: room) + size + large, mappedEnd = (start + size + page - 1) / page * page
        if roomEnd > mappedEnd { munmap(UnsafeMutableRawPointer(bitPattern: mappedEnd), roomEnd - mappedEnd) }
        return (UnsafeRawPointer(mapped), size)
    }

    /// A little-endian integer of the file at byte `at` of `bytes`.
    private static func word<T: FixedWidthInteger>(_ bytes: UnsafeRawBufferPointer, _ at: Int, _: T.Type) -> T {
        T(littleEndian: bytes.loadUnaligned(fromByteOffset: at, as: T.self))
    }

    /// The build id and the sections of the mapped file, its header and table checked (`StructureFile`'s layout).
    private static func readTable(base: UnsafeRawPointer, size: Int, _ problems: MappingProblems)
        throws(PindropError) -> (UUID, [String: Section]) {
        let header = UnsafeRawBufferPointer(start: base, count: StructureFile.headerBytes)
        let buildID = UUID(uuid: header.loadUnaligned(fromByteOffset: 16, as: uuid_t.self))
        guard Array(header[0..<8]) == StructureFile.magic else { throw problems.damaged("is not a Pindrop structures file") }
        guard word(header, 48, UInt64.self) == StructureFile.fnv1a(header[0..<48]) else { throw problems.damaged("has a damaged header") }
        guard word(header, 8, UInt32.self) == StructureFile.layoutVersion else {
            throw problems.damaged("has layout \(word(header, 8, UInt32.self)), this pindrop reads layout \(StructureFile.layoutVersion)")
        }
        let expected = Int(clamping: word(header, 32, UInt64.self))
        guard size == expected else {
            throw problems.damaged(size < expected ? "is cut short (\(size) of \(expected) bytes)" : "has \(size - expected) bytes too many")
        }
        let count = Int(word(header, 12, UInt32.self))
        let tableEnd = StructureFile.headerBytes + count * StructureFile.entryBytes
        guard tableEnd <= size else { throw problems.damaged("has a damaged table") }
        let table = UnsafeRawBufferPointer(start: base + StructureFile.headerBytes, count: count * StructureFile.entryBytes)
        guard word(header, 40, UInt64.self) == StructureFile.fnv1a(table) else { throw problems.damaged("has a damaged table") }
        var sections: [String: Section] = [:]
        for i in 0..<count {
            let entry = UnsafeRawBufferPointer(rebasing: table[(i * StructureFile.entryBytes)..<((i + 1) * StructureFile.entryBytes)])
            let nameBytes = entry[0..<StructureFile.nameBytes].prefix { $0 != 0 }
            let stride = Int(word(entry, 44, UInt32.self))
            let offset = Int(clamping: word(entry, 48, UInt64.self)), bytes = Int(clamping: word(entry, 56, UInt64.self))
            guard stride > 0, offset % StructureFile.alignment == 0, offset >= tableEnd, bytes % stride == 0,
                  offset <= size, bytes <= size - offset else { throw problems.damaged("has a damaged table") }
            sections[String(decoding: nameBytes, as: UTF8.self)] = Section(offset: offset, bytes: bytes, stride: stride)
        }
        return (buildID, sections)
    }

    deinit { munmap(UnsafeMutableRawPointer(mutating: base), size) }

    /// Tells the kernel that reads from here on are random (of this file and the one it lies over): a page not yet
    /// in memory is read alone, not with the 128 KiB around it that sequential reading would want. Queries read a
    /// few values here and there in sections of hundreds of megabytes, so reading around them filled memory with
    /// pages no query asked for. (Where the file is in 2 MiB pages, `adviseLargePages`, a missing one is still read
    /// whole.)
    func adviseRandomReads() {
        madvise(UnsafeMutableRawPointer(mutating: base), size, MADV_RANDOM)
        geonames?.adviseRandomReads()
    }

    /// Asks for the file in 2 MiB pages, but for the sparsely read sections: one address translation then covers
    /// 512 times the memory, which matters most on a virtual machine, where a missed translation walks two sets of
    /// page tables (docs/index-internals.md has the figures). The kernel
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

    func has(_ name: String) -> Bool { sections[name] != nil || geonames?.has(name) == true }

    /// The named section as a column (of this file, else of the one it lies over), or a clear error when it is
    /// missing or not of `T`'s width.
    func column<T: BitwiseCopyable>(_ name: String, as: T.Type = T.self) throws(PindropError) -> Column<T> {
        guard let s = sections[name] else {
            if let geonames, geonames.has(name) { return try geonames.column(name, as: T.self) }
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
