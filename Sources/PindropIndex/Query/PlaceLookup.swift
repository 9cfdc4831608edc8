import PindropCore

/// A place by its id, of either kind of row.
struct PlaceLookup {
    let contents: IndexContents
    let answers: Answers

    init(contents: IndexContents) {
        self.contents = contents
        answers = Answers(contents: contents)
    }

    /// A place by id ("geonames:2988507", "osm:node/240109189", "postcode:li:9490"); nil for an unknown or foreign id.
    func place(id: String) -> Place? {
        switch PlaceID(id) {
        case .osm?, .postcode?:
            let key = StreetLevel.Lookups.idKey(id), rows = contents.street.lookups.rowsByID
            let first = firstIndex(in: rows.indices) { rows[$0] >= key }
            // Ids may share a key: each row found is checked by its id.
            for entry in rows[first...].prefix(while: { $0 & StreetLevel.Lookups.idKeyBits == key }) {
                let row = Int(entry & 0xFFFF_FFFF)
                if contents.places.extras(row)?.id == id { return answers.place(row) }
            }
            return nil
        case .geonames(let number)?:
            return contents.places.index(ofGeonameID: number).map { answers.place($0) }
        default:
            return nil
        }
    }
}
