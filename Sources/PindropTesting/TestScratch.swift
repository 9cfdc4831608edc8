import Foundation

/// Where tests write files: one folder per test process under the system's temporary folder, removed when the
/// process exits, so that a run leaves nothing behind (a run makes ~150 MB of indexes and fixtures).
public enum TestScratch {
    /// This process's folder: created on first use, with its removal at exit arranged then.
    public static let root: String = {
        let path = NSTemporaryDirectory() + "pindrop-tests-\(getpid())"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: TestScratch.root) }
        return path
    }()

    /// A fresh, empty folder inside `root`, named after `purpose`.
    public static func folder(_ purpose: String) -> String {
        let path = root + "/" + purpose + "-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
