import Foundation
import PindropCore
import PindropImport
import PindropIndex

/// `pindrop-bench near`: search as you type for street-level places, on GeoNames and the Helsinki extract in one
/// index (as a user has it). A fixed seeded sample of the extract's venues, streets and addresses (`--sample` of
/// each kind, drawn uniformly from the index's rows of that kind); the text is the first 3 and the first 5
/// characters of the row's name ("Man", "Manne" for "Mannerheimintie 5"), names shorter than that left out.
/// Each text is asked with the web app's list length (8) three ways: without a location, with the user at the
/// city centre (Helsinki's GeoNames point), and with the user at a uniform random point within 1 km of the row
/// (someone walking there).
///
/// What counts as right: the sampled row in the top 5, or a row of the same name at least as near to the user
/// (of a chain's shops, the one a person would pick; without a location any row of that name). A 3- or
/// 5-letter text of an address only reaches into its street's name and cannot single out number 5 of 200,
/// so for an address the row of its street also counts (the way on to it); the row "address itself" counts
/// only the address, for reference. Printed per kind and text length: the share in the top 5 (and first).
func runNearBenchmark(arguments: [String]) async throws {
    let sampleSize = Int(option("--sample", in: arguments) ?? "") ?? 200
    let osmCandidates = [option("--osm", in: arguments), "../shared/data/osm/helsinki-center.osm.pbf",
                         "data/osm/helsinki-center.osm.pbf"].compactMap { $0 }
    guard let osm = osmCandidates.first(where: { FileManager.default.fileExists(atPath: $0) }) else {
        say("no OpenStreetMap extract found (tried \(osmCandidates))"); exit(1)
    }
    let (files, work) = try benchmarkData(arguments)
    defer { try? FileManager.default.removeItem(atPath: work) }
    let path = work + "/geonames.sqlite"
    let report = try await IndexBuilder(path: path).importGeoNames(files, streets: OSMExtracts(files: [osm]), progress: nil)
    let index = try PlaceIndex.open(at: path)
    guard let centre = try index.search(SearchRequest(text: "Helsinki", limit: 1)).first?.place.coordinate else {
        say("Helsinki is not in the GeoNames data"); exit(1)
    }
    let bench = NearBench(index: index, targets: NearBench.targets(index, report, sampleSize: sampleSize), centre: centre)
    say("near the user: \(report.venues) venues, \(report.streets) streets, \(report.addresses) addresses in \((osm as NSString).lastPathComponent) + \(index.placeCount) GeoNames places")
    say("sample of \(sampleSize) rows a kind (seed 18), lists of \(NearBench.listLength), right place in the top \(NearBench.top) (first):")
    say("  " + "kind".padding(toLength: 16, withPad: " ", startingAt: 0) + "text  "
        + bench.modes.map { $0.0.padding(toLength: 24, withPad: " ", startingAt: 0) }.joined())
    var timed: [(String, Coordinate?)] = []
    for letters in [3, 5] { timed += try bench.reportShares(letters: letters) }
    try bench.reportPar()
    say("\nlatency in process (release, one thread), the queries above:")
    row("suggest, no location", try measure(timed.filter { $0.1 == nil }) {
        _ = try index.suggest(SuggestRequest(text: $0.0, limit: NearBench.listLength, minChars: 1)) as [PlaceResult]
    })
    row("suggest with a location", try measure(timed.filter { $0.1 != nil }) {
        _ = try index.suggest(SuggestRequest(text: $0.0, near: $0.1, limit: NearBench.listLength, minChars: 1)) as [PlaceResult]
    })
}

/// The sampled street-level rows of `runNearBenchmark` and how suggestions for their names are judged.
struct NearBench {
    struct Target { var kind: String; var place: Place; var walker: Coordinate }
    static let listLength = 8, top = 5
    let index: PlaceIndex, targets: [Target], centre: Coordinate

    /// The three ways a text is asked: without a location, at the city centre, and walking within 1 km of the row.
    var modes: [(String, (Target) -> Coordinate?)] {
        [("no location", { _ in nil }), ("city centre", { [centre] _ in centre }), ("walking ≤ 1 km", { $0.walker })]
    }

