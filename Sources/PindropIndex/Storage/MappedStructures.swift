import Foundation
import PindropCore

/// A structures file mapped read-only: its sections as columns, and those of the GeoNames structures file it lies
/// over. A section both files hold (a place column) is one column: the GeoNames file's values then this file's,
/// mapped end to end. The mappings last as long as any column of them (each keeps the file), and are private and
/// read-only, so another import replacing the file by rename leaves the open one answering from the file it mapped.
final class MappedStructures: @unchecked Sendable {
    let path: String
    let buildID: UUID
    private let base: UnsafeRawPointer
    private let size: Int
    /// The file, open while it is mapped: the joined sections of a file over this one are mapped from it.
    private let fd: Int32
    private let sections: [String: Section]
    /// The file whose sections this one's are looked up after (`IndexFiles`).
    let geonames: MappedStructures?
    /// The sections this file and `geonames` both hold, mapped end to end.
    private let joined: [String: Joined]

    /// Where a section lies in the file, and the size of its values.
    struct Section { var offset, bytes, stride: Int }

    /// A section of the GeoNames file and the same section of this one, mapped end to end: the values at `start`,
    /// in a mapping of its own (`region`).
    private struct Joined { var start: UnsafeRawPointer, bytes, stride: Int, region: UnsafeMutableRawPointer, regionBytes: Int }

