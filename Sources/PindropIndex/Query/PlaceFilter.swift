import PindropCore

/// Which rows a query keeps: its country, the qualifiers of its text (each must name the row's country, admin1
/// division or town), and the areas or box a structured query names. Each filter is built once per query, as lookup
/// tables, so that testing a candidate costs a few array reads.
struct PlaceFilter {
    let contents: IndexContents

    /// The index of the country `code` names, nil for none; an unknown code is refused.
    func country(_ code: String?) throws(PindropError) -> UInt16? {
        guard let code else { return nil }
        guard let i = contents.places.countries.firstIndex(where: { $0.code == code }) else {
            throw .invalidInput("unknown country code \"\(code)\"")
        }
        return UInt16(i)
    }

    /// The test of a row: in the country, named by every qualifier (the last a prefix when `lastIsPrefix`; with
    /// `partsOfTown`, a qualifier may name a part of the row's town too), and `within` (`containment`).
    func acceptance(country: UInt16?, qualifiers: [String], lastIsPrefix: Bool, partsOfTown: Bool = false,
                    within: ((Int32) -> Bool)?) -> (Int32) -> Bool {
        let base = acceptance(country: country, qualifiers: qualifiers, lastIsPrefix: lastIsPrefix, partsOfTown: partsOfTown)
        let accepted = within.map { within in { base($0) && within($0) } } ?? base
        // The stored rows an update's overlay replaced answer no more.
        let masked = contents.street.maskedRows
        guard !masked.isEmpty else { return accepted }
        return { !masked.contains(Int($0)) && accepted($0) }
    }

    private func acceptance(country: UInt16?, qualifiers: [String], lastIsPrefix: Bool, partsOfTown: Bool) -> (Int32) -> Bool {
        // Most questions have neither: then nothing is looked up, and no table is captured (shared, so each
        // capture is a retain every serving thread contends for).
        if country == nil, qualifiers.isEmpty { return { _ in true } }
        let tables = qualifiers.enumerated().map { n, q in table(q, prefix: lastIsPrefix && n == qualifiers.count - 1) }
        let places = contents.places, placeCountry = places.country, placeAdmin1 = places.admin1, contents = contents
        return { row in
            let i = Int(row)
            if let country, placeCountry[i] != country { return false }
            for table in tables {
                let c = placeCountry[i], a = placeAdmin1[i]
                let byCountry = c != PlaceTable.noCountry && table.countries[Int(c)]
                guard byCountry || (a >= 0 && table.admin1s[Int(a)]) || contents.streetTown(i).map(table.town) == true
                    || (partsOfTown && Self.partsOfTown(places, i).contains(where: table.town)) else { return false }
            }
            return true
        }
    }

    /// The folded parts of town a street-level row's address names (suburb, village or hamlet of the town, quarter),
    /// which a qualifier may name as Nominatim matches any part of an address ("Lochgass 5, Ebenholz, Vaduz"); read
    /// only for a row the other names did not admit.
    static func partsOfTown(_ places: PlaceTable, _ i: Int) -> [String] {
        guard places.rowKind(i) != .geonames, let a = places.extras(i)?.address else { return [] }
        return [a.suburb, a.place, a.neighbourhood].compactMap { $0.map(TextFolding.fold) }
    }

    /// What one qualifier names: countries and admin1 divisions as tables by index, and a test of a town's name.
    private func table(_ q: String, prefix: Bool) -> (countries: [Bool], admin1s: [Bool], town: (String) -> Bool) {
        var countries = [Bool](repeating: false, count: contents.places.countries.count)
        var admin1s = [Bool](repeating: false, count: contents.places.admin1s.count)
        let forms = contents.qualifierForms
        let named = prefix ? forms.filter { $0.key.hasPrefix(q) }.map(\.value) : [forms[q]].compactMap { $0 }
        for division in named {
            for c in division.countries { countries[Int(c)] = true }
            for a in division.admin1s { admin1s[Int(a)] = true }
        }
        return (countries, admin1s, { prefix ? $0.hasPrefix(q) : $0 == q })
    }

    /// Structured search's test: whether a row lies inside the named areas, the box and the countries. A
    /// street-level row is by the address its import gave it (its tags, else the boundaries holding it); a GeoNames
    /// place by the boundaries holding its point, else its admin1 (state) and, for the town, its own name or the town
    /// whose reach covers it. Nil when the filter names nothing.
    func containment(_ filter: AreaFilter) -> ((Int32) -> Bool)? {
        guard !filter.isEmpty else { return nil }
        let named = namedContainment(filter)
        guard filter.box != nil || !filter.countries.isEmpty else { return named }
        let box = filter.box, places = contents.places
        let countries = filter.countries.isEmpty ? nil : places.countries.map { filter.countries.contains($0.code) }
        return { row in
            let i = Int(row)
            if let countries, places.country[i] == PlaceTable.noCountry || !countries[Int(places.country[i])] { return false }
            if let box, !box.contains(Coordinate(latitude: places.latitude[i], longitude: places.longitude[i])) { return false }
            return named?(row) ?? true
        }
    }

    /// The named part of `containment` (city, postcode, county, state); nil when the filter names none.
    private func namedContainment(_ filter: AreaFilter) -> ((Int32) -> Bool)? {
        guard !filter.parts.isEmpty else { return nil }
        let city = filter.city.map(TextFolding.fold), postcode = filter.postcode.map(TextFolding.fold)
        let county = filter.county.map(TextFolding.fold), state = filter.state.map(TextFolding.fold)
        func matches(_ wanted: String?, _ candidates: [String?]) -> Bool {
            guard let wanted else { return true }
            return candidates.contains { $0.map(TextFolding.fold) == wanted }
        }
        let contents = contents
        return { row in
            let i = Int(row)
            if i >= contents.firstStreetLevelRow {
                guard let a = contents.places.extras(i)?.address else { return false }
                return matches(city, [a.town]) && matches(postcode, [a.postcode]) && matches(county, [a.county])
                    && matches(state, [a.state, contents.places.admin1Info(i)?.name])
            }
            let point = contents.coordinate(i), areas = contents.street.areas
            let held = areas.isEmpty ? Address() : areas.address(of: areas.containing(point))
            return matches(postcode, [held.postcode]) && matches(county, [held.county])
                && matches(state, [held.state, contents.places.admin1Info(i)?.name])
                && matches(city, [held.town, contents.places.name(i),
                                  city == nil ? nil : contents.townFinder.containingTown(at: point, spatial: contents.spatial).map { contents.places.name($0) }])
        }
    }
}
