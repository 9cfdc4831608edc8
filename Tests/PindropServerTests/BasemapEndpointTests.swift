import Foundation
import HummingbirdTesting
import PindropCore
import PindropServer
import Testing

@Suite("basemap: coastlines and borders for the view as GeoJSON")
struct BasemapEndpointTests {
    /// A square continent (0...40°) at every resolution: 4 corners at crude, 200 points a side at low, and at
    /// intermediate a 100,000-point circle of land inside it (more than one answer may hold), a lake and a border.
    static let coastline: Coastline = {
        func square(_ perSide: Int) -> [Coordinate] {
            let side = (0..<perSide).map { Double($0) * 40 / Double(perSide) }
            let ring = side.map { Coordinate(latitude: 0, longitude: $0) } + side.map { Coordinate(latitude: $0, longitude: 40) }
                + side.map { Coordinate(latitude: 40, longitude: 40 - $0) } + side.map { Coordinate(latitude: 40 - $0, longitude: 0) }
            return ring + [ring[0]]
        }
        let circle = (0...100_000).map { i -> Coordinate in
            let a = Double(i % 100_000) / 100_000 * 2 * Double.pi
            return Coordinate(latitude: 20 + 15 * sin(a), longitude: 20 + 15 * cos(a))
        }
        let lake = [(21.0, 21.0), (22.0, 21.0), (22.0, 22.0), (21.0, 21.0)].map { Coordinate(latitude: $0.1, longitude: $0.0) }
        let border = [Coordinate(latitude: 0, longitude: 30), Coordinate(latitude: 40, longitude: 30)]
        return Coastline(shapes: [
            .crude: [.init(kind: .land, level: 1, points: square(1))],
            .low: [.init(kind: .land, level: 1, points: square(200))],
            .intermediate: [.init(kind: .land, level: 1, points: circle), .init(kind: .water, level: 2, points: lake),
                            .init(kind: .border, level: 0, points: border)],
        ])
    }()

    static func server(coastline: Coastline? = Self.coastline) -> TestServer {
        var server = TestServer()
        server.coastline = coastline
        return server
    }

    static func features(_ json: [String: Any]) throws -> [[String: Any]] { try #require(json["features"] as? [[String: Any]]) }

    static func pointCount(_ json: [String: Any]) throws -> Int {
        try features(json).reduce(0) { total, feature in
            let geometry = try #require(feature["geometry"] as? [String: Any])
            if geometry["type"] as? String == "Polygon" { return total + (try #require(geometry["coordinates"] as? [[[Double]]]))[0].count }
            return total + (try #require(geometry["coordinates"] as? [[Double]])).count
        }
    }

    @Test("the zoom picks the resolution: crude up to 3, low at 4 and 5, intermediate from 6")
    func resolutionByZoom() async throws {
        try await Self.server().test { client in
            for (zoom, letter) in [(0, "c"), (3, "c"), (4, "l"), (5, "l"), (6, "i"), (12, "i"), (22, "i")] {
                let response = try await client.get("/v1/basemap?bbox=19.5,19.5,20.5,20.5&zoom=\(zoom)")
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/geo+json")
                let json = try response.json
                #expect(json["resolution"] as? String == letter, "zoom \(zoom)")
                #expect(json["attribution"] as? [String] == ["GSHHG coastlines (Wessel & Smith, LGPL)"])
                let query = try #require(json["query"] as? [String: Any])
                #expect(query["zoom"] as? Int == zoom)
                #expect(query["bbox"] as? [Double] == [19.5, 19.5, 20.5, 20.5])
            }
        }
    }

    @Test("a small view gets its land clipped to the box as closed rings, lakes after land, borders as lines")
    func clippedToTheBox() async throws {
        try await Self.server().test { client in
            let json = try await client.getJSON("/v1/basemap?bbox=20,20,31,23&zoom=8")
            let features = try Self.features(json)
            #expect(features.compactMap { ($0["properties"] as? [String: Any])?["kind"] as? String } == ["land", "water", "border"])
            let land = try #require((features[0]["geometry"] as? [String: Any])?["coordinates"] as? [[[Double]]])
            #expect(land.count == 1 && land[0].first == land[0].last)
            #expect(land[0].allSatisfy { (20...31).contains($0[0]) && (20...23).contains($0[1]) })
            #expect(land[0].count < 20_000)
            let border = try #require(features[2]["geometry"] as? [String: Any])
            #expect(border["type"] as? String == "LineString")
            #expect((features[1]["properties"] as? [String: Any])?["level"] as? Int == 2)
        }
    }

    @Test("an answer over the point budget steps down to the next coarser resolution")
    func sizeBound() async throws {
        try await Self.server().test { client in
            let whole = try await client.getJSON("/v1/basemap?bbox=-1,-1,41,41&zoom=8")
            #expect(whole["resolution"] as? String == "l")
            #expect(try Self.pointCount(whole) == 801)
            let part = try await client.getJSON("/v1/basemap?bbox=-1,-1,20,41&zoom=8")
            #expect(part["resolution"] as? String == "i")
            #expect(try Self.pointCount(part) < 60_000)
        }
    }

    @Test("bad boxes and zooms are 400 invalid_input with a sentence naming the parameter")
    func validation() async throws {
        try await Self.server().test { client in
            for (query, words) in [("zoom=3", "\"bbox\" is missing"), ("bbox=1,2,3&zoom=3", "four numbers"),
                                   ("bbox=0,95,1,96&zoom=3", "latitudes"), ("bbox=-190,0,1,1&zoom=3", "longitudes"),
                                   ("bbox=0,0,1,1", "\"zoom\" is missing"), ("bbox=0,0,1,1&zoom=23", "\"zoom\" must be a whole number"),
                                   ("bbox=0,0,1,1&zoom=near", "\"zoom\"")] {
                let response = try await client.get("/v1/basemap?\(query)")
                #expect(response.status == .badRequest, "\(query)")
                #expect(try response.errorCode == "invalid_input")
                let message = try #require((try response.json["error"] as? [String: Any])?["message"] as? String)
                #expect(message.contains(words), "\(query): \(message)")
            }
            // A box with no area is valid and holds nothing.
            let empty = try await client.getJSON("/v1/basemap?bbox=50,50,50,50&zoom=3")
            #expect(try Self.features(empty).isEmpty)
        }
    }

    @Test("without coastline data: 503 not_configured, and the page's settings say so")
    func notConfigured() async throws {
        try await Self.server(coastline: nil).test { client in
            let response = try await client.get("/v1/basemap?bbox=0,0,1,1&zoom=3")
            #expect(response.status == .serviceUnavailable)
            #expect(try response.errorCode == "not_configured")
            let config = try await client.getJSON("/v1/config")
            #expect(config["coastline"] as? Bool == false)
        }
        try await Self.server().test { client in
            let config = try await client.getJSON("/v1/config")
            #expect(config["coastline"] as? Bool == true)
        }
    }
}
