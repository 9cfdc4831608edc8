import Foundation
import PindropTesting
import Testing

/// A failed import exits non-zero with one sentence saying why, and the previous index answers as before;
/// the default index is rebuilt unasked only when it came from the shipped data.
@Suite("pindrop import: failures keep the index", .serialized)
struct ImportFailureTests {
    typealias CLI = CommandLineTests
    static let work = CLI.work + "/import-failures"
    static let mini = CLI.repository.appendingPathComponent("Tests/PindropImportTests/Fixtures/mini").path
    static let helsinki = CLI.repository.appendingPathComponent("data/osm/helsinki-center.osm.pbf").path

    /// A working index from the mini dump, built once.
    static let good: Result<String, any Error> = Result {
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        let path = work + "/good.sqlite"
        let run = try CLI.pindrop(["import", "geonames", mini, "--index", path])
        guard run.status == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: ["stderr": run.stderr]) }
        return path
    }

    /// A fresh folder named `name` holding `dump` (a name and its bytes) and the mini dump's companion files.
    static func folder(_ name: String, dump: (String, Data)?, companions: [String] = ["countryInfo.txt", "admin1CodesASCII.txt"]) throws -> String {
        let folder = work + "/" + name
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        if let (file, bytes) = dump { try bytes.write(to: URL(fileURLWithPath: folder + "/" + file)) }
        for file in companions { try FileManager.default.copyItem(atPath: mini + "/" + file, toPath: folder + "/" + file) }
        return folder
    }

    /// The `pindrop import` arguments of each broken input, and what its error says.
    static let cases: [(name: String, arguments: @Sendable () throws -> [String], message: String)] = [
        ("the shipped dump's first 5,000 bytes", {
            let gz = try Data(contentsOf: CLI.repository.appendingPathComponent("data/geonames/cities500.txt.gz")).prefix(5_000)
            return ["geonames", try folder("truncated", dump: ("cities500.txt.gz", gz))]
        }, "cities500.txt.gz ends early (truncated gzip)"),
        ("a folder without countryInfo.txt", {
            let dump = try Data(contentsOf: URL(fileURLWithPath: mini + "/cities500.txt"))
            return ["geonames", try folder("no-countries", dump: ("cities500.txt", dump), companions: ["admin1CodesASCII.txt"])]
        }, "no countryInfo.txt beside cities500.txt"),
        ("random bytes named cities500.txt", {
            var seed: UInt32 = 15
            let bytes = (0..<50_000).map { _ in seed = seed &* 1_664_525 &+ 1_013_904_223; return UInt8(seed >> 24) }
            return ["geonames", try folder("random", dump: ("cities500.txt", Data(bytes)))]
        }, "cities500.txt holds no readable GeoNames rows"),
        ("a cities500.txt that links to /dev/zero", {
            let path = try folder("dev-zero", dump: nil)
            try FileManager.default.createSymbolicLink(atPath: path + "/cities500.txt", withDestinationPath: "/dev/zero")
            return ["geonames", path]
        }, "cities500.txt: not a regular file"),
        ("a dump with a row of 2 MiB", {
            let rows = try String(contentsOfFile: mini + "/cities500.txt", encoding: .utf8).split(separator: "\n")
            let dump = (rows.prefix(4) + [Substring(String(repeating: "7", count: 2 << 20))] + rows.dropFirst(4)).joined(separator: "\n")
            return ["geonames", try folder("long-row", dump: ("cities500.txt", Data(dump.utf8)))]
        }, "cities500.txt: line 5 is longer than 1048576 bytes"),
        ("a truncated extract", {
            let pbf = try Data(contentsOf: URL(fileURLWithPath: helsinki))
            let path = try folder("pbf-truncated", dump: ("cut.osm.pbf", pbf.prefix(pbf.count * 2 / 5)), companions: []) + "/cut.osm.pbf"
            return ["osm", path]
        }, "OSM PBF: the file is truncated"),
        ("a bit-flipped extract", {
            var pbf = try Data(contentsOf: URL(fileURLWithPath: helsinki))
            pbf[200_000] ^= 0x10
            return ["osm", try folder("pbf-flipped", dump: ("flipped.osm.pbf", pbf), companions: []) + "/flipped.osm.pbf"]
        }, "OSM PBF: a zlib blob does not inflate to its declared raw_size"),
        ("a way of 2,001 node references", {
            let file = OSMTestPBF.file([OSMTestPBF.block(OSMTestPBF.wayGroup(id: 7, nodeIDs: Array(1...2_001)))])
            return ["osm", try folder("pbf-long-way", dump: ("way.osm.pbf", Data(file)), companions: []) + "/way.osm.pbf"]
        }, "OSM PBF: way 7 has 2001 node references, over the limit of 2000"),
        ("a header and no data", {
            ["osm", try folder("pbf-header-only", dump: ("empty.osm.pbf", Data(OSMTestPBF.headerBlock())), companions: []) + "/empty.osm.pbf"]
        }, "OSM PBF: the file holds no OpenStreetMap data"),
    ]

    @Test("a broken input exits 1 with one clear line, and the previous index answers exactly as before", arguments: 0..<cases.count)
    func brokenImport(_ which: Int) throws {
        let (name, arguments, message) = Self.cases[which]
        let index = Self.work + "/index-\(which).sqlite"
        try? FileManager.default.removeItem(atPath: index)
        try FileManager.default.copyItem(atPath: try Self.good.get(), toPath: index)
        let before = try Data(contentsOf: URL(fileURLWithPath: index))
        let run = try CLI.pindrop(["import"] + (try arguments()) + ["--index", index])
        #expect(run.status == 1, "\(name): exit \(run.status); \(run.stdout)")
        let error = run.stderr.split(separator: "\n").filter { $0.hasPrefix("pindrop: error: ") }
        #expect(error.count == 1 && error[0].contains(message) && error[0].hasSuffix("the index at \(index) is unchanged"),
                "\(name): \(run.stderr)")
        #expect(run.stdout.isEmpty)
        #expect(try Data(contentsOf: URL(fileURLWithPath: index)) == before, "\(name): the index file changed")
        #expect(!FileManager.default.fileExists(atPath: index + ".building"))
        let search = try CLI.pindrop(["search", "Springfield, IL", "--index", index])
        #expect(search.status == 0 && search.stdout.contains("Springfield, Illinois"), "\(name): \(search.stdout)")
        #expect(try CLI.pindrop(["status", "--index", index]).stdout.contains("places: 5"))
    }

    @Test("an extract giving no street-level data does not replace one that gave some, unless --allow-empty says so")
    func featurelessExtract() throws {
        let index = Self.work + "/with-streets.sqlite"
        try? FileManager.default.removeItem(atPath: index)
        try FileManager.default.copyItem(atPath: try Self.good.get(), toPath: index)
        #expect(try CLI.pindrop(["import", "osm", Self.helsinki, "--index", index]).status == 0)
        let nodes = OSMTestPBF.file([OSMTestPBF.block(OSMTestPBF.denseGroup(ids: [1, 2], latitude: 601_700_000, longitude: 249_400_000))])
        let file = try Self.folder("pbf-featureless", dump: ("nodes.osm.pbf", Data(nodes)), companions: []) + "/nodes.osm.pbf"
        let before = try Data(contentsOf: URL(fileURLWithPath: index))
        let refused = try CLI.pindrop(["import", "osm", file, "--index", index])
        #expect(refused.status == 1 && refused.stderr.contains("nodes.osm.pbf holds no address, street, venue, building or area")
                && refused.stderr.contains("--allow-empty"), "\(refused.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: index)) == before)
        #expect(try CLI.pindrop(["search", "Aleksanterinkatu", "--index", index]).stdout.contains("Aleksanterinkatu"))

        let allowed = try CLI.pindrop(["import", "osm", file, "--allow-empty", "--index", index])
        #expect(allowed.status == 0 && allowed.stdout.contains("imported 0 venues, 0 addresses, 0 streets"), "\(allowed.stderr)")
        #expect(!(try CLI.pindrop(["search", "Aleksanterinkatu", "--index", index]).stdout.contains("Aleksanterinkatu")))
    }

    @Test("a second import into an index while one runs is refused at once with the first one's pid; the first completes")
    func concurrentImports() throws {
        let index = Self.work + "/concurrent.sqlite"
        try? FileManager.default.removeItem(atPath: index)
        try FileManager.default.copyItem(atPath: try Self.good.get(), toPath: index)
        let first = Process()
        first.executableURL = CLI.binary
        first.arguments = ["import", "osm", Self.helsinki, "--index", index]
        first.standardOutput = FileHandle.nullDevice
        first.standardError = FileHandle.nullDevice
        try first.run()
        // The first holds the lock once its pid is in the lock file.
        let deadline = Date().addingTimeInterval(30)
        while (try? String(contentsOfFile: index + ".lock", encoding: .utf8)) != "\(first.processIdentifier)\n", Date() < deadline {
            usleep(10_000)
        }
        let second = try CLI.pindrop(["import", "geonames", Self.mini, "--index", index])
        first.waitUntilExit()
        #expect(second.status == 1)
        #expect(second.stderr == "pindrop: error: another import is running (pid \(first.processIdentifier)) into the index at \(index);"
                + " wait for it to end; the index at \(index) is unchanged\n")
        #expect(first.terminationStatus == 0)
        #expect(try CLI.pindrop(["search", "Aleksanterinkatu", "--index", index]).stdout.contains("Aleksanterinkatu"))
    }

    /// Rewrites the format version an index records, as an index from another pindrop release would have it.
    static func setFormat(of path: String, to version: String) throws {
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let key = Data("structure_version".utf8)
        let at = try #require(bytes.range(of: key)).upperBound
        bytes.replaceSubrange(at..<at + version.utf8.count, with: Data(version.utf8))
        try bytes.write(to: URL(fileURLWithPath: path))
    }

    @Test("a default index of another format holding the user's import is kept, with what to do; one from the shipped data is rebuilt")
    func unusableDefaultIndex() throws {
        // The user's own import in the default place.
        let user = try CLI.emptyHome("user-import")
        let userIndex = user["PINDROP_HOME"]! + "/geonames.sqlite"
        #expect(try CLI.pindrop(["import", "geonames", Self.mini], environment: user).status == 0)
        try Self.setFormat(of: userIndex, to: "00")
        let before = try Data(contentsOf: URL(fileURLWithPath: userIndex))
        let kept = try CLI.pindrop(["search", "Springfield"], environment: user)
        #expect(kept.status == 1, "\(kept.stdout)")
        #expect(kept.stderr.contains("has format 00") && kept.stderr.contains("It is kept, as it may hold your own import")
                && kept.stderr.contains("pindrop import geonames") && kept.stderr.contains("remove \(userIndex)"), "\(kept.stderr)")
        #expect(kept.stderr.split(separator: "\n").count == 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: userIndex)) == before)
        // The same for a file that is not an index at all: whose it was cannot be known, so it is kept.
        try Data(repeating: 7, count: 4096).write(to: URL(fileURLWithPath: userIndex))
        let junk = try CLI.pindrop(["status"], environment: user)
        #expect(junk.status == 1 && junk.stderr.contains("It is kept"), "\(junk.stderr)")

        // Built from the shipped data on first use: rebuilt after a format change.
        let shipped = try CLI.emptyHome("shipped-rebuild")
        #expect(try CLI.pindrop(["status"], environment: shipped).status == 0)
        try Self.setFormat(of: shipped["PINDROP_HOME"]! + "/geonames.sqlite", to: "00")
        let rebuilt = try CLI.pindrop(["search", "Springfield"], environment: shipped)
        #expect(rebuilt.status == 0 && rebuilt.stdout.contains("Springfield"), "\(rebuilt.stderr)")
        #expect(rebuilt.stderr.contains("has format 00") && rebuilt.stderr.contains("rebuilding it from the shipped data"))
    }

    @Test("an update where no index was ever built fails with one line that does not speak of an index kept")
    func updateWithoutIndex() throws {
        let home = try CLI.emptyHome("update-without-index")
        let run = try CLI.pindrop(["update", Self.work + "/missing.osc"], environment: home)
        let errors = run.stderr.split(separator: "\n").filter { $0.hasPrefix("pindrop: error: ") }
        #expect(run.status != 0 && errors.count == 1 && !run.stderr.contains("is unchanged"), "\(run.stderr)")
        // Nothing is left in the home: no index, and no lock file beside one.
        #expect((try? FileManager.default.contentsOfDirectory(atPath: home["PINDROP_HOME"]!)) ?? [] == [])
    }
}
