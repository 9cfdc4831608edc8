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
