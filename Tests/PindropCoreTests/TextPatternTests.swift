@testable import PindropCore
import Testing

/// The address rules' patterns mean what they mean in Perl, where they were written.
@Suite("address rule patterns")
struct TextPatternTests {
    func replaced(_ pattern: String, _ replacement: String, in text: String) throws -> String {
        var bytes = Array(text.utf8)
        _ = try TextPattern(pattern).replaceFirst(in: &bytes, with: PatternReplacement(replacement))
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test("groups, classes and counts: postcodes rewritten as the rules do")
    func postcodes() throws {
        #expect(try replaced("\n(\\d{3})(\\d{2}) ", "\n$1 $2 ", in: "Rue 1\n11000 Praha\n") == "Rue 1\n110 00 Praha\n")
        #expect(try replaced(" ([A-Za-z]{2}) ([A-Za-z]\\d[A-Za-z])(\\d[A-Za-z]\\d)\n", " $1 $2 $3\n", in: "Ottawa, ON K1A0B1\nCanada\n")
            == "Ottawa, ON K1A 0B1\nCanada\n")
        #expect(try replaced("\\b(\\d{5})(\\d{3})\\b", "$1-$2", in: "01310100 São Paulo") == "01310-100 São Paulo")
        // Eircode: an alternation inside a group, an optional separator, a class with several ranges.
        #expect(try replaced("\n(([AC-FHKNPRTV-Y][0-9]{2}|D6W))[ -]?([0-9AC-FHKNPRTV-Y]{4})", "\n$1 $3", in: "Dublin\nD02X285\n")
            == "Dublin\nD02 X285\n")
    }

    @Test("^ and $: $ also before a final newline, as in Perl; only the first match is replaced")
    func anchors() throws {
        #expect(try replaced(", United Kingdom$", "\nUnited Kingdom", in: "London, United Kingdom\n") == "London\nUnited Kingdom\n")
        #expect(try replaced("^County( of)? ", "", in: "County of Durham") == "Durham")
        #expect(try replaced("^County( of)? ", "", in: "Tyne County ") == "Tyne County ")
        #expect(try replaced("Town of ", "", in: "Town of A, Town of B") == "A, Town of B")
    }

    @Test("\\w, \\b and classes read characters outside ASCII as Perl's Unicode rules do")
    func unicode() throws {
        #expect(try replaced("(Bogot[áa]),? (Distrito Capital|Capital District)", "$1", in: "Bogotá, Distrito Capital") == "Bogotá")
        #expect(try replaced("Paris (\\d+)(\\w+) Arrondissement$", "Paris", in: "Paris 16e Arrondissement") == "Paris")
        #expect(try replaced("(^|\\s)Straße\\b", "$1Str.", in: "Lange Straße") == "Lange Str.")
        #expect(try replaced("(^|\\s)Straße\\b", "$1Str.", in: "Straßenbahn") == "Straßenbahn")
        #expect(try replaced("\n(\\d{4}) ([^,]*)\n", "\n$1-$2\n", in: "Rua 5\n7600 Praia\nCabo Verde\n") == "Rua 5\n7600-Praia\nCabo Verde\n")
    }

    @Test("a pattern outside the subset is refused when the rules are compiled")
    func refused() {
        #expect(throws: PindropError.self) { try TextPattern("(unclosed") }
        #expect(throws: PindropError.self) { try TextPattern("a\\p{L}") }
        #expect(throws: PindropError.self) { try TextPattern("*a") }
    }
}
