import PindropCore

/// One read structure on its way into the structures file: its name and its values, whose raw bytes are written
/// as they lie in memory (no copy of a structure while the import still holds them all).
struct StoredArray {
    let name: String
    let stride: Int
    /// Bytes one `pwrite` of it writes at most (see `StructureFile.writeChunk`).
    let writeChunk: Int
    /// Where the file puts it.
    let placement: Placement
    let withBytes: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void

    /// Where a section lies against `StructureFile.joinBoundary`: anywhere (at a multiple of `StructureFile.alignment`),
    /// ending on one (the GeoNames rows of a place column, in the GeoNames structures file) or starting on one (the
    /// other rows of it, in the build's file), so that a reader maps the two end to end as one column
    /// (`MappedStructures`).
    enum Placement { case anywhere, endsOnBoundary, startsOnBoundary }

    /// All the values of `column`.
    init<T: BitwiseCopyable>(_ name: String, _ column: Column<T>) {
        self.init(name: name, stride: MemoryLayout<T>.stride, writeChunk: Self.writeChunk(of: name), placement: .anywhere) { body in
            try column.withUnsafeBytes(body)
        }
    }

    init<T: BitwiseCopyable>(_ name: String, _ array: [T]) { self.init(name, Column(array)) }

    /// The values `rows` of `column`, placed as `placement` says.
    init<T: BitwiseCopyable>(_ name: String, _ column: Column<T>, rows: Range<Int>, placement: Placement) {
        let stride = MemoryLayout<T>.stride
        self.init(name: name, stride: stride, writeChunk: Self.writeChunk(of: name), placement: placement) { body in
            try column.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[(rows.lowerBound * stride)..<(rows.upperBound * stride)])) }
        }
    }

    /// A structure `StructureFile.sparselyRead` names is written in small pieces, which the kernel caches, and a
    /// fault then maps, in small folios.
    private static func writeChunk(of name: String) -> Int {
        StructureFile.sparselyRead.contains(name) ? StructureFile.sparseWriteChunk : StructureFile.writeChunk
    }

    private init(name: String, stride: Int, writeChunk: Int, placement: Placement,
                 withBytes: @escaping ((UnsafeRawBufferPointer) throws -> Void) throws -> Void) {
        self.name = name; self.stride = stride; self.writeChunk = writeChunk; self.placement = placement; self.withBytes = withBytes
    }

    /// Structures still being made on another thread, each waited for when the file reaches it: `made` gives them
    /// (and may wait), named and typed as `template`, the same structures of an empty value.
    static func later(like template: [StoredArray], _ made: @escaping () -> [StoredArray]) -> [StoredArray] {
        template.enumerated().map { i, t in
            StoredArray(name: t.name, stride: t.stride, writeChunk: t.writeChunk, placement: t.placement) { body in
                let section = made()[i]
                precondition(section.name == t.name && section.stride == t.stride, "structure \(t.name)")
                try section.withBytes(body)
            }
        }
    }
}
