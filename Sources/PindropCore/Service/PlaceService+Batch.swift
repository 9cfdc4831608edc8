/// The question a batch asks of every input line.
public enum BatchQuestion: Sendable {
    /// Each line is a search text.
    case search(near: Coordinate?, countryCode: String?, limit: Int)
    /// Each line is the text typed so far.
    case suggest(near: Coordinate?, countryCode: String?, limit: Int, minChars: Int)
    /// Each line is a point: "lat,lon", "lat lon" or "lat, lon".
    case reverse(limit: Int, level: ReverseLevel = .building)
}

extension PlaceService {
    /// The batch form of search, suggest and reverse: one question per input line, answered on every core,
    /// one JSON line per input line (`WireEncoding.batchLine`: the query echoed, then its results or its error),
    /// in input order. Lines go through the chain like single questions; a single-answer reverse whose chain
    /// starts with the store takes the store's allocation-free path. `read` fills a buffer and returns the bytes
    /// read (0 at the end, negative on failure); `write` takes the output in order.
    public func answerBatch(_ question: BatchQuestion, provider: String? = nil,
                            read: (UnsafeMutableRawBufferPointer) -> Int, write: ([UInt8]) -> Void) async throws {
        let capability: ProviderCapability
        var fast: (any BatchReversing)?
        switch question {
        case .search: capability = .search
        case .suggest: capability = .suggest
        case .reverse(let limit, let level):
            capability = .reverse
            _ = try ReverseRequest(coordinate: Coordinate(latitude: 0, longitude: 0), limit: limit)
            if limit == 1, level == .building, try chain(for: .reverse, preferring: provider).first == Self.storeProviderName {
                fast = store?.batchReverser(workers: LineBatch.workerCount)
            }
        }
        _ = try chain(for: capability, preferring: provider)
        let reverser = fast
        try await LineBatch.run(read: read, write: write) { worker, part, _ in
            var out: [UInt8] = []
            out.reserveCapacity(part.count * 12)
            var start = part.startIndex
            for i in part.indices where part[i] == 0x0A {
                var end = i
                if end > start, part[end - 1] == 0x0D { end -= 1 }
                let line = start..<end
                guard line.count <= LineBatch.maximumLineLength else {
                    out += LineBatch.tooLongAnswer(length: line.count)
                    out.append(0x0A)
                    start = i + 1
                    continue
                }
                let answered = reverser.map { reverser in
                    part.withUnsafeBufferPointer { bytes in
                        let base = part.startIndex
                        guard let (lat, lon) = parsePoint(UnsafeBufferPointer(rebasing: bytes[(line.lowerBound - base)..<(line.upperBound - base)])),
                              (-90...90).contains(lat), (-180...180).contains(lon) else { return false }
                        return reverser.appendAnswer(latitude: lat, longitude: lon, worker: worker, to: &out)
                    }
                } ?? false
                if !answered {
                    let text = String(decoding: part[line], as: UTF8.self)
                    out += await self.batchLine(question, text: text, provider: provider).bytes
                }
                out.append(0x0A)
                start = i + 1
            }
            return out
        }
    }

    /// One line's answer through the chain, or its error, with the line echoed.
    private func batchLine(_ question: BatchQuestion, text: String, provider: String?) async -> JSONWriter {
        var query: [(String, QueryValue)]
        let results: Result<[PlaceResult], PindropError>
        switch question {
        case .search(let near, let countryCode, let limit):
            query = SearchRequest.echo(text: text, near: near, countryCode: countryCode?.uppercased(), limit: limit)
            results = await Self.results {
                try await self.search(SearchRequest(text: text, near: near, countryCode: countryCode, limit: limit), provider: provider)
            }
        case .suggest(let near, let countryCode, let limit, let minChars):
            query = SearchRequest.echo(text: text, near: near, countryCode: countryCode?.uppercased(), limit: limit)
            results = await Self.results {
                try await self.suggest(SuggestRequest(text: text, near: near, countryCode: countryCode, limit: limit,
                                                      minChars: minChars), provider: provider)
            }
        case .reverse(let limit, let level):
            query = [("text", .text(text))]
            do throws(PindropError) {
                let request = try ReverseRequest(coordinate: try Coordinate(parsing: text), limit: limit, level: level)
                query = request.echo
                results = await Self.results { try await self.reverse(request, provider: provider) }
            } catch {
                results = .failure(error)
            }
        }
        return WireEncoding.batchLine(query: query, results)
    }

    /// The answer's results, or the error as a person reads it (an unexpected error becomes an internal failure).
    private static func results(_ ask: () async throws -> ProviderAnswer) async -> Result<[PlaceResult], PindropError> {
        do { return .success(try await ask().results) } catch let error as PindropError { return .failure(error) } catch {
            return .failure(.internalFailure("the answer failed: \(error)"))
        }
    }
}
