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
            return contents.street.row(ofID: id) { contents.places.extras($0)?.id == id }.map { answers.place($0) }
        case .geonames(let number)?:
            return contents.places.index(ofGeonameID: number).map { answers.place($0) }
        default:
            return nil
        }
    }
}
