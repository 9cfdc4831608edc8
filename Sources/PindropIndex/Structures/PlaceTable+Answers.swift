import PindropCore

/// Rows as the rest of Pindrop sees them, and the reads they make asked for ahead.
extension PlaceTable {
    /// Starts loading what `place` reads of each of `slots`, all at once: the rows lie far apart, so nearly every
    /// read misses the cache, and misses asked for together are waited for together instead of one by one.
    func prefetchPlaces(_ slots: some Collection<Int>) {
        for i in slots { prefetchRow(i) }
        // A name's bytes are where its start says: read once the starts are on their way.
        for i in slots where i < count { nameBytes.prefetch(Int(nameStart[i])) }
    }

    /// Starts loading what making row i's place reads of the columns (its name's bytes follow from `nameStart`).
    func prefetchRow(_ i: Int) {
        geonameID.prefetch(i); latitude.prefetch(i); longitude.prefetch(i); population.prefetch(i); country.prefetch(i); admin1.prefetch(i)
        kind.prefetch(i); nameStart.prefetch(i); nameStart.prefetch(i + 1)
    }

    /// Starts loading what ranking reads of each of `slots` (importance, and the name a section is told by), all at once.
    /// Most rows ranked become answers, which read the name again: asked for here, it has arrived by then (without
    /// it a suggestion took 4% longer, though ranking itself reads few names since the kind byte marks sections).
    func prefetchRanking(_ slots: some Collection<Int>) {
        for i in slots { population.prefetch(i); kind.prefetch(i); nameStart.prefetch(i) }
        for i in slots where i < count { nameBytes.prefetch(Int(nameStart[i])) }
    }

    /// The place as the rest of Pindrop sees it.
    func place(_ i: Int) -> Place {
        rowKind(i) == .geonames ? geonamesPlace(i) : streetLevelPlace(i)
    }

    /// A GeoNames row: its id and "Name, Admin1, Country" kept as their parts (`PlaceText`), which most answers never
    /// write out (making the two strings cost a third of a suggestion).
    private func geonamesPlace(_ i: Int) -> Place {
        let name = name(i)
        let countryIndex = Int(country[i]), admin1Index = Int(admin1[i])
        // The two fields read, not the whole record (a copy of four strings and a list).
        let countryCode = countryIndex == Int(Self.noCountry) ? nil : countries[countryIndex].code
        let countryName = countryIndex == Int(Self.noCountry) ? nil : countries[countryIndex].name
        let admin1 = admin1Index < 0 ? nil : admin1s[admin1Index].name.nilIfEmpty
        return Place(id: .geonamesID(geonameID[i]), name: name, displayName: .joined(name, admin1 == name ? nil : admin1, countryName),
                     coordinate: Coordinate(latitude: latitude[i], longitude: longitude[i]), countryCode: countryCode,
                     admin1: admin1, population: Int(population[i]), source: "embedded", kind: .place)
    }

    /// An OpenStreetMap row (a venue, an address, a street, an area), with its address.
    private func streetLevelPlace(_ i: Int) -> Place {
        let name = name(i)
        // The two fields read, not the whole records (each a copy of four strings and a list).
        let countryIndex = Int(country[i]), admin1Index = Int(admin1[i])
        let countryCode = countryIndex == Int(Self.noCountry) ? nil : countries[countryIndex].code
        let admin1 = admin1Index < 0 ? nil : admin1s[admin1Index].name.nilIfEmpty
        guard let osm = extras(i) else { return geonamesPlace(i) }
        let address = osm.address.isEmpty ? nil : osm.address
        // The address as the country writes it on one line; written only for the kinds that show it.
        func context() -> String? {
            address.map { AddressFormatter.streetLine($0, countryCode: countryCode) }.flatMap(\.nilIfEmpty) ?? osm.address.town
        }
        let displayName: String
        switch rowKind(i) {
        case .address: displayName = context() ?? name
        case .street: displayName = [name, osm.address.town].compactMap { $0 }.joined(separator: ", ")
        case .area, .postcode:
            // "Oberland, Liechtenstein", "9490, Vaduz, Oberland, Liechtenstein": the area, then the areas that hold it.
            var chain: [String] = []
            for part in [name, osm.address.town, osm.address.county, osm.address.state, osm.address.country] {
                if let part, chain.last != part { chain.append(part) }
            }
            displayName = chain.joined(separator: ", ")
        default: displayName = [name, context()].compactMap { $0 }.joined(separator: ", ")
        }
        let kind = rowKind(i).placeKind
        var place = Place(id: osm.id, name: name, displayName: displayName, coordinate: Coordinate(latitude: latitude[i], longitude: longitude[i]),
                          countryCode: countryCode, admin1: admin1, population: 0, category: osm.category,
                          address: address, source: "embedded", boundingBox: osm.box, kind: kind,
                          categoryKey: kind == .street ? "highway" : osm.categoryKey)
        place.tags = osm.tags
        place.entrances = osm.entrances
        return place
    }
}
