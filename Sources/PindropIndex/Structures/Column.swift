import CPrefetch

/// A run of fixed-width values, read as an array is: while an import builds it, an array of its own; in an open
/// index, a section of the memory-mapped structures file (`StructureFile`), whose pages the kernel loads when
/// they are first read and may drop again (they are the file's, not the process's). Either way one type, so the
/// engine has one code path for both.
///
/// Reads are bounds-checked as an array's are. Writing (appending, assigning an element) is for imports: it
/// turns a mapped column into an array first, and copies a shared array first, as an array value would.
struct Column<Element: BitwiseCopyable>: RandomAccessCollection, ExpressibleByArrayLiteral, @unchecked Sendable {
    /// The values (the array's, or the mapping's), for the hot loops that read without bounds checks. Valid while
    /// this column (or a copy of it) is alive: a method of a structure that holds the column may read it for the
    /// whole call, and must not keep it past the call. Its values are as the import checked them (`verify`).
    private(set) var buffer: UnsafeBufferPointer<Element>
    /// What keeps `buffer` valid: the array, or the mapped file.
    private var storage: ColumnStorage<Element>

    /// The array's values (no copy: the column keeps the array).
    init(_ array: [Element]) {
        storage = ColumnStorage(array: array, file: nil)
        buffer = storage.array.withUnsafeBufferPointer { $0 }
    }

    init<S: Sequence<Element>>(_ values: S) { self.init(Array(values)) }

    init(arrayLiteral elements: Element...) { self.init(elements) }

    /// Values that `file` holds (mapped memory); the column keeps `file` open.
    init(mapped: UnsafeBufferPointer<Element>, of file: AnyObject) {
        storage = ColumnStorage(array: [], file: file)
        buffer = mapped
    }

    var startIndex: Int { 0 }
    var endIndex: Int { buffer.count }
    var count: Int { buffer.count }
    /// A plain range: the default (`DefaultIndices`) would hold the column, so that assigning to it in a loop over
    /// its indices copied it once.
    var indices: Range<Int> { 0..<buffer.count }

    @inline(__always)
    subscript(i: Int) -> Element {
        get {
            precondition(UInt(bitPattern: i) < UInt(bitPattern: buffer.count), "Column index out of range")
            return buffer[i]
        }
        set { modify { $0[i] = newValue } }
    }

    /// Starts loading value i into the cache without waiting for it (nothing when i is out of range).
    @inline(__always)
    func prefetch(_ i: Int) {
        if UInt(bitPattern: i) < UInt(bitPattern: buffer.count) { pindrop_prefetch(buffer.baseAddress! + i) }
    }

    /// The values as a buffer, valid inside `body`.
    @inline(__always)
    func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows -> R {
        try withExtendedLifetime(storage) { try body(buffer) }
    }

    /// The values' bytes, valid inside `body` (for writing them to a file).
    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withExtendedLifetime(storage) { try body(UnsafeRawBufferPointer(buffer)) }
    }

    func withContiguousStorageIfAvailable<R>(_ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows -> R? {
        try withUnsafeBufferPointer(body)
    }

    /// Whether the values live in a mapped file (an open index) rather than in an array of their own.
    var isMapped: Bool { storage.file != nil }

    // MARK: Building (imports)

    mutating func append(_ value: Element) { modify { $0.append(value) } }

    mutating func append<S: Sequence<Element>>(contentsOf values: S) { modify { $0.append(contentsOf: values) } }

    mutating func reserveCapacity(_ n: Int) { modify { $0.reserveCapacity(n) } }

    static func += <S: Sequence<Element>>(column: inout Column, values: S) { column.append(contentsOf: values) }

    /// Runs `body` on the values as an array of this column's own: a mapped or shared column is copied first.
    mutating func modify<R>(_ body: (inout [Element]) throws -> R) rethrows -> R {
        if storage.file != nil {
            storage = ColumnStorage(array: Array(buffer), file: nil)
        } else if !isKnownUniquelyReferenced(&storage) {
            storage = ColumnStorage(array: storage.array, file: nil)
        }
        defer { buffer = storage.array.withUnsafeBufferPointer { $0 } }
        return try body(&storage.array)
    }
}

/// The owner of a column's values.
final class ColumnStorage<Element> {
    var array: [Element]
    let file: AnyObject?

    init(array: [Element], file: AnyObject?) {
        self.array = array
        self.file = file
    }
}

extension Column: Equatable where Element: Equatable {
    static func == (a: Column, b: Column) -> Bool { a.elementsEqual(b) }
}
