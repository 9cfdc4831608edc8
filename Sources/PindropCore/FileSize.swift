import Foundation

extension FileManager {
    /// The size in bytes of the file at `path`; nil when it cannot be read (missing, not permitted).
    public func fileSize(atPath path: String) -> Int? {
        (try? attributesOfItem(atPath: path))?[.size] as? Int
    }
}
