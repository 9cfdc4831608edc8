extension AddressFormatter {
    /// `pindrop format --batch`: one JSON object of address parts a line (keys as the templates name the
    /// components; values text or numbers, null for none), one `{"formatted": "..."}` a line out, in input order,
    /// on every core (`LineBatch`). A line that is not such an object gets `{"error": {...}}` saying which line and
    /// why, and the batch goes on. `read` fills a buffer and returns the bytes read (0 at the end, negative on
    /// failure); `write` takes the output in order.
    public func answerBatch(singleLine: Bool, abbreviate: Bool, read: (UnsafeMutableRawBufferPointer) -> Int,
                            write: ([UInt8]) -> Void) async throws {
        try await LineBatch.run(read: read, write: write) { _, part, firstLine in
            var out: [UInt8] = []
            out.reserveCapacity(part.count * 2)
            var start = part.startIndex, number = firstLine
            for i in part.indices where part[i] == 0x0A {
                var end = i
                if end > start, part[end - 1] == 0x0D { end -= 1 }
                out += self.batchLine(part[start..<end], number: number, singleLine: singleLine, abbreviate: abbreviate).bytes
                out.append(0x0A)
                start = i + 1
                number += 1
            }
            return out
        }
    }

    /// One line's answer: the formatted address, or the error.
    func batchLine(_ line: ArraySlice<UInt8>, number: Int, singleLine: Bool, abbreviate: Bool) -> JSONWriter {
        var w = JSONWriter(capacity: 128)
        w.beginObject()
        do throws(PindropError) {
            let parts = try AddressParts(json: line)
            w.key("formatted")
            w.string(format(parts, singleLine: singleLine, abbreviate: abbreviate))
        } catch {
            w.key("error")
            WireEncoding.writeError(.invalidInput("line \(number): \(error.message)"), into: &w)
        }
        w.endObject()
        return w
    }
}
