import Foundation
import PindropCore
import PindropTesting
import Testing

/// Runs the built `pindrop` binary the way a person does, on an index built from the small fixture dump.
@Suite("pindrop command line", .serialized)
struct CommandLineTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let binary: URL = {
        // The test bundle sits in the same build folder as the executable.
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("pindrop").path), folder.path != "/" {
            folder.deleteLastPathComponent()
        }
        return folder.appendingPathComponent("pindrop")
    }()
    static let work = TestScratch.root + "/cli"
    static let index = work + "/mini.sqlite"

    struct Run { var status: Int32; var stdout: String; var stderr: String }

    @discardableResult
    static func pindrop(_ arguments: [String], input: String? = nil, environment extra: [String: String] = [:]) throws -> Run {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["PINDROP_HOME"] = work + "/home"
        environment.merge(extra) { _, new in new }
        process.environment = environment
        let out = Pipe(), err = Pipe(), inPipe = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = inPipe
        try process.run()
        if let input { inPipe.fileHandleForWriting.write(Data(input.utf8)) }
        try inPipe.fileHandleForWriting.close()
        let stdout = out.fileHandleForReading.readDataToEndOfFile(), stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                   stderr: String(decoding: stderr, as: UTF8.self))
    }

    static let imported: Result<Run, any Error> = Result {
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        return try pindrop(["import", "geonames", repository.appendingPathComponent("Tests/PindropImportTests/Fixtures/mini").path,
                            "--index", index])
    }

    @Test("import reports rows read, imported and skipped, and each bad line with its number")
    func importSummary() throws {
        let run = try Self.imported.get()
        #expect(run.status == 0)
        #expect(run.stdout.contains("read 9 rows, imported 5, skipped 4"))
        #expect(run.stderr.contains("cities500.txt:3: "))
        #expect(run.stderr.contains("cities500.txt:6: latitude"))
    }

    @Test("search --json prints the query and the results with every field")
    func searchJSON() throws {
        _ = try Self.imported.get()
        let run = try Self.pindrop(["search", "Springfield, IL", "--json", "--index", Self.index])
        #expect(run.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect((object["query"] as? [String: Any])?["text"] as? String == "Springfield, IL")
        let first = try #require((object["results"] as? [[String: Any]])?.first)
        #expect(first["id"] as? String == "geonames:4250542")
        #expect(first["displayName"] as? String == "Springfield, Illinois, United States")
        #expect(first["countryCode"] as? String == "US" && first["admin1"] as? String == "Illinois")
        #expect((first["population"] as? Int ?? 0) > 100_000)
    }

    @Test("--geojson is a FeatureCollection with [lon, lat]; the table is readable; a negative longitude is a value")
    func otherFormats() throws {
        _ = try Self.imported.get()
        let geo = try Self.pindrop(["reverse", "45.52", "-122.68", "--geojson", "--index", Self.index])
        #expect(geo.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(geo.stdout.utf8)) as? [String: Any])
        #expect(object["type"] as? String == "FeatureCollection")
        let feature = try #require((object["features"] as? [[String: Any]])?.first)
        let coordinates = try #require((feature["geometry"] as? [String: Any])?["coordinates"] as? [Double])
        #expect(coordinates[0] < -122 && coordinates[1] > 45)
        #expect((feature["properties"] as? [String: Any])?["name"] as? String == "Portland")
        let table = try Self.pindrop(["search", "Sao Paulo", "--index", Self.index])
        #expect(table.stdout.hasPrefix("#"))
        #expect(table.stdout.contains("São Paulo"))
        let none = try Self.pindrop(["search", "Atlantis", "--index", Self.index])
        #expect(none.status == 0 && none.stdout.contains("No Results"))
    }

    @Test("reverse --level: an unknown level is a clear error; a known one is echoed, also in a batch")
    func reverseLevel() throws {
        _ = try Self.imported.get()
        let bad = try Self.pindrop(["reverse", "45.52", "-122.68", "--level", "planet", "--index", Self.index])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("level must be one of building, street, suburb, city, county, state, country or a zoom of 0-18"))
        let city = try Self.pindrop(["reverse", "45.52", "-122.68", "--level", "10", "--json", "--index", Self.index])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(city.stdout.utf8)) as? [String: Any])
        #expect((object["query"] as? [String: Any])?["level"] as? String == "city")
        // No boundaries in this index: the town whose reach covers the point.
        #expect((object["results"] as? [[String: Any]])?.first?["name"] as? String == "Portland")
        let batch = try Self.pindrop(["reverse", "--batch", "--level", "country", "--index", Self.index], input: "45.52,-122.68\n")
        #expect(batch.status == 0 && batch.stdout.contains("\"level\":\"country\""), "\(batch.stdout)")
    }

    @Test("a suggestion found through another of the place's names says which, in the table and in JSON")
    func matchedName() throws {
        _ = try Self.imported.get()
        let table = try Self.pindrop(["suggest", "Lutetia", "--index", Self.index])
        #expect(table.status == 0)
        #expect(table.stdout.contains("Lutetia → Paris, "), "\(table.stdout)")
        let own = try Self.pindrop(["suggest", "Pari", "--index", Self.index])
        #expect(own.stdout.contains("Paris, ") && !own.stdout.contains("→"), "\(own.stdout)")
        let json = try Self.pindrop(["suggest", "Lutetia", "--json", "--index", Self.index])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let first = try #require((object["results"] as? [[String: Any]])?.first)
        #expect(first["matchedName"] as? String == "Lutetia" && first["name"] as? String == "Paris")
    }

    @Test("a misspelling answers the place and says on stderr what was meant; a right name says nothing")
    func didYouMean() throws {
        _ = try Self.imported.get()
        for command in ["search", "suggest"] {
            let run = try Self.pindrop([command, "Pariss", "--index", Self.index])
            #expect(run.status == 0)
            #expect(run.stderr == "pindrop: did you mean \"Paris\"?\n", "\(command): \(run.stderr)")
            #expect(run.stdout.contains("Paris, Ile-de-France, France"))
            let json = try Self.pindrop([command, "Pariss", "--json", "--index", Self.index])
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
            #expect(object["didYouMean"] as? String == "Paris")
            let right = try Self.pindrop([command, "Paris", "--index", Self.index])
            #expect(right.status == 0 && right.stderr.isEmpty, "\(command): \(right.stderr)")
        }
    }

    @Test("--explain puts a line under each result saying how it matched and what it scored; --json has the object")
    func explain() throws {
        _ = try Self.imported.get()
        let run = try Self.pindrop(["search", "Zur", "--explain", "--index", Self.index])
        #expect(run.status == 0)
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == 3 && lines[1].contains("Zürich, Switzerland"), "\(run.stdout)")
        #expect(lines[2] == "  prefix \"zur\" of Zürich · population 415,367 (importance 18.7) · tier 2 · score 18.7")
        // "Par" is Paris's code PAR, matched whole: an alternate name, and what that costs.
        let code = try Self.pindrop(["search", "Par", "--explain", "--index", Self.index])
        #expect(code.stdout.contains("  exact alternate name PAR · population 2,138,551 (importance 21.0) · alternate name -3.0 · tier 3 · score 18.0"))
        let typo = try Self.pindrop(["search", "Zurlch", "--explain", "--index", Self.index])
        #expect(typo.stdout.contains("  typo \"zurlch\" for Zürich ('l' for 'i') · population 415,367"), "\(typo.stdout)")
        let json = try Self.pindrop(["search", "Zur", "--explain", "--json", "--index", Self.index])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let explain = try #require((object["results"] as? [[String: Any]])?.first?["explain"] as? [String: Any])
        #expect(explain["match"] as? String == "prefix" && explain["tier"] as? Int == 2 && explain["score"] as? Double == 18.66)
        let plain = try Self.pindrop(["search", "Zur", "--index", Self.index])
        #expect(plain.stdout.split(separator: "\n").count == 2 && !plain.stdout.contains("score"))
        let batch = try Self.pindrop(["search", "--batch", "--explain", "--index", Self.index], input: "Paris\n")
        #expect(batch.status == 64 && batch.stderr.contains("--explain does not apply to --batch"))
    }

    @Test("bad input gets one clear line on stderr and a non-zero exit", arguments: [
        (["search", ""], "the search text is empty"),
        (["reverse", "91", "0"], "latitude 91.0 is outside -90...90"),
        (["nearby", "40", "-74", "--radius", "-5"], "radius must be between 1 and 50000 metres"),
        (["search", "Paris", "--country", "XX"], "unknown country code \"XX\""),
        (["reverse", "north", "east"], "expected a point"),
    ])
    func badInput(arguments: [String], message: String) throws {
        _ = try Self.imported.get()
        let run = try Self.pindrop(arguments + ["--index", Self.index])
        #expect(run.status == 64)
        #expect(run.stderr.contains(message), "stderr: \(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1)
        #expect(run.stdout.isEmpty)
    }

    @Test("a missing or broken index is one clear line and exit 1")
    func brokenIndex() throws {
        let missing = try Self.pindrop(["search", "Paris", "--index", "/nonexistent/index.sqlite"])
        #expect(missing.status == 1 && missing.stderr.contains("no index at /nonexistent/index.sqlite"))
        let junk = Self.work + "/junk.sqlite"
        try FileManager.default.createDirectory(atPath: Self.work, withIntermediateDirectories: true)
        try Data(repeating: 7, count: 4096).write(to: URL(fileURLWithPath: junk))
        let broken = try Self.pindrop(["search", "Paris", "--index", junk])
        #expect(broken.status == 1 && broken.stderr.contains("not a Pindrop index or is corrupt"))
    }

    @Test("--batch answers one JSON line per input line, in order; a bad line gets an error object and the run goes on")
    func batch() throws {
        _ = try Self.imported.get()
        let reverse = try Self.pindrop(["reverse", "--batch", "--index", Self.index],
                                       input: "47.37,8.55\nnot a point\n48.85 2.35\n95,0\n")
        #expect(reverse.status == 0)
        let lines = reverse.stdout.split(separator: "\n").map { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(lines.count == 4)
        #expect((lines[0]?["results"] as? [[String: Any]])?.first?["name"] as? String == "Zürich")
        #expect((lines[1]?["error"] as? [String: Any])?["code"] as? String == "invalid_input")
        #expect((lines[2]?["results"] as? [[String: Any]])?.first?["name"] as? String == "Paris")
        #expect((lines[3]?["error"] as? [String: Any])?["message"] as? String == "latitude 95.0 is outside -90...90")
        // Every spelling of a number reads as the same double Swift's parser makes (fast path or not).
        let spellings = ["47.37", "+8.55", "-0.000001", ".5", "5.", "-0", "12.345678901234", "47.123456789012345678",
                         "1e1", "0.1", "89.999999999999", "-89.99999"]
        let pairs = Array(zip(spellings, spellings.reversed()))
        let echoed = try Self.pindrop(["reverse", "--batch", "--index", Self.index], input: pairs.map { "\($0),\($1)\n" }.joined())
        let echoLines = echoed.stdout.split(separator: "\n")
        #expect(echoLines.count == pairs.count)
        func written(_ text: String) -> String {
            var bytes: [UInt8] = []
            JSONWriter.appendNumber(Double(text)!, to: &bytes)
            return String(decoding: bytes, as: UTF8.self)
        }
        for ((lat, lon), line) in zip(pairs, echoLines) {
            // The echo as written (not re-parsed by JSONSerialization, whose rounding is its own).
            #expect(line.hasPrefix("{\"query\":{\"latitude\":\(written(lat)),\"longitude\":\(written(lon))}"), "\(lat),\(lon) echoed as \(line.prefix(70))")
        }
        let search = try Self.pindrop(["search", "--batch", "--index", Self.index], input: "Portland, Oregon\n\nzurich\n")
        let results = search.stdout.split(separator: "\n")
        #expect(results.count == 3)
        #expect(results[1].contains("\"error\""))
        #expect(results[2].contains("geonames:2657896"))
    }

    /// A fresh, empty home whose shipped data is the small fixture dump and the real Helsinki extract, so the
    /// first-use build takes a moment.
    static func emptyHome(_ name: String) throws -> [String: String] {
        let folder = work + "/first-use/" + name, data = folder + "/data"
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: data + "/osm", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: data + "/geonames",
                                                   withDestinationPath: repository.appendingPathComponent("Tests/PindropImportTests/Fixtures/mini").path)
        try FileManager.default.createSymbolicLink(atPath: data + "/osm/helsinki-center.osm.pbf",
                                                   withDestinationPath: repository.appendingPathComponent("data/osm/helsinki-center.osm.pbf").path)
        return ["PINDROP_HOME": folder + "/home", "PINDROP_DATA": data]
    }

    @Test("every command works as the very first one in an empty home (the default index is built on first use)", arguments: [
        (["search", "Stockmann"], "Stockmann"),
        (["suggest", "Springf"], "Springfield"),
        (["reverse", "60.1686", "24.9412"], "Helsinki"),
        (["nearby", "60.1686", "24.9412", "--category", "cafe"], "cafe"),
        (["status"], "places"),
        (["providers"], "embedded"),
        // 1,470 numbered objects, 608 distinct addresses (the 17 that name no street on the nearest one).
        (["import", "osm", repository.appendingPathComponent("data/osm/helsinki-center.osm.pbf").path], "608 addresses"),
        (["import", "geonames", repository.appendingPathComponent("Tests/PindropImportTests/Fixtures/mini").path], "imported 5"),
    ])
    func firstCommand(arguments: [String], expected: String) throws {
        let home = try Self.emptyHome(arguments.prefix(2).joined(separator: "-"))
        let run = try Self.pindrop(arguments, environment: home)
        #expect(run.status == 0, "\(arguments): \(run.stderr)")
        #expect(!run.stderr.contains("Can't read a value"), "\(run.stderr)")
        #expect(run.stdout.contains(expected), "\(arguments) printed \(run.stdout.prefix(400))")
        #expect(FileManager.default.fileExists(atPath: home["PINDROP_HOME"]! + "/geonames.sqlite"))
    }

    @Test("users add, list and remove work as the very first command in an empty home (no index is needed)", arguments: [
        (["users", "add", "alice"], 0, "pd_", "not shown again"),
        (["users", "list"], 0, "", "no users yet"),
        (["users", "remove", "alice"], 1, "", "no user is named \"alice\""),
    ])
    func firstUsersCommand(arguments: [String], status: Int32, stdout: String, stderr: String) throws {
        let home = try Self.emptyHome(arguments.joined(separator: "-"))
        let run = try Self.pindrop(arguments, environment: home)
        #expect(run.status == status, "\(arguments): \(run.stderr)")
        #expect(run.stdout.hasPrefix(stdout) && run.stderr.contains(stderr), "\(arguments): \(run.stdout) \(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: home["PINDROP_HOME"]! + "/userdata.sqlite"))
        #expect(!FileManager.default.fileExists(atPath: home["PINDROP_HOME"]! + "/geonames.sqlite"))
    }

    @Test("users add prints only the token on stdout, once; names are checked; list and remove follow")
    func usersLifecycle() throws {
        let home = try Self.emptyHome("users")
        let added = try Self.pindrop(["users", "add", "alice"], environment: home)
        let token = added.stdout.trimmingCharacters(in: .newlines)
        #expect(added.status == 0 && token.hasPrefix("pd_") && token.count == 46 && !token.contains("\n"), "\(added.stdout)")
        #expect(!added.stderr.contains(token))
        #expect(try Self.pindrop(["users", "add", "bob"], environment: home).status == 0)
        for (name, message) in [("alice", "already exists"), ("", "must not be empty")] {
            let refused = try Self.pindrop(["users", "add", name], environment: home)
            #expect(refused.status == 64 && refused.stdout.isEmpty && refused.stderr.contains(message), "\(refused.stderr)")
        }
        let listed = try Self.pindrop(["users", "list"], environment: home).stdout.split(separator: "\n").map { $0.split(separator: "\t") }
        #expect(listed.map { $0.first.map(String.init) } == ["alice", "bob"], "\(listed)")
        // Each with when it was added: ISO 8601, within the last minutes.
        #expect(listed.allSatisfy { $0.count == 2 && ISO8601DateFormatter().date(from: String($0[1])).map { abs($0.timeIntervalSinceNow) < 300 } == true },
                "\(listed)")
        #expect(try Self.pindrop(["users", "list"], environment: home).stdout.contains(token) == false)
        #expect(try Self.pindrop(["users", "remove", "alice"], environment: home).status == 0)
        #expect(try Self.pindrop(["users", "list"], environment: home).stdout.hasPrefix("bob\t"))
    }

    @Test("nearby --limit up to 10000 and --all collect every place within the radius, page by page, in every output")
    func nearbyAll() throws {
        let home = try Self.emptyHome("nearby-all")
        let centre = ["nearby", "60.1699", "24.9384", "--radius", "1500"]
        let all = try Self.pindrop(centre + ["--all", "--json"], environment: home)
        #expect(all.status == 0, "\(all.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(all.stdout.utf8)) as? [String: Any])
        let results = try #require(json["results"] as? [[String: Any]])
        let ids = results.compactMap { $0["id"] as? String }
        let distances = results.compactMap { $0["distanceMeters"] as? Double }
        #expect(results.count > 1000, "more than one page of 1000 within 1.5 km of central Helsinki")
        #expect(json["total"] as? Int == results.count && json["next"] is NSNull)
        #expect(Set(ids).count == ids.count && distances == distances.sorted() && distances.allSatisfy { $0 <= 1500 })
        let limited = try Self.pindrop(centre + ["--limit", "10000", "--geojson"], environment: home)
        let features = try #require(try JSONSerialization.jsonObject(with: Data(limited.stdout.utf8)) as? [String: Any])["features"] as? [[String: Any]]
        #expect(features?.compactMap { $0["id"] as? String } == ids)
        let some = try Self.pindrop(centre + ["--limit", "1200", "--json"], environment: home)
        let someJSON = try #require(try JSONSerialization.jsonObject(with: Data(some.stdout.utf8)) as? [String: Any])
        #expect((someJSON["results"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == Array(ids.prefix(1200)))
        #expect(someJSON["next"] is String && (someJSON["query"] as? [String: Any])?["limit"] as? Int == 1200)
        let table = try Self.pindrop(centre, environment: home)
        #expect(table.stdout.contains("the nearest 10 of \(ids.count) within the radius"), "\(table.stdout.suffix(300))")
        for (arguments, message) in [(["--limit", "10001"], "limit must be between 1 and 10000, got 10001"),
                                     (["--all", "--limit", "5"], "choose one of --limit and --all")] {
            let refused = try Self.pindrop(centre + arguments, environment: home)
            #expect(refused.status == 64 && refused.stderr.contains(message) && refused.stdout.isEmpty, "\(refused.stderr)")
        }
    }

    @Test("serve and music as the first command in an empty home start (or fail cleanly), never crash on their options")
    func firstServeAndMusic() async throws {
        let home = try Self.emptyHome("serve")
        let text = try await Self.serveUntilListening(["serve", "--port", "0"], home: home)
        #expect(!text.contains("Can't read a value"), "\(text)")
        #expect(text.contains("listening"), "serve printed \(text.prefix(600))")
        #expect(!text.contains("warning: listening on"), "\(text)")
        // Bound to every interface, it says so and names the host names it answers to.
        let exposed = try await Self.serveUntilListening(["serve", "--port", "0", "--host", "0.0.0.0"], home: home)
        #expect(exposed.contains("warning: listening on 0.0.0.0, so other machines can reach this server"), "\(exposed.prefix(600))")
        #expect(exposed.contains("localhost"), "\(exposed.prefix(600))")
        // With --require-token and no users yet, it says requests will be refused.
        let required = try await Self.serveUntilListening(["serve", "--port", "0", "--require-token"], home: home)
        #expect(required.contains("no users yet") && required.contains("pindrop users add NAME"), "\(required.prefix(600))")

        let music = try Self.pindrop(["music", "Copenhagen", "--musicbrainz-url", "http://127.0.0.1:9", "--contact", "test@example.org"],
                                     environment: try Self.emptyHome("music"))
        #expect(!music.stderr.contains("Can't read a value"), "\(music.stderr)")
        #expect(music.status == 1 && music.stderr.contains("127.0.0.1:9"), "music: \(music.status) \(music.stderr)")
    }

    /// Runs `pindrop serve …` until it says it is listening (or two minutes pass), stops it, and returns what it
    /// printed.
    static func serveUntilListening(_ arguments: [String], home: [String: String]) async throws -> String {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(home) { _, new in new }
        // Output goes to a file, read until the server says where it listens (or a deadline passes).
        let log = home["PINDROP_HOME"]! + ".\(UUID().uuidString).log"
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        process.standardOutput = output
        process.standardError = output
        try process.run()
        var text = ""
        let deadline = ContinuousClock.now + .seconds(120)
        while process.isRunning, ContinuousClock.now < deadline, !text.contains("listening on") || !text.contains("serving") {
            try await Task.sleep(for: .milliseconds(200))
            text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        }
        #expect(process.isRunning, "serve exited: \(text.prefix(600))")
        process.terminate()
        process.waitUntilExit()
        return text
    }
}
