import PindropCore
import Testing

@Suite("Which slip of the fingers turns a name into what was typed")
struct TypoEditTests {
    @Test("each kind of one-letter edit is named", arguments: [
        ("stcokholm", "stockholm", TypoEdit.transposed), ("amsterdma", "amsterdam", .transposed),
        ("barcelonna", "barcelona", .doubled), ("helsinkii", "helsinki", .doubled),
        ("helsnki", "helsinki", .dropped), ("missisippi", "mississippi", .dropped), ("helsink", "helsinki", .dropped),
        ("helsinko", "helsinki", .neighbourKey), ("berlun", "berlin", .neighbourKey),
        ("helsinkji", "helsinki", .strayKey),
        ("helsinkp", "helsinki", .substituted), ("berlqn", "berlin", .substituted),
        ("helsqinki", "helsinki", .inserted),
    ])
    func kinds(typed: String, name: String, edit: TypoEdit) {
        #expect(TypoEdit.between(typed: Array(typed.utf8), name: Array(name.utf8)) == edit)
        #expect(edit.isLikelySlip == ![.substituted, .inserted].contains(edit))
    }

    @Test("not one edit apart: no kind", arguments: [("helsinki", "helsinki"), ("hlesnki", "helsinki"), ("oslo", "helsinki"), ("helsinkiii", "helsinki")])
    func notOneEdit(typed: String, name: String) {
        #expect(TypoEdit.between(typed: Array(typed.utf8), name: Array(name.utf8)) == nil)
    }

    @Test("QWERTY neighbours touch across the staggered rows, and only those")
    func keyboard() {
        #expect(Set(QWERTY.neighbours(of: UInt8(ascii: "g"))) == Set("fhtyvb".utf8))
        #expect(Set(QWERTY.neighbours(of: UInt8(ascii: "a"))) == Set("qwsz".utf8))
        #expect(!QWERTY.areNeighbours(UInt8(ascii: "a"), UInt8(ascii: "p")) && !QWERTY.areNeighbours(UInt8(ascii: "a"), UInt8(ascii: "a")))
    }
}
