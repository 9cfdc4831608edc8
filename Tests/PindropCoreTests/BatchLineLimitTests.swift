import Foundation
import PindropCore
import PindropTesting
import Synchronization
import Testing

/// `--batch` input with lines of any length: a line over 64 KiB gets a one-line `too_long` answer in its place,
/// giving its length and not its text, and the lines after it are answered as usual.
@Suite("Batch: long lines")
struct BatchLineLimitTests {
    /// Input given as pieces, each a byte repeated so many times, served in reads of whatever size the batch asks.
    final class Input: @unchecked Sendable {
        private var pieces: [(byte: UInt8, count: Int)]

        init(_ pieces: [(String, Int)]) { self.pieces = pieces.flatMap { text, times in text.utf8.map { ($0, times) } } }

        func read(_ buffer: UnsafeMutableRawBufferPointer) -> Int {
            var filled = 0
            while filled < buffer.count, !pieces.isEmpty {
                let now = min(buffer.count - filled, pieces[0].count)
                (buffer.baseAddress! + filled).initializeMemory(as: UInt8.self, repeating: pieces[0].byte, count: now)
                filled += now
                pieces[0].count -= now
                if pieces[0].count == 0 { pieces.removeFirst() }
            }
            return filled
        }
    }

    /// The batch's output lines for `input`.
    static func answer(_ input: Input) async throws -> [String] {
        let service = try PlaceService(store: FakeStore(places: [SamplePlaces.parisFrance]))
        var output: [UInt8] = []
        try await service.answerBatch(.search(near: nil, countryCode: nil, limit: 1), read: input.read) { output += $0 }
        return String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @Test("a 64 MiB line between questions: answered too_long with its length, no text echoed, the next line answered")
    func longLineAcrossBlocks() async throws {
        let input = Input([("Paris\n", 1), ("a", 64 << 20), ("\nParis\n", 1), ("b", 70_000), ("\nParis", 1)])
        let lines = try await Self.answer(input)
        #expect(lines.count == 5)
        #expect(lines.allSatisfy { $0.count < 2_000 }, "\(lines.map(\.count))")
        #expect(lines[1] == #"{"query":{"length":67108864},"error":{"code":"too_long","message":"the line is 67108864 bytes long; a line holds at most 65536"}}"#)
        #expect(lines[3].contains(#""length":70000"#) && lines[3].contains("too_long"))
        for i in [0, 2, 4] { #expect(lines[i].contains("\"Paris\""), "\(lines[i])") }
    }

    @Test("a line of exactly 64 KiB is still answered; one byte more is not")
    func limit() async throws {
        let lines = try await Self.answer(Input([("x", 64 << 10), ("\n", 1), ("y", (64 << 10) + 1), ("\n", 1)]))
        #expect(lines.count == 2)
        #expect(!lines[0].contains("too_long") && lines[0].contains("\"error\""))  // answered: the text is too long to search
        #expect(lines[1].contains(#""length":65537"#))
    }
}
