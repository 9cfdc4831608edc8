import Foundation
import PindropCore
import Testing
@testable import PindropIndex

/// The kept query set (scripts/make-query-set.py): full names, names without diacritics, "Name, Qualifier",
/// alternate names and other scripts, one-typo names, and 3-4 letter prefixes, each with the place meant.
@Suite("Accuracy on the kept query set")
struct AccuracyTests {
    static let rows: [(category: String, query: String, expected: String)] = {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/queries.tsv")
        let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { line in
            let cols = line.split(separator: "\t").map(String.init)
            return cols.count == 3 ? (cols[0], cols[1], "geonames:" + cols[2]) : nil
        }
    }()

    /// Top-1 rate for one category, with the misses for the failure message.
    func topOne(_ category: String) throws -> (rate: Double, misses: [String]) {
        let index = try SharedIndex.index
        let rows = Self.rows.filter { $0.category == category }
        var misses: [String] = []
        for row in rows {
            let results: [PlaceResult] = category == "prefix"
                ? try index.suggest(SuggestRequest(text: row.query, limit: 5, minChars: 1))
                : try index.search(SearchRequest(text: row.query, limit: 5))
            if results.first?.place.id != row.expected {
                misses.append("\(row.query) → \(results.first?.place.displayName ?? "nothing"), wanted \(row.expected)")
            }
        }
        #expect(rows.count >= 100, "the query set for \(category) is too small")
        return (1 - Double(misses.count) / Double(max(rows.count, 1)), misses)
    }

    @Test("exact, qualified, diacritic-free and alternate names: top-1 ≥ 95%",
          arguments: ["exact", "qualified", "diacritic-free", "alternate"])
    func mainCategories(category: String) throws {
        let (rate, misses) = try topOne(category)
        #expect(rate >= 0.95, "\(category) top-1 \(rate): \(misses.prefix(10))")
    }

    @Test("one-typo names: top-1 ≥ 85%")
    func typos() throws {
        let (rate, misses) = try topOne("typo")
        #expect(rate >= 0.85, "typo top-1 \(rate): \(misses.prefix(10))")
    }

    @Test("3-4 letter prefixes: the most populous matching city first (≥ 95% of prefixes)")
    func prefixes() throws {
        let (rate, misses) = try topOne("prefix")
        #expect(rate >= 0.95, "prefix top-1 \(rate): \(misses.prefix(10))")
    }
}
