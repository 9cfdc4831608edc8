import Foundation
import PindropCore
import PindropImport
@testable import PindropIndex

/// The repository's shipped GeoNames data (cities500), built once per test run into a temporary index.
enum SharedIndex {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static let built: Result<PlaceIndex, any Error> = Result {
        let path = NSTemporaryDirectory() + "pindrop-tests-\(getpid())/geonames.sqlite"
        let files = try GeoNamesReader.locate(repository.appendingPathComponent("data/geonames").path)
        _ = try IndexBuilder.build(from: files, osm: [helsinki], to: path)
        return try PlaceIndex.open(at: path)
    }

    static var index: PlaceIndex { get throws { try built.get() } }

    /// The shipped OpenStreetMap extract (central Helsinki).
    static let helsinki = repository.appendingPathComponent("data/osm/helsinki-center.osm.pbf").path

    /// Its features as the extractor reads them, to check the index against.
    static let helsinkiFeatures: Result<OSMFeatures, any Error> = Result { try OSMFeatureExtractor.extract(fromFileAt: helsinki) }
}

extension PlaceIndex {
    func firstSearch(_ text: String, near: Coordinate? = nil, country: String? = nil) throws -> Place? {
        (try search(SearchRequest(text: text, near: near, countryCode: country)) as [PlaceResult]).first?.place
    }
}
