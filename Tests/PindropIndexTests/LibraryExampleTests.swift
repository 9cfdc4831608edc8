import Foundation
import PindropCore
import PindropImport
import PindropIndex
import PindropTesting
import Testing

/// The README's library example, call for call, on a GeoNames folder of three real cities500 rows.
@Suite("The README's library example")
struct LibraryExampleTests {
    @Test("build an index from a GeoNames folder, then search and reverse through the facade")
    func readmeExample() async throws {
        let folder = try Self.geonamesFolder()
        let index = folder + "/places.sqlite"

        let dump = try GeoNamesReader.locate(folder)
        _ = try await IndexBuilder(path: index).importGeoNames(dump, streets: nil, progress: nil)

        let places = try PlaceService(store: try PlaceIndex.open(at: index))
        let found = try await places.search(SearchRequest(text: "Springfield, IL"))
        #expect(found.results.first?.place.displayName == "Springfield, Illinois, United States")
        #expect(found.results.first?.place.id == "geonames:4250542")
        let here = try await places.reverse(ReverseRequest(coordinate: Coordinate(latitude: 48.8584, longitude: 2.2945)))
        #expect(here.results.first?.place.id == "geonames:2988507", "the Eiffel Tower is in Paris")
    }

    /// Springfield (Illinois), Springfield (Missouri) and Paris as the shipped cities500 holds them (alternate
    /// names left out), with their countries and first-level divisions.
    static func geonamesFolder() throws -> String {
        let folder = TestScratch.folder("readme-example")
        let rows = [
            "2988507\tParis\tParis\t\t48.85341\t2.3488\tP\tPPLC\tFR\t\t11\t\t\t\t2138551\t\t\tEurope/Paris\t",
            "4250542\tSpringfield\tSpringfield\t\t39.80172\t-89.64371\tP\tPPL\tUS\t\tIL\t\t\t\t114394\t\t\tAmerica/Chicago\t",
            "4409896\tSpringfield\tSpringfield\t\t37.21533\t-93.29824\tP\tPPL\tUS\t\tMO\t\t\t\t170188\t\t\tAmerica/Chicago\t",
        ]
        let countries = [
            "FR\tFRA\t250\tFR\tFrance\tParis\t547030\t66987244\tEU\t.fr\tEUR\tEuro\t33\t\t^(\\d{5})$\tfr-FR\t3017382\t\t",
            "US\tUSA\t840\tUS\tUnited States\tWashington\t9629091\t327167434\tNA\t.us\tUSD\tDollar\t1\t\t\ten-US\t6252001\t\t",
        ]
        let divisions = ["FR.11\tIle-de-France\tIle-de-France\t3012874", "US.IL\tIllinois\tIllinois\t4896861",
                         "US.MO\tMissouri\tMissouri\t4398678"]
        for (name, lines) in [("cities500.txt", rows), ("countryInfo.txt", countries), ("admin1CodesASCII.txt", divisions)] {
            try (lines.joined(separator: "\n") + "\n").write(toFile: folder + "/" + name, atomically: true, encoding: .utf8)
        }
        return folder
    }
}