    /// `sampleSize` rows of each kind, drawn uniformly (street-level rows follow the GeoNames rows: venues, then
    /// addresses, then streets), each with a walker uniform in a disc of 1 km around it.
    static func targets(_ index: PlaceIndex, _ report: ImportReport, sampleSize: Int) -> [Target] {
        let venues = index.placeCount..<(index.placeCount + report.venues)
        let addresses = venues.upperBound..<(venues.upperBound + report.addresses)
        let streets = addresses.upperBound..<(addresses.upperBound + report.streets)
        var rng = SeededRandom(state: 18)
        var targets: [Target] = []
        for (kind, rows) in [("venue", venues), ("street", streets), ("address", addresses)] {
            for row in Array(rows).shuffled(using: &rng).prefix(sampleSize) {
                let place = index.place(atRow: row)
                let r = 1000 * Double.random(in: 0...1, using: &rng).squareRoot(), angle = Double.random(in: 0..<(2 * .pi), using: &rng)
                let c = place.coordinate
                let walker = Coordinate(latitude: c.latitude + r * cos(angle) / 111_320,
                                        longitude: c.longitude + r * sin(angle) / (111_320 * cos(c.latitude * .pi / 180)))
                targets.append(Target(kind: kind, place: place, walker: walker))
            }
        }
        return targets
    }

    /// Whether the list (top `top`) holds the target, or what counts in its place (see `runNearBenchmark`).
    func hit(_ results: [PlaceResult], _ t: Target, user: Coordinate?, itselfOnly: Bool = false) -> Bool {
        let name = TextFolding.fold(t.place.name), street = t.place.address?.street.map { TextFolding.fold($0) }
        let reach = user.map { t.place.coordinate.distance(to: $0) + 1 } ?? .infinity
        return results.prefix(Self.top).contains { r in
            if r.place.id == t.place.id && r.place.name == t.place.name { return true }
            if itselfOnly { return false }
            let folded = TextFolding.fold(r.place.name)
            if folded == name { return user.map { r.place.coordinate.distance(to: $0) <= reach } ?? true }
            return t.kind == "address" && folded == street
        }
    }

    /// The share of right answers per kind and mode for texts of `letters` letters; returns the questions asked.
    func reportShares(letters: Int) throws -> [(String, Coordinate?)] {
        var timed: [(String, Coordinate?)] = []
        var all = [(n: Int, top: Int, first: Int)](repeating: (0, 0, 0), count: modes.count)
        for kind in ["venue", "street", "address", "address itself"] {
            let itself = kind == "address itself"
            let chosen = targets.filter { ($0.kind == kind || itself && $0.kind == "address") && $0.place.name.count >= letters }
            var cells: [String] = []
            for (m, mode) in modes.enumerated() {
                var hits = 0, firsts = 0
                for t in chosen {
                    let text = String(t.place.name.prefix(letters)), user = mode.1(t)
                    if !itself { timed.append((text, user)) }
                    let results = try index.suggest(SuggestRequest(text: text, near: user, limit: Self.listLength, minChars: 1))
                    if hit(results, t, user: user, itselfOnly: itself) { hits += 1 }
                    if hit(Array(results.prefix(1)), t, user: user, itselfOnly: itself) { firsts += 1 }
                }
                if !itself { all[m] = (all[m].n + chosen.count, all[m].top + hits, all[m].first + firsts) }
                cells.append(Self.cell(hits, firsts, chosen.count))
            }
            say("  " + kind.padding(toLength: 16, withPad: " ", startingAt: 0) + "\(letters)     " + cells.joined())
        }
        say("  " + "all three".padding(toLength: 16, withPad: " ", startingAt: 0) + "\(letters)     "
            + all.map { Self.cell($0.top, $0.first, $0.n) }.joined())
        return timed
    }

    private static func cell(_ hits: Int, _ firsts: Int, _ n: Int) -> String {
        String(format: "%5.1f%% (%5.1f%%) n=%-4d ", 100 * Double(hits) / Double(max(n, 1)), 100 * Double(firsts) / Double(max(n, 1)), n)
    }

    /// Away from any Par… venue (in Tampere, outside the extract), "Par" is Paris.
    func reportPar() throws {
        let tampere = try index.search(SearchRequest(text: "Tampere", limit: 1)).first?.place.coordinate
        for (label, user) in [("no location", nil), ("city centre", centre), ("Tampere", tampere)] as [(String, Coordinate?)] {
            let results = try index.suggest(SuggestRequest(text: "Par", near: user, limit: Self.listLength, minChars: 1))
            say("  Par, \(label): " + results.prefix(Self.top).map(\.place.name).joined(separator: " | "))
        }
    }
}