    /// Maps the file at `path`, over the GeoNames structures file `geonames` when given. `index` names the index in
    /// errors. Throws `.indexUnavailable` with the reason when the file is missing, cut short, not a structures
    /// file, or damaged.
    init(path: String, index: String, over geonames: MappedStructures? = nil) throws(PindropError) {
        self.path = path
        self.geonames = geonames
        let problems = MappingProblems(file: (path as NSString).lastPathComponent, index: index)
        (base, size, fd) = try Self.mapAligned(path, problems)
        do throws(PindropError) {
            (buildID, sections) = try Self.readTable(base: base, size: size, problems)
            if let geonames { joined = try Self.join(geonames, sections, fd, problems) } else { joined = [:] }
        } catch {
            munmap(UnsafeMutableRawPointer(mutating: base), size)
            close(fd)
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
    /// 2 MiB folios whole (`adviseLargePages`), and the file, left open.
    private static func mapAligned(_ path: String, _ problems: MappingProblems) throws(PindropError) -> (UnsafeRawPointer, Int, Int32) {
        let name = problems.file
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { throw MappedStructures.missing(name, index: problems.index) }
            throw problems.unreadable("\(name): \(String(cString: strerror(errno)))")
        }
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw problems.unreadable("\(name): \(reason)")
        }
        let size = Int(status.st_size)
        guard size >= StructureFile.headerBytes else {
            close(fd)
            throw problems.damaged("is cut short (\(size) bytes)")
        }
        guard let start = reserve(size, likeOffset: 0) else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw problems.unreadable("cannot map \(name): \(reason)")
        }
        guard map(fd, from: 0, bytes: size, at: start) else {
            let reason = String(cString: strerror(errno))
            munmap(start, size)
            close(fd)
            throw problems.unreadable("cannot map \(name): \(reason)")
        }
        return (UnsafeRawPointer(start), size, fd)
    }

    /// Address space for `bytes` (inaccessible until a file is mapped over it) at an address that lies as `offset`
    /// does against a large page, so that a file mapped there from `offset` can be mapped in 2 MiB folios: room for
    /// one large page more is taken, and what is not needed given back.
    private static func reserve(_ bytes: Int, likeOffset offset: Int) -> UnsafeMutableRawPointer? {
        let large = StructureFile.largePage, page = StructureFile.pageBytes
        let roomBytes = bytes + 2 * large
        guard let room = mmap(nil, roomBytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), room != MAP_FAILED else { return nil }
        let roomStart = Int(bitPattern: room)
        let start = (roomStart + large - 1) / large * large + offset % large
        if start > roomStart { munmap(room, start - roomStart) }
        let end = (start + bytes + page - 1) / page * page, roomEnd = roomStart + roomBytes
        if roomEnd > end { munmap(UnsafeMutableRawPointer(bitPattern: end), roomEnd - end) }
        return UnsafeMutableRawPointer(bitPattern: start)
    }

    /// Maps `bytes` of the file `fd` from `offset` (a page's start) read-only over the reserved space at `at`;
    /// false when it cannot (the reason in `errno`).
    private static func map(_ fd: Int32, from offset: Int, bytes: Int, at: UnsafeMutableRawPointer) -> Bool {
        guard bytes > 0 else { return true }
        let mapped = mmap(at, bytes, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd, off_t(offset))
        return mapped != nil && mapped != MAP_FAILED
    }

    /// The sections of this file (its `sections`, `fd`) that `geonames` holds too, each mapped after the GeoNames
    /// file's part of it (which ends on `StructureFile.joinBoundary`; this file's starts on one).
    private static func join(_ geonames: MappedStructures, _ sections: [String: Section], _ fd: Int32,
                             _ problems: MappingProblems) throws(PindropError) -> [String: Joined] {
        let page = StructureFile.pageBytes, boundary = StructureFile.joinBoundary
        guard boundary % page == 0 else { throw problems.unreadable("its place table is laid out for pages of at most \(boundary) bytes, not \(page)") }
        var joined: [String: Joined] = [:]
        for (name, tail) in sections {
            guard let head = geonames.sections[name] else { continue }
            guard head.stride == tail.stride, (head.offset + head.bytes) % boundary == 0, tail.offset % boundary == 0 else {
                throw problems.damaged("does not continue the GeoNames structures file's section \(name)")
            }
            let headFrom = head.offset / page * page, headBytes = head.offset + head.bytes - headFrom
            let tailBytes = (tail.bytes + page - 1) / page * page
            let region = reserve(headBytes + tailBytes, likeOffset: headFrom)
            guard let region, map(geonames.fd, from: headFrom, bytes: headBytes, at: region),
                  map(fd, from: tail.offset, bytes: tailBytes, at: region + headBytes) else {
                let reason = String(cString: strerror(errno))
                if let region { munmap(region, headBytes + tailBytes) }
                for j in joined.values { munmap(j.region, j.regionBytes) }
                throw problems.unreadable("cannot map \(name): \(reason)")
            }
            joined[name] = Joined(start: UnsafeRawPointer(region + (head.offset - headFrom)), bytes: head.bytes + tail.bytes,
                                  stride: tail.stride, region: region, regionBytes: headBytes + tailBytes)
        }
        return joined
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
            guard stride > 0, offset >= tableEnd, bytes % stride == 0, offset <= size, bytes <= size - offset,
                  // A GeoNames part of a place column ends on a boundary rather than starting on an aligned offset.
                  offset % StructureFile.alignment == 0 || (offset + bytes) % StructureFile.joinBoundary == 0 && offset % stride == 0 else {
                throw problems.damaged("has a damaged table")
            }
            sections[String(decoding: nameBytes, as: UTF8.self)] = Section(offset: offset, bytes: bytes, stride: stride)
        }
        return (buildID, sections)
    }

    deinit {
        munmap(UnsafeMutableRawPointer(mutating: base), size)
        for j in joined.values { munmap(j.region, j.regionBytes) }
        close(fd)
    }

    /// Tells the kernel that reads from here on are random (of this file and the one it lies over): a page not yet
    /// in memory is read alone, not with the 128 KiB around it that sequential reading would want. Queries read a
    /// few values here and there in sections of hundreds of megabytes, so reading around them filled memory with
    /// pages no query asked for. (Where the file is in 2 MiB pages, `adviseLargePages`, a missing one is still read
    /// whole.)
    func adviseRandomReads() {
        madvise(UnsafeMutableRawPointer(mutating: base), size, MADV_RANDOM)
        for j in joined.values { madvise(j.region, j.regionBytes, MADV_RANDOM) }
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
        for j in joined.values { madvise(j.region, j.regionBytes, MADV_HUGEPAGE) }
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
        if let j = joined[name] {
            guard j.stride == MemoryLayout<T>.stride else {
                throw .indexUnavailable("the index is corrupt: structure \(name) has \(j.stride)-byte values, not \(MemoryLayout<T>.stride)")
            }
            return Column(mapped: UnsafeBufferPointer(start: j.start.assumingMemoryBound(to: T.self), count: j.bytes / j.stride), of: self)
        }
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

    /// The named section with `tail` after it, as one column (an overlay's rows after the stored ones): the section's
    /// whole pages mapped again from the files, then in memory of this process the values after its last whole page
    /// and `tail`. So the stored values stay the files' pages, however many they are, and only a page and the tail
    /// are copied.
    func column<T: BitwiseCopyable>(_ name: String, appending tail: [T]) throws(PindropError) -> Column<T> {
        let stored: Column<T> = try column(name)
        // The parts of the files the values lie in, in order: (file, offset in it, bytes).
        var parts: [(fd: Int32, offset: Int, bytes: Int)] = []
        if joined[name] != nil, let geonames, let head = geonames.sections[name], let own = sections[name] {
            parts = [(geonames.fd, head.offset, head.bytes), (fd, own.offset, own.bytes)]
        } else if let own = sections[name] {
            parts = [(fd, own.offset, own.bytes)]
        } else {
            throw .indexUnavailable("the index is incomplete: structure \(name) is missing from \((path as NSString).lastPathComponent)")
        }
        let page = StructureFile.pageBytes, stride = MemoryLayout<T>.stride
        let first = parts[0], lead = first.offset % page
        let last = parts[parts.count - 1], lastEnd = last.offset + last.bytes, lastWhole = lastEnd / page * page
        // The bytes mapped from the files: every part's pages but the last part's after its last whole page.
        let mappedBytes = parts.dropLast().reduce(0) { $0 + ($1.offset + $1.bytes - $1.offset / page * page) } + lastWhole - last.offset / page * page
        // The copied values start where they lie against a page: past the last whole page, or (a column inside one page)
        // where it begins.
        let copiedFrom = max(lastWhole, last.offset), into = copiedFrom - lastWhole
        let anonymous = (into + lastEnd - copiedFrom + tail.count * stride + page - 1) / page * page
        guard let region = Self.reserve(mappedBytes + max(anonymous, page), likeOffset: first.offset / page * page) else {
            throw .indexUnavailable("cannot map \(name): \(String(cString: strerror(errno)))")
        }
        let total = mappedBytes + max(anonymous, page)
        var at = 0, ok = true
        for (n, part) in parts.enumerated() {
            let from = part.offset / page * page, to = n == parts.count - 1 ? lastWhole : part.offset + part.bytes
            ok = ok && Self.map(part.fd, from: from, bytes: to - from, at: region + at)
            at += to - from
        }
        let fresh = mmap(region + at, total - at, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_FIXED | MAP_ANONYMOUS, -1, 0)
        guard ok, let fresh, fresh != MAP_FAILED else {
            munmap(region, total)
            throw .indexUnavailable("cannot map \(name): \(String(cString: strerror(errno)))")
        }
        // The values after the last whole page, read from the stored column (already mapped), then the tail's.
        stored.withUnsafeBytes { values in
            fresh.advanced(by: into).copyMemory(from: values.baseAddress! + (values.count - (lastEnd - copiedFrom)), byteCount: lastEnd - copiedFrom)
        }
        tail.withUnsafeBytes { bytes in
            if let base = bytes.baseAddress { fresh.advanced(by: into + lastEnd - copiedFrom).copyMemory(from: base, byteCount: bytes.count) }
        }
        mprotect(fresh, total - at, PROT_READ)
        let owner = MappedRegion(start: region, bytes: total)
        let values = UnsafeRawPointer(region + lead).assumingMemoryBound(to: T.self)
        return Column(mapped: UnsafeBufferPointer(start: values, count: stored.count + tail.count), of: owner)
    }

    /// The named section copied into an array (for what is rebuilt at open anyway: the street map's shapes).
    func array<T: BitwiseCopyable>(_ name: String, as: T.Type = T.self) throws(PindropError) -> [T] {
        Array(try column(name, as: T.self))
    }
}

/// Address space mapped for one column (`MappedStructures.column(_:appending:)`), unmapped with the last column that
/// reads it.
final class MappedRegion: @unchecked Sendable {
    let start: UnsafeMutableRawPointer, bytes: Int
    init(start: UnsafeMutableRawPointer, bytes: Int) { self.start = start; self.bytes = bytes }
    deinit { munmap(start, bytes) }
}
