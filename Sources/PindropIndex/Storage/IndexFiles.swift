import Foundation

/// An index is three files side by side: the SQLite database at its path, and the two structures files its meta
/// names. "<database name>.<id>.geonames.structures" holds what only the GeoNames rows make (their place tree,
/// alternate names, towns and corrections), written by a GeoNames import and shared by every build over it;
/// "<database name>.<build id>.structures" holds the rest, written by every import and update. A new import writes
/// structures files of new names, and renaming the database into place publishes them at once; the previous ones
/// are removed after (a server that has them mapped keeps reading them: a file lives on until it is unmapped).
enum IndexFiles {
    /// The name of a new structures file for the index at `path`.
    static func structuresName(forIndexAt path: String, buildID: UUID) -> String {
        (path as NSString).lastPathComponent + ".\(shortID(buildID)).structures"
    }

    /// The name of a new overlay structures file for the index at `path` (`StreetOverlay`).
    static func overlayStructuresName(forIndexAt path: String, buildID: UUID) -> String {
        (path as NSString).lastPathComponent + ".\(shortID(buildID)).overlay.structures"
    }

    /// The name of a new GeoNames structures file for the index at `path`.
    static func geonamesStructuresName(forIndexAt path: String, buildID: UUID) -> String {
        (path as NSString).lastPathComponent + ".\(shortID(buildID)).geonames.structures"
    }

    private static func shortID(_ id: UUID) -> Substring {
        id.uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16)
    }

    /// The structures file `name` beside the index at `path`.
    static func structuresPath(forIndexAt path: String, named name: String) -> String {
        ((path as NSString).deletingLastPathComponent as NSString).appendingPathComponent(name)
    }

    /// Removes the structures files named after the index at `path` (as `structuresName` and
    /// `geonamesStructuresName` name them, finished or not), except those in `keep`: the replaced index's, and any
    /// left by an import that was interrupted.
    static func removeStructures(besideIndexAt path: String, except keep: Set<String>) {
        let folder = (path as NSString).deletingLastPathComponent, prefix = (path as NSString).lastPathComponent + "."
        for file in (try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder)) ?? []
        where !keep.contains(file) && file.hasPrefix(prefix) {
            let rest = file.dropFirst(prefix.count)
            guard rest.hasSuffix(".structures") || rest.hasSuffix(".structures.building") else { continue }
            let id = rest.prefix { $0 != "." }
            guard id.count == 16, id.allSatisfy(\.isHexDigit) else { continue }
            unlink(structuresPath(forIndexAt: path, named: file))
        }
    }
}
