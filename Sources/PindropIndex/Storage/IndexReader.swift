import Foundation
import PindropCore

/// Reads an index from its two files (`IndexFiles`): the database's meta, then the structures file it names,
/// mapped and decoded.
enum IndexReader {
    /// `body` on the database at `path` and the structures file and build id its meta names.
    static func withStructures<Result>(
        at path: String,
        _ body: (_ database: IndexDatabase, _ structures: String, _ buildID: String) throws(PindropError) -> Result
    ) throws(PindropError) -> Result {
        var attempt = 0
        while true {
            let database = try IndexDatabase(openingAt: path)
            let meta = try database.meta()
            do throws(PindropError) {
                return try body(database, try structuresName(meta, path: path), meta[IndexDatabase.buildIDKey] ?? "")
            } catch {
                // An import may have put a new index in place between reading the meta and mapping the structures
                // file it named (and removed that file): the path now names the new index, so read it again.
                attempt += 1
                if attempt < 3, let now = try? IndexDatabase(openingAt: path).meta(), now[IndexDatabase.buildIDKey] != meta[IndexDatabase.buildIDKey] {
                    continue
                }
                throw error
            }
        }
    }

    /// The structures file the meta names, once the meta is of this format and names one with its build id.
    private static func structuresName(_ meta: [String: String], path: String) throws(PindropError) -> String {
        guard meta["structure_version"] == IndexDatabase.structureVersion else {
            throw .indexUnavailable("the index at \(path) has format \(meta["structure_version"] ?? "unknown"), this pindrop reads format \(IndexDatabase.structureVersion); rebuild it with `pindrop import geonames`")
        }
        guard let name = meta[IndexDatabase.structuresKey], meta[IndexDatabase.buildIDKey] != nil, !name.contains("/") else {
            throw .indexUnavailable("the index at \(path) is corrupt: it names no structures file; rebuild it with `pindrop import geonames`")
        }
        return name
    }

    /// The structures file `name` beside `database`, mapped and decoded; with `verify`, every value checked.
    static func decode(_ database: IndexDatabase, structures name: String, buildID: String,
                       verify: Bool) throws(PindropError) -> (IndexStructures.Decoded, MappedStructures) {
        let path = database.path
        let structures = try MappedStructures(path: IndexFiles.structuresPath(forIndexAt: path, named: name), index: path)
        guard structures.buildID.uuidString.lowercased() == buildID.lowercased() else {
            throw .indexUnavailable("the index at \(path) does not match its structures file \(name): they come from different imports; rebuild it with `pindrop import geonames`")
        }
        let divisions = try database.countriesAndAdmin1()
        return (try IndexStructures.decode(structures, countries: divisions.countries, admin1Names: divisions.admin1, verify: verify), structures)
    }

    /// The files the index at `path` is made of: the database, and the structures file it names when it names one.
    static func files(at path: String) -> [String] {
        guard let name = try? IndexDatabase(openingAt: path).meta()[IndexDatabase.structuresKey], !name.contains("/") else { return [path] }
        return [path, IndexFiles.structuresPath(forIndexAt: path, named: name)]
    }
}
