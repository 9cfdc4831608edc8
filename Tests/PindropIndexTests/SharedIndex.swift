import Foundation
import PindropCore
import PindropImport
import PindropTesting
@testable import PindropIndex

/// The repository's shipped data (GeoNames cities500 and central Helsinki), built once per test run into a
/// temporary index.
enum SharedIndex {
    static let built: Result<PlaceIndex, any Error> = Result {
        let path = TestScratch.root + "/geonames.sqlite"
        let files = try GeoNamesReader.locate(ConformanceData.geonamesFolder)
        _ = try IndexBuilder.build(from: files, streets: OSMExtracts(files: [helsinki]), to: path)
        return try PlaceIndex.open(at: path)
    }

    static var index: PlaceIndex { get throws { try built.get() } }

    /// The shipped OpenStreetMap extract (central Helsinki).
    static let helsinki = ConformanceData.helsinkiExtract

    /// What the index was built from, read again by the importers, as the conformance suite's truth.
    static let data: Result<ConformanceData, any Error> = Result {
        var places: [GeoNamesRecord] = []
        _ = try GeoNamesReader.locate(ConformanceData.geonamesFolder).readPlaces(progress: nil) { places.append($0) }
        return ConformanceData(places: places, streets: try OSMFeatureExtractor.extract(fromFileAt: helsinki))
    }
}
