import Foundation
import GRDB
import GRDBSQLite
import PindropCore

/// One read structure on its way into the index file: its name and its array, whose raw bytes are written as
/// they lie in memory (no `Data` copy of every structure while the import still holds them all).
struct StoredArray {
    let name: String
    let withBytes: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void

    init<T: BitwiseCopyable>(_ name: String, _ array: [T]) {
        self.name = name
        withBytes = { body in try array.withUnsafeBytes(body) }
    }
}

/// Raw little-endian bytes of plain arrays in the `structure` table, moved with SQLite's incremental blob I/O
/// between the file and the array itself: writing makes no copy of a structure, reading makes one.
enum ArrayBlob {
    /// Largest row one structure is cut into. SQLite refuses values over 1,000,000,000 bytes (its default
    /// SQLITE_MAX_LENGTH), so a larger structure is stored as rows "name", "name#1", "name#2", ... and read
    /// back into one array; a structure is then bounded by memory, not by SQLite.
    static let partBytes = 256 << 20
    /// Bytes moved per blob call.
    static let chunkBytes = 16 << 20

    static func write(_ structure: StoredArray, to db: Database) throws {
        try structure.withBytes { bytes in
            var offset = 0, part = 0
            repeat {
                let n = min(partBytes, bytes.count - offset)
                let name = part == 0 ? structure.name : "\(structure.name)#\(part)"
                // A zero blob of the right size takes no memory; its bytes are then filled in place.
                try db.execute(sql: "INSERT OR REPLACE INTO structure VALUES (?, zeroblob(?))", arguments: [name, n])
                if n > 0 {
                    try withBlob(db, row: db.lastInsertedRowID, writable: true) { blob in
                        var done = 0
                        while done < n {
                            let m = min(chunkBytes, n - done)
                            try check(sqlite3_blob_write(blob, bytes.baseAddress! + offset + done, Int32(m), Int32(done)), db)
                            done += m
                        }
                    }
                }
                offset += n; part += 1
            } while offset < bytes.count
        }
    }

    static func withBlob<R>(_ db: Database, row: Int64, writable: Bool, _ body: (OpaquePointer) throws -> R) throws -> R {
        var blob: OpaquePointer?
        try check(sqlite3_blob_open(db.sqliteConnection, "main", "structure", "data", row, writable ? 1 : 0, &blob), db)
        defer { sqlite3_blob_close(blob) }
        return try body(blob!)
    }

    static func check(_ code: Int32, _ db: Database) throws {
        guard code == SQLITE_OK else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
        }
    }
}

/// The stored structures of an index open for reading, each read straight from the file into its array.
struct StructureReader {
    let db: Database
    let path: String
    /// Each structure's rows (rowid, bytes), part after part.
    private var parts: [String: [(row: Int64, bytes: Int)]] = [:]

    init(_ db: Database, path: String) throws {
        self.db = db
        self.path = path
        var found: [(name: String, part: Int, row: Int64, bytes: Int)] = []
        for row in try Row.fetchAll(db, sql: "SELECT name, rowid, length(data) FROM structure") {
            let full: String = row[0]
            let pieces = full.split(separator: "#", maxSplits: 1)
            found.append((String(pieces[0]), pieces.count == 2 ? Int(pieces[1]) ?? -1 : 0, row[1], row[2]))
        }
        for f in found.sorted(by: { ($0.name, $0.part) < ($1.name, $1.part) }) {
            parts[f.name, default: []].append((f.row, f.bytes))
        }
    }

    func has(_ name: String) -> Bool { parts[name] != nil }

    /// The named structure as an array, or a clear error when it is missing or malformed.
    func array<T: BitwiseCopyable>(_ name: String, as: T.Type = T.self) throws(PindropError) -> [T] {
        guard let rows = parts[name] else { throw .indexUnavailable("the index is incomplete: structure \(name) is missing") }
        let total = rows.reduce(0) { $0 + $1.bytes }, stride = MemoryLayout<T>.stride
        guard total % stride == 0 else {
            throw .indexUnavailable("the index is corrupt: structure \(name) has \(total) bytes, not a multiple of \(stride)")
        }
        do {
            return try [T](unsafeUninitializedCapacity: total / stride) { buffer, initialized in
                let base = UnsafeMutableRawPointer(buffer.baseAddress)
                var offset = 0
                for (row, bytes) in rows where bytes > 0 {
                    try ArrayBlob.withBlob(db, row: row, writable: false) { blob in
                        var done = 0
                        while done < bytes {
                            let m = min(ArrayBlob.chunkBytes, bytes - done)
                            try ArrayBlob.check(sqlite3_blob_read(blob, base! + offset + done, Int32(m), Int32(done)), db)
                            done += m
                        }
                    }
                    offset += bytes
                }
                initialized = total / stride
            }
        } catch let error as PindropError {
            throw error
        } catch {
            throw .indexUnavailable("the index at \(path) cannot be read (\(IndexDatabase.describe(error)))")
        }
    }
}
