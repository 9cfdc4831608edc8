import Foundation
import PindropCore
import PindropTesting
import Testing
@testable import PindropIndex

/// One address format wherever a street address is shown — "Street Number, Postcode Town",
/// the town in its common (GeoNames) name, missing parts lent by the nearest address or the containing place,
/// and "near …" when the answer is a street or a place only.
@Suite("Address lines: one format, filled postcode and town, \"near …\" for streets and places")
struct AddressFormatTests {
    func line(_ latitude: Double, _ longitude: Double, in index: PlaceIndex? = nil) throws -> String? {
        try (index ?? SharedIndex.index).reverse(ReverseRequest(coordinate: Coordinate(latitude: latitude, longitude: longitude), limit: 1))
            .first?.place.displayName
    }

    @Test("the issue's spots in central Helsinki read in one format")
    func issueSpots() throws {
        // Simonkatu 7: the point tagged without a postcode lends it from its neighbours.
        #expect(try line(60.169019, 24.9355755) == "Simonkatu 7, 00100 Helsinki")
        // Narinkka 2 is tagged "Helsingin kaupunki": shown as the town people say.
        #expect(try line(60.1699655, 24.9355066) == "Narinkka 2, 00099 Helsinki")
        // Bulevardi 7 is tagged with the town "7".
        #expect(try line(60.1650045, 24.9383955) == "Bulevardi 7, 00120 Helsinki")
        // On the square, no address within 50 m: the street, with the postcode of the nearest address.
        #expect(try line(60.1694, 24.9344) == "near Narinkkatori, 00100 Helsinki")
        // Kamppi's own point lies west of the extract: a district only, in the town it belongs to.
        #expect(try line(60.1676, 24.93038) == "near Kamppi, Helsinki")
    }

    @Test("every spot of a 100 m grid over the extract reads \"Street Number, Postcode Helsinki\" or \"near …\"")
    func gridKeepsTheFormat() throws {
        let index = try SharedIndex.index
        let postcode = /[0-9]{5}/, place = /near [^,]+(, Helsinki)?/
        var counts = (address: 0, street: 0, place: 0), other: [String] = []
        for i in 0...16 {
            for j in 0...18 {
                let c = Coordinate(latitude: 60.1642 + Double(i) * 0.0009, longitude: 24.9352 + Double(j) * 0.0009)
                guard let answer = try index.reverse(ReverseRequest(coordinate: c, limit: 1)).first?.place else { other.append("nothing"); continue }
                let text = answer.displayName, a = answer.address
                if let a, let street = a.street, let code = a.postcode, code.wholeMatch(of: postcode) != nil, a.town == "Helsinki" {
                    if let number = a.houseNumber, text == "\(street) \(number), \(code) Helsinki" { counts.address += 1; continue }
                    if a.houseNumber == nil, text == "near \(street), \(code) Helsinki" { counts.street += 1; continue }
                }
                if a == nil, text.wholeMatch(of: place) != nil { counts.place += 1 } else { other.append(text) }
            }
        }
        #expect(other.isEmpty, "\(other.count) spots in another format: \(other.prefix(10))")
        #expect(counts.address > 150 && counts.street > 20, "\(counts)")
    }

    @Test("every address of the Helsinki extract is shown as Finland writes it: \"Street Number, Postcode Town\"")
    func everyAddressInFinlandsForm() throws {
        let places = try SharedIndex.index.contents.places
        var checked = 0, other: [String] = []
        for row in places.geonamesCount..<places.count where places.rowKind(row) == .address {
            let place = places.place(row)
            guard let a = place.address, let street = a.street, let number = a.houseNumber, let code = a.postcode, let town = a.town
            else { other.append(place.displayName); continue }
            if place.displayName == "\(street) \(number), \(code) \(town)" { checked += 1 } else { other.append(place.displayName) }
        }
        #expect(other.isEmpty, "\(other.count) addresses in another form: \(other.prefix(10))")
        #expect(checked > 500, "\(checked) addresses (the extract holds 608)")
    }

    @Test("every street-level row of Helsinki names its town Helsinki; every address has a postcode")
    func townsAndPostcodes() throws {
        let index = try SharedIndex.index
        let rows = index.contents.places.geonamesCount..<index.contents.places.count
        let towns = Set(rows.compactMap { index.contents.places.extras($0)?.address.town })
        #expect(towns == ["Helsinki"])
        let withoutPostcode = rows.filter { index.contents.places.rowKind($0) == .address && index.contents.places.extras($0)?.address.postcode == nil }
        #expect(withoutPostcode.isEmpty, "\(withoutPostcode.count) addresses without a postcode")
    }

