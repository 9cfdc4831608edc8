import Foundation
import PindropCore

/// Reads an index from its files (`IndexFiles`): the database's meta, then the structures files it names, mapped
/// and decoded.
enum IndexReader {
    /// The structures files an index's meta names, and the build id each one's header must carry.
    struct StructureNames {
        var structures: String, buildID: String
        var geonames: String, geonamesBuildID: String
        /// The overlay laid over the structures, if any (`StreetOverlay`).
        var overlay: String? = nil, overlayBuildID: String? = nil
        /// The build a server tells this one apart by (`IndexDatabase.publishedBuild`).
        var published: String { IndexDatabase.publishedBuild(buildID, overlay: overlayBuildID) }
    }

    /// `body` on the database at `path` and the structures files its meta names.
    static func withStructures<Result>(
        at path: String,
        _ body: (_ database: IndexDatabase, _ names: StructureNames) throws(PindropError) -> Result
    ) throws(PindropError) -> Result {
        var attempt = 0
        while true {
            let database = try IndexDatabase(openingAt: path)
            let meta = try database.meta()
            do throws(PindropError) {
                return try body(database, try structureNames(meta, path: path))
            } catch {
                // An import may have put a new index in place between reading the meta and mapping the structures
                // file it named (and removed that file): the path now names the new index, so read it again.
                attempt += 1
                if attempt < 3, let now = try? IndexDatabase(openingAt: path).meta(), IndexDatabase.publishedBuild(now) != IndexDatabase.publishedBuild(meta) {
                    continue
                }
                throw error
            }
        }
    }

    /// The structures files the meta names, once the meta is of this format and names them with their build ids.
    static func structureNames(_ meta: [String: String], path: String) throws(PindropError) -> StructureNames {
        guard meta["structure_version"] == IndexDatabase.structureVersion else {
            throw .indexUnavailable("the index at \(path) has format \(meta["structure_version"] ?? "unknown"), this pindrop reads format \(IndexDatabase.structureVersion); rebuild it with `pindrop import geonames`")
        }
        guard let name = meta[IndexDatabase.structuresKey], let buildID = meta[IndexDatabase.buildIDKey], !name.contains("/"),
              let geonames = meta[IndexDatabase.geonamesStructuresKey], let geonamesBuildID = meta[IndexDatabase.geonamesBuildIDKey],
              !geonames.contains("/") else {
            throw .indexUnavailable("the index at \(path) is corrupt: it names no structures files; rebuild it with `pindrop import geonames`")
        }
        var names = StructureNames(structures: name, buildID: buildID, geonames: geonames, geonamesBuildID: geonamesBuildID)
        if let overlay = meta[IndexDatabase.overlayStructuresKey], !overlay.isEmpty, let id = meta[IndexDatabase.overlayBuildIDKey], !id.isEmpty {
            guard !overlay.contains("/") else { throw .indexUnavailable("the index at \(path) is corrupt: it names no overlay file; rebuild it with `pindrop import geonames`") }
            (names.overlay, names.overlayBuildID) = (overlay, id)
        }
        return names
    }

    /// The structures files `names` beside `database`, mapped and decoded, with the values `checks` names checked.
    static func decode(_ database: IndexDatabase, _ names: StructureNames,
                       checks: IndexStructures.ValueChecks) throws(PindropError) -> (IndexStructures.Decoded, MappedStructures) {
        let path = database.path
        let geonames = try mapped(names.geonames, buildID: names.geonamesBuildID, of: path, over: nil)
        let structures = try mapped(names.structures, buildID: names.buildID, of: path, over: geonames)
        let divisions = try database.countriesAndAdmin1()
        var decoded = try IndexStructures.decode(structures, countries: divisions.countries, admin1Names: divisions.admin1, checks: checks)
        if let overlay = names.overlay, let id = names.overlayBuildID {
            decoded = try IndexStructures.decode(overlay: try mapped(overlay, buildID: id, of: path, over: nil), over: decoded, in: structures,
                                                 checks: checks)
        }
        return (decoded, structures)
    }

    /// The structures file `name` of the index at `path`, mapped, once its header carries `buildID`.
    private static func mapped(_ name: String, buildID: String, of path: String,
                               over geonames: MappedStructures?) throws(PindropError) -> MappedStructures {
        let structures = try MappedStructures(path: IndexFiles.structuresPath(forIndexAt: path, named: name), index: path, over: geonames)
        guard structures.buildID.uuidString.lowercased() == buildID.lowercased() else {
            throw .indexUnavailable("the index at \(path) does not match its structures file \(name): they come from different imports; rebuild it with `pindrop import geonames`")
        }
        return structures
    }

    /// The files the index at `path` is made of: the database, and the structures files it names when it names
    /// them (the GeoNames one first, so the last is the one every import and update writes).
    static func files(at path: String) -> [String] {
        guard let meta = try? IndexDatabase(openingAt: path).meta() else { return [path] }
        return [path] + [IndexDatabase.geonamesStructuresKey, IndexDatabase.structuresKey, IndexDatabase.overlayStructuresKey].compactMap { key in
            meta[key].flatMap { $0.contains("/") || $0.isEmpty ? nil : IndexFiles.structuresPath(forIndexAt: path, named: $0) }
        }
    }
}
