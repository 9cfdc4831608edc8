import Foundation

/// An index is two files side by side: the SQLite database at its path, and the structures file its meta names,
/// "<database name>.<build id>.structures". A new import writes a structures file of a new name, and renaming the
/// database into place publishes both at once; the previous structures file is removed after (a server that has
/// it mapped keeps reading it: the file lives on until it is unmapped).
enum IndexFiles {
    /// The name of a new structures file for the index at `path`.
    static func structuresName(forIndexAt path: String, buildID: UUID) -> String {
        let id = buildID.uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16)
        return (path as NSString).lastPathComponent + ".\(id).structures"
    }

    /// The structures file `name` beside the index at `path`.
    static func structuresPath(forIndexAt path: String, named name: String) -> String {
        ((path as NSString).deletingLastPathComponent as NSString).appendingPathComponent(name)
    }

    /// Removes the structures files named after the index at `path` (as `structuresName` names them, finished or
    /// not), except `keep`: the replaced index's, and any left by an import that was interrupted.
    static func removeStructures(besideIndexAt path: String, except keep: String) {
        let folder = (path as NSString).deletingLastPathComponent, prefix = (path as NSString).lastPathComponent + "."
        for file in (try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder)) ?? []
        where file != keep && file.hasPrefix(prefix) {
            let rest = file.dropFirst(prefix.count)
            guard rest.hasSuffix(".structures") || rest.hasSuffix(".structures.building") else { continue }
            let id = rest.prefix { $0 != "." }
            guard id.count == 16, id.allSatisfy(\.isHexDigit) else { continue }
            unlink(structuresPath(forIndexAt: path, named: file))
        }
    }
}
