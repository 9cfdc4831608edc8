import Foundation
import PindropTesting
import Testing

/// Names holding terminal escapes (`ESC ] 0 ; … BEL` sets the window title, `ESC [ 2 J` clears the screen) never
/// reach the terminal raw: the import removes control characters, and the table escapes any that come anyway.
@Suite("pindrop: names with terminal escapes", .serialized)
struct HostileNamesTests {
    typealias CLI = CommandLineTests
    static let evilName = "Evil\u{1B}]0;pwned\u{07}ville\u{1B}[2J"

    @Test("an imported name loses its control characters: search, nearby and reverse print none")
    func importedName() throws {
        let folder = TestScratch.folder("evil-names")
        let row = ["1", Self.evilName, "Evilville", "Mal\u{9B}31mville", "60.1", "24.9", "P", "PPL", "FI", "", "01", "", "", "",
                   "1000", "", "", "Europe/Helsinki", "2024-01-01"].joined(separator: "\t")
        try Data((row + "\n").utf8).write(to: URL(fileURLWithPath: folder + "/cities500.txt"))
        try Data("FI\tFIN\t246\tFI\tFin\u{1B}[31mland\n".utf8).write(to: URL(fileURLWithPath: folder + "/countryInfo.txt"))
        let index = folder + "/evil.sqlite"
        #expect(try CLI.pindrop(["import", "geonames", folder, "--index", index]).status == 0)
        #expect(try CLI.pindrop(["search", "Evil", "--index", index]).stdout.contains("Evil]0;pwnedville[2J, Fin[31mland"))
        for arguments in [["search", "Evil"], ["search", "Mal31mville"], ["nearby", "60.1", "24.9"], ["reverse", "60.1", "24.9"]] {
            let run = try CLI.pindrop(arguments + ["--index", index])
            #expect(run.status == 0 && run.stdout.contains("Evil]0;pwnedville[2J"), "\(arguments): \(run.stdout)")
            #expect(!run.stdout.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(arguments)")
        }
    }

    @Test("a remote provider's name with escapes is shown escaped in the table")
    func remoteName() async throws {
        let server = try await FakeProviderServer.start(.nominatim)
        let body = #"[{"place_id": 1, "osm_type": "node", "osm_id": 1, "lat": "52.5", "lon": "13.4", "class": "place", "# +
            #""type": "city", "name": "Evil\u001b]0;pwned\u0007", "display_name": "Evil\u001b]0;pwned\u0007, \u009b2JLand"}]"#
        server.setBehavior(.raw(status: 200, body: body, retryAfter: nil))
        _ = try CLI.imported.get()
        let run = try CLI.pindrop(["search", "Evil", "--provider", "nominatim", "--index", CLI.index],
                                  // Room for the fake provider to answer while every other suite runs beside it.
                                  environment: ["PINDROP_NOMINATIM_URL": server.baseURL, "PINDROP_PROVIDER_TIMEOUT": "60"])
        await server.stop()
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Evil\\x1B]0;pwned\\x07, \\x9B2JLand"), "\(run.stdout)")
        #expect(!run.stdout.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) })
    }

    @Test("the user's own input echoed in an error is escaped too")
    func echoedInput() throws {
        let run = try CLI.pindrop(["reverse", "\u{1B}[2J", "24.9"])
        #expect(run.status != 0 && run.stderr.contains("\\x1B[2J"), "\(run.stderr)")
        #expect(!run.stderr.contains("\u{1B}"))
    }
}
