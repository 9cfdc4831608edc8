import PindropCore
import Testing

@Suite("Control characters in names")
struct ControlCharactersTests {
    @Test("C0, DEL and C1 are removed; letters, marks, emoji and spaces of every script stay")
    func removal() {
        #expect(ControlCharacters.removed(from: "Evil\u{1B}]0;pwned\u{07}ville") == "Evil]0;pwnedville")
        #expect(ControlCharacters.removed(from: "\u{1B}[2JTown\u{7F}\u{9B}31m\u{85}") == "[2JTown31m")
        #expect(ControlCharacters.removed(from: "a\tb\nc\r\0d") == "abcd")
        let kept = "São Paulo · Zürich · 東京 · 😀 · Ñ\u{301} · \u{A0}x · Ĉ"
        #expect(ControlCharacters.removed(from: kept) == kept)
        #expect(ControlCharacters.string(utf8: Array("x\u{1B}y\u{9F}z".utf8)) == "xyz")
    }

    @Test("escaped for a terminal, each control shows as \\xNN and nothing else changes")
    func escaping() {
        #expect(ControlCharacters.escaped("Evil\u{1B}]0;pwned\u{07}") == "Evil\\x1B]0;pwned\\x07")
        #expect(ControlCharacters.escaped("\u{9B}2J\u{0}") == "\\x9B2J\\x00")
        #expect(ControlCharacters.escaped("Zürich 東京") == "Zürich 東京")
    }
}
