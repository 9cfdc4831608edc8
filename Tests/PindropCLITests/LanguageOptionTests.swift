import Foundation
import PindropCore
import Testing

/// `--lang` on the query commands: the reader's languages, read as an Accept-Language list, carried and echoed.
@Suite("pindrop --lang")
struct LanguageOptionTests {
    @Test("search, suggest and reverse take --lang and echo the languages in the order of their weights")
    func echoed() throws {
        _ = try CommandLineTests.imported.get()
        for arguments in [["search", "Springfield"], ["suggest", "Springfield"], ["reverse", "39.8", "-89.6"]] {
            let run = try CommandLineTests.pindrop(arguments + ["--lang", "de;q=0.5,fr-CH", "--json", "--index", CommandLineTests.index])
            #expect(run.status == 0, "\(arguments): \(run.stderr)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
            #expect((object["query"] as? [String: Any])?["lang"] as? String == "fr-CH,fr,de", "\(arguments)")
        }
    }

    @Test("a list naming no language, or --lang with --batch, is one clear line and exit 64")
    func refused() throws {
        _ = try CommandLineTests.imported.get()
        for arguments in [["search", "Springfield", "--lang", "*"], ["search", "--batch", "--lang", "de"], ["reverse", "--batch", "--lang", "de"]] {
            let run = try CommandLineTests.pindrop(arguments + ["--index", CommandLineTests.index], input: "39.8,-89.6\n")
            #expect(run.status == 64, "\(arguments)")
            #expect(run.stderr.split(separator: "\n").count == 1 && run.stderr.contains("--lang"), "\(arguments): \(run.stderr)")
        }
    }
}
