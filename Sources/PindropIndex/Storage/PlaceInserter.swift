import GRDB
import GRDBSQLite
import PindropCore

/// GeoNames rows on their way into the place table, as they are read (a later row with the same id replaces the
/// earlier); `finish` stores the last few. Bound through SQLite's own calls (GRDB's argument arrays cost
/// twice what SQLite does, per row), and several rows to a statement: each run of a statement opens its table
/// afresh, and that was a third of an import's time storing rows. A struct, so that its buffers are not checked
/// for exclusive access at every append as a class's would be.
struct PlaceInserter {
    static let rowsPerStatement = 32
    /// The `place` columns that hold text, in the order each row's texts are kept.
    private static let textColumns: [Int32] = [2, 3, 4, 7, 8, 9, 11]
    private let connection: SQLiteConnection
    /// One statement of `rowsPerStatement` rows, and one of a single row for the last few.
    private let many: Statement, one: Statement
    /// The waiting rows' texts back to back, bound where they lie (SQLITE_STATIC) rather than each copied by SQLite
    /// into an allocation of its own; where each row's texts lie (`textColumns.count` a row); and its numbers.
    private var text: [UInt8] = [], spans: [(start: Int, count: Int)] = []
    private var numbers: [(id: Int64, latitude: Double, longitude: Double, population: Int64)] = []

    init(_ db: Database) throws {
        func insert(rows: Int) -> String {
            "INSERT OR REPLACE INTO place VALUES " + Array(repeating: "(?,?,?,?,?,?,?,?,?,?,?)", count: rows).joined(separator: ",")
        }
        many = try db.makeStatement(sql: insert(rows: Self.rowsPerStatement))
        one = try db.makeStatement(sql: insert(rows: 1))
        connection = db.sqliteConnection!
    }

    mutating func insert(_ r: GeoNamesRecord) throws {
        func add(_ field: String) {
            let start = text.count
            text.append(contentsOf: field.utf8)
            spans.append((start, text.count - start))
        }
        add(r.name)
        add(r.asciiName)
        // The alternate names comma-separated, as the dump has them.
        let start = text.count
        text.append(contentsOf: r.alternateNamesText.utf8)
        for i in start..<text.count where text[i] == GeoNamesRecord.alternateSeparator { text[i] = UInt8(ascii: ",") }
        spans.append((start, text.count - start))
        add(r.featureCode)
        add(r.countryCode)
        add(r.admin1Code)
        add(r.timezone)
        numbers.append((Int64(r.geonameID), r.latitude, r.longitude, Int64(r.population)))
        if numbers.count == Self.rowsPerStatement {
            try run(many, rows: 0..<numbers.count)
            clear()
        }
    }

    /// Stores the rows still waiting.
    mutating func finish() throws {
        for row in numbers.indices { try run(one, rows: row..<(row + 1)) }
        clear()
    }

    private mutating func clear() {
        text.removeAll(keepingCapacity: true)
        spans.removeAll(keepingCapacity: true)
        numbers.removeAll(keepingCapacity: true)
    }

    private func run(_ statement: Statement, rows: Range<Int>) throws {
        let s = statement.sqliteStatement
        sqlite3_reset(s)
        let code = text.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { bytes in
                for (n, row) in rows.enumerated() {
                    let base = Int32(11 * n), values = numbers[row]
                    sqlite3_bind_int64(s, base + 1, values.id)
                    sqlite3_bind_double(s, base + 5, values.latitude)
                    sqlite3_bind_double(s, base + 6, values.longitude)
                    sqlite3_bind_int64(s, base + 10, values.population)
                    for (k, column) in Self.textColumns.enumerated() {
                        let (start, count) = spans[Self.textColumns.count * row + k]
                        if count == 0 { sqlite3_bind_text(s, base + column, "", 0, nil) } else { sqlite3_bind_text(s, base + column, bytes.baseAddress! + start, Int32(count), nil) }
                    }
                }
                // The texts stay where they are bound until the statement has run.
                return sqlite3_step(s)
            }
        }
        guard code == SQLITE_DONE else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(connection)))
        }
    }
}
