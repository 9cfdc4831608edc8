import Foundation

/// How an import holds its memory, so that its peak is its largest stage and not the sum of the stages it passed
/// (glibc's malloc; elsewhere these do nothing).
public enum ImportMemory {
    /// Gives each large block (1 MiB and more: the columns, trees and sort orders) a mapping of its own, handed back
    /// to the system when freed. glibc otherwise raises this threshold as large blocks are freed, up to 32 MiB,
    /// and then the columns share the heap with the features' many small allocations, where freeing them returns
    /// little (OSM ×100: a peak of 565 MiB, against 497 MiB).
    public static func mapLargeBlocks() {
        _ = mallopt?(-3 /* M_MMAP_THRESHOLD */, 1 << 20)
    }

    /// Hands back the free pages malloc keeps after a stage frees its structures, so the next stage starts from
    /// what is still in use.
    public static func returnFreed() {
        _ = mallocTrim?(0)
    }

    // Looked up at run time (nil is `RTLD_DEFAULT`): the C library's module does not declare them.
    private static let mallopt: (@convention(c) (Int32, Int32) -> Int32)? = dlsym(nil, "mallopt")
        .map { unsafeBitCast($0, to: (@convention(c) (Int32, Int32) -> Int32).self) }
    private static let mallocTrim: (@convention(c) (Int) -> Int32)? = dlsym(nil, "malloc_trim")
        .map { unsafeBitCast($0, to: (@convention(c) (Int) -> Int32).self) }
}