    @Test("a postcode lent by the nearest address is the one tagged there (half the addresses hidden: ≥ 95%)")
    func lentPostcodesAreRight() throws {
        let index = try SharedIndex.index
        let points = try SharedIndex.data.get().streets.addressPoints.filter { $0.address.postcode != nil }
        var known = OSMFeatures(), hidden: [OSMAddressPoint] = []
        for (n, point) in points.enumerated() {
            if n % 2 == 0 { known.addressPoints.append(point) } else { hidden.append(point) }
        }
        let context = AddressContext(features: known, places: index.contents.places,
                                     spatial: index.contents.spatial, towns: index.contents.townFinder,
                                     townNames: TownNames(["helsinki": [index.contents.places.index(ofGeonameID: 658225)!]]), areas: .empty)
        var stripped = hidden.map(\.address)
        for i in stripped.indices { stripped[i].postcode = nil; stripped[i].town = "Helsingin kaupunki" }
        let right = zip(hidden, stripped).filter { point, address in
            let completed = context.complete(address, at: point.coordinate, postcode: true)
            return completed.postcode == point.address.postcode && completed.town == "Helsinki"
        }.count
        #expect(Double(right) >= 0.95 * Double(hidden.count), "\(right) of \(hidden.count)")
    }

    @Test("the containing town: a district gives way to its city, a village stays itself")
    func containingTown() throws {
        let index = try SharedIndex.index
        func town(_ latitude: Double, _ longitude: Double) -> String? {
            AddressContext.containingTown(at: Coordinate(latitude: latitude, longitude: longitude),
                                          places: index.contents.places, spatial: index.contents.spatial).map(index.contents.places.name)
        }
        #expect(town(60.1676, 24.9304) == "Helsinki")        // Kamppi
        #expect(town(60.1843, 24.9195) == "Helsinki")        // Taka-Töölö, 3 km out
        #expect(town(47.1399, 9.5215) == "Vaduz")
        #expect(town(47.1650, 9.5087) == "Schaan")            // 3 km from Vaduz, not in it
    }

    @Test("Liechtenstein: \"Street Number, Postcode Town\", parts filled from the nearest address")
    func vaduz() async throws {
        let index = try await Self.vaduzIndex.value
        // Tagged in full.
        #expect(try line(47.13930, 9.52210, in: index) == "Städtle 35, 9490 Vaduz")
        // Untagged postcode and town: both from Städtle 35 next door.
        #expect(try line(47.13900, 9.52230, in: index) == "Städtle 37, 9490 Vaduz")
        // An official form of the town's name is shown as the town people say.
        #expect(try line(47.13800, 9.52150, in: index) == "Äulestrasse 20, 9490 Vaduz")
        // Schaan's own postcode, 3 km north.
        #expect(try line(47.16500, 9.50900, in: index) == "Landstrasse 10, 9494 Schaan")
        // A street with no address within reach: no postcode to lend, the town from the containing place.
        #expect(try line(47.14500, 9.52300, in: index) == "near Herrengasse, Vaduz")
        // Far from any street: the place alone.
        #expect(try line(47.11815, 9.54197, in: index) == "near Triesenberg")
        // The wire's address as Liechtenstein writes it (as Switzerland does), its lines separated by "\n".
        let result = try index.reverse(ReverseRequest(coordinate: Coordinate(latitude: 47.13900, longitude: 9.52230), limit: 1))
        let json = String(decoding: WireEncoding.document(query: [], results: result, format: .json).bytes, as: UTF8.self)
        #expect(json.contains(#""formatted":"Städtle 37\n9490 Vaduz""#))
    }

    /// Liechtenstein's GeoNames places with a few addresses of Vaduz and Schaan (coordinates as mapped in
    /// OpenStreetMap, rounded; the tags as mappers write them, gaps included).
    static let vaduzIndex = Task { () throws -> PlaceIndex in
        let records = try SharedIndex.data.get().places.filter { $0.countryCode == "LI" }
        func point(_ id: Int, _ lat: Double, _ lon: Double, _ street: String, _ number: String, _ postcode: String?, _ town: String?) -> OSMAddressPoint {
            OSMAddressPoint(id: "osm:node/\(id)", coordinate: Coordinate(latitude: lat, longitude: lon),
                            address: Address(houseNumber: number, street: street, postcode: postcode, town: town))
        }
        let features = OSMFeatures(
            addressPoints: [point(1, 47.13930, 9.52210, "Städtle", "35", "9490", "Vaduz"),
                            point(2, 47.13900, 9.52230, "Städtle", "37", nil, nil),
                            point(3, 47.13800, 9.52150, "Äulestrasse", "20", "9490", "Gemeinde Vaduz"),
                            point(4, 47.16500, 9.50900, "Landstrasse", "10", "9494", "Schaan")],
            streets: [OSMStreet(id: "osm:way/10", name: "Städtle", highway: "pedestrian",
                                points: [Coordinate(latitude: 47.1380, longitude: 9.5222), Coordinate(latitude: 47.1410, longitude: 9.5215)]),
                      OSMStreet(id: "osm:way/11", name: "Herrengasse", highway: "residential",
                                points: [Coordinate(latitude: 47.1450, longitude: 9.5225), Coordinate(latitude: 47.1450, longitude: 9.5240)])])
        struct Extract: StreetDataSource {
            let features: OSMFeatures
            var labels: [String] { ["vaduz-test"] }
            func readFeatures() throws -> OSMFeatures { features }
        }
        let path = TestScratch.root + "/vaduz/index.sqlite"
        _ = try IndexBuilder.build(records: records, countries: [GeoNamesCountry(code: "LI", iso3: "LIE", name: "Liechtenstein")],
                                   admin1Names: [:], streets: Extract(features: features), source: "test", to: path, progress: nil)
        return try PlaceIndex.open(at: path)
    }
}
