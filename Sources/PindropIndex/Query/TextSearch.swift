import PindropCore

/// Search and search as you type: each reading of the text (`QueryReadings`) in turn, until one finds anything; its
/// candidates drawn (`CandidateDraw`), filtered (`PlaceFilter`), put in order (`Ranking`) and made answers
/// (`Answers`), with "did you mean" (`DidYouMean`) on the first.
struct TextSearch {
    let filter: PlaceFilter
    let draw: CandidateDraw
    let ranking: Ranking
    let answers: Answers
    let didYouMean: DidYouMean
    let categories: CategorySearch
    let streetWays: StreetWays

    /// The stages over one index's contents, made once when it opens.
    init(contents: IndexContents) {
        filter = PlaceFilter(contents: contents)
        draw = CandidateDraw(contents: contents)
        ranking = Ranking(contents: contents)
        answers = Answers(contents: contents)
        didYouMean = DidYouMean(contents: contents)
        categories = CategorySearch(contents: contents)
        streetWays = StreetWays(contents: contents)
    }

    /// Forward geocoding. Exact names rank above prefixes, prefixes above typo-tolerant matches; within a tier,
    /// by population (and nearness when `near` is set). Text that only starts names also reads as a whole name
    /// one likely slip away, ranked with the prefixes. "Name, Qualifier" narrows by country or admin1.
    func search(_ request: SearchRequest) throws(PindropError) -> [PlaceResult] {
        let country = try filter.country(request.countryCode)
        let within = filter.containment(request.within)
        // "restaurants in Vaduz", "[amenity=pub] Schaan": a category first; a bare word that may also be a name
        // ("Post") only when no name matches.
        let readings = QueryReadings(search: request.text), phrases = CategoryPhrases.shipped
        let category = phrases.mayStart(request.text, folded: readings.nameKey) ? phrases.query(request.text) : nil
        if let category, category.explicit {
            let found = try categories.search(category, request) { text throws(PindropError) in try anchor(text, request, country: country) }
            if !found.isEmpty { return found }
        }
        let places = answers.contents.places
        for reading in readings {
            let accepted = filter.acceptance(country: country, qualifiers: reading.qualifiers, lastIsPrefix: reading.lastIsPrefix,
                                             partsOfTown: reading.partsOfTown, within: within)
            let accept = reading.streetsOnly ? { row in places.rowKind(Int(row)) == .street && accepted(row) } : accepted
            let found = rank(reading, request.limit, request.near, sections: false, accept: accept)
            guard !found.isEmpty else { continue }
            var answer = answers.results(found, near: request.near, typed: request.text, key: reading.key, mode: .search,
                                         explain: request.explain)
            if !answer.isEmpty, reading.key == readings.nameKey {
                answer[0].didYouMean = didYouMean.suggestion(found, key: reading.key, text: request.text, accept: accept)
            }
            return request.dedupe ? answer : streetWays.expanded(answer, limit: request.limit)
        }
        guard let category, !category.explicit else { return [] }
        return try categories.search(category, request) { text throws(PindropError) in try anchor(text, request, country: country) }
    }

    /// The place a category query names ("Vaduz" of "restaurants in Vaduz"), and the area that is its extent: of the first
    /// reading's best answers, the first that is a settlement, an area or a postcode ("bars in Ebenholz": the suburb,
    /// not the school of that name), else the first.
    private func anchor(_ text: String, _ request: SearchRequest, country: UInt16?) throws(PindropError) -> (Place, Int?)? {
        let places = answers.contents.places
        for reading in QueryReadings(search: text) {
            let accept = filter.acceptance(country: country, qualifiers: reading.qualifiers, lastIsPrefix: false,
                                           partsOfTown: reading.partsOfTown, within: nil)
            let found = rank(reading, 5, request.near, sections: false, accept: accept)
            guard let first = found.first else { continue }
            let best = found.first { c in
                [.geonames, .area, .postcode].contains(places.rowKind(c.row)) || places.isLandmark(c.row)
            } ?? first
            return (answers.place(best.row), answers.contents.area(ofRow: best.row))
        }
        return nil
    }

    /// Search as you type: the text so far, the last word a prefix; "Portland, Or" narrows by a qualifier prefix.
    /// A city's sections ("Zürich (Kreis 3)") fold under it: they come only when the text goes past its name.
    func suggest(_ request: SuggestRequest) throws(PindropError) -> [PlaceResult] {
        let country = try filter.country(request.countryCode)
        let within = filter.containment(request.within)
        let readings = QueryReadings(suggest: request.text)
        for reading in readings {
            let accept = filter.acceptance(country: country, qualifiers: reading.qualifiers, lastIsPrefix: reading.lastIsPrefix,
                                           partsOfTown: reading.partsOfTown, within: within)
            let found = rank(reading, request.limit, request.near, sections: true, accept: accept)
            guard !found.isEmpty else { continue }
            var answer = answers.results(found, near: request.near, typed: request.text, key: reading.key, mode: .suggest,
                                         explain: request.explain)
            if !answer.isEmpty, !readings.hasComma {
                answer[0].didYouMean = didYouMean.suggestion(found, key: reading.key, text: request.text, accept: accept)
            }
            return answer
        }
        return []
    }

    /// The best `limit` candidates of a reading, in order: drawn (more with `near`, to be re-ranked by distance), then
    /// ordered. With `sections`, a section of a city found before it is left out ("zur": Zürich, not also its twelve Kreise).
    func rank(_ reading: QueryReadings.Reading, _ limit: Int, _ near: Coordinate?, sections: Bool, accept: (Int32) -> Bool) -> [Candidate] {
        let wanted = near == nil ? limit : max(limit, Ranking.nearDraw)
        var found = draw.candidates(reading.key, mode: reading.mode, wanted: wanted, near: near != nil, typos: reading.typos,
                                    sections: sections, accept: accept)
        ranking.order(&found, near: near, limit: limit, sections: sections, key: reading.key)
        return found
    }
}
