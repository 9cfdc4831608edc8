import PindropCore

/// The GeoNames places near the street data by folded name (their names and alternate names, not later words): the
/// only places a tagged town name can mean.
struct TownNames: Sendable {
    private let lookup: @Sendable (String) -> [Int]

    /// The places of each folded name, as given.
    init(_ placesByName: [String: [Int]]) {
        lookup = { placesByName[$0] ?? [] }
    }

    /// The places flagged in `isTown`, looked up in a built name index by their keys. An update asks the stored index
    /// rather than gathering every nearby town's names first: an extract whose relations reach far (Liechtenstein's
    /// reach Alabama) has most of a world-wide GeoNames index near it.
    init(names: NameIndex, isTown: [Bool]) {
        lookup = { folded in
            names.ranges(prefix: Array(folded.utf8)).exact.compactMap { e in
                let place = Int(names.entryPlace[e])
                return names.entryKind[e] != NameIndex.Kind.innerWord.rawValue && place < isTown.count && isTown[place] ? place : nil
            }
        }
    }

    /// The places called `folded` (a name as `TextFolding` folds it).
    func places(named folded: String) -> [Int] { lookup(folded) }
}
