import PindropCore

/// What the offline map draws from the index: the street-level shapes in a view, and the names of the places in it,
/// biggest first and de-cluttered for the zoom.
struct MapLayers {
    let contents: IndexContents

    /// What the street-level map draws inside a box (`StreetMapping.streetMap`): the stored shapes, then with a zoom
    /// from `MapDetail.poiZoom` the named venues, as points.
    func streetMap(in box: BoundingBox, zoom: Int?, limit: Int) -> [MapFeature] {
        var found = contents.street.mapFeatures(in: box, zoom: zoom, limit: limit)
        guard let zoom, zoom >= MapDetail.poiZoom, found.count < limit, box.west <= box.east else { return found }
        let centre = Coordinate(latitude: (box.south + box.north) / 2, longitude: (box.west + box.east) / 2)
        let places = contents.places
        for row in contents.street.venues(within: centre.distance(to: Coordinate(latitude: box.north, longitude: box.east)) + 1, of: centre)
            where box.contains(contents.coordinate(row)) {
            guard found.count < limit else { break }
            found.append(MapFeature(kind: .poi, id: places.id(row), name: places.name(row), category: places.category(row),
                                    lines: [[contents.coordinate(row)]]))
        }
        return found
    }

    /// The names of the GeoNames places in a view, biggest first (then the lower row), de-cluttered for `zoom`, none
    /// smaller than the zoom's smallest population.
    func mapLabels(in box: BoundingBox, zoom: Int, limit: Int) -> [MapLabel] {
        var placement = MapLabelPlacement(zoom: zoom, limit: limit)
        // A small view (a city) takes every place in it, biggest first.
        let centre = Coordinate(latitude: (box.south + box.north) / 2, longitude: (box.west + box.east) / 2)
        let halfDiagonal = centre.distance(to: Coordinate(latitude: box.north, longitude: box.east))
        if box.west <= box.east, halfDiagonal < 100_000 {
            var hits: [(place: Int32, chord2: Double)] = []
            contents.spatial.within(centre, meters: halfDiagonal + 1, into: &hits)
            for row in hits.map(\.place).filter({ inside(box, $0) }).sorted(by: { contents.places.biggestFirst($0, $1) }) where !placement.isFull {
                offer(&placement, Int(row))
            }
            return placement.placed
        }
        placeBiggestFirst(in: box, zoom: zoom, &placement)
        return placement.placed
    }

    /// Row `row`'s label, offered to the placement.
    private func offer(_ placement: inout MapLabelPlacement, _ row: Int) {
        let places = contents.places
        placement.offer(MapLabel(id: PlaceID.geonames(places.geonameID[row]).description, name: places.name(row), coordinate: contents.coordinate(row),
                                 population: Int(places.population[row])))
    }

    private func inside(_ box: BoundingBox, _ row: Int32) -> Bool { box.contains(contents.coordinate(Int(row))) }

    /// A larger view's places in order (biggest first, then the lower row) from two walks. The list of every place by
    /// size is quick when the view holds most of the big places (the world, a continent); the place tree's largest
    /// population under each node is quick when it holds few of them (a region, the open sea, where the list reads
    /// every bigger place on Earth first). They take turns, 32 entries of the list to a node of the tree (about what
    /// each costs), and whichever is ahead offers the place: a view costs about twice its quicker walk at most.
    private func placeBiggestFirst(in box: BoundingBox, zoom: Int, _ placement: inout MapLabelPlacement) {
        let minimum = MapLabelPlacement.minimumPopulation(zoom: zoom)
        let labelOrder = contents.labelOrder, population = contents.places.population
        var tree = contents.spatial.biggestFirst(in: box, atLeast: Int32(clamping: minimum))
        var listAt = 0, givenByList = 0, givenByTree = 0, offered = 0
        /// The `given`-th place of a walk: offered if the other walk has not offered it yet.
        func give(_ row: Int32, _ given: inout Int) {
            given += 1
            if given > offered { offered = given; offer(&placement, Int(row)) }
        }
        walking: while !placement.isFull {
            for _ in 0..<32 {
                // The list ends at the zoom's smallest population: every place of the view has been given.
                guard listAt < labelOrder.count, Int(population[Int(labelOrder[listAt])]) >= minimum else { break walking }
                let row = labelOrder[listAt]
                listAt += 1
                if inside(box, row) { give(row, &givenByList) }
                if placement.isFull { break walking }
            }
            switch tree.step(inside: { inside(box, $0) }) {
            case .place(let row): give(row, &givenByTree)
            case .opened: continue
            case .done: break walking
            }
        }
    }
}
