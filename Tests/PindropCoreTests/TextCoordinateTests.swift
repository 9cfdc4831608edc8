import PindropCore
import Testing

/// Coordinates written in a search text, as Nominatim reads them (its `extract_coords_from_query` and the coordinate
/// scenarios of its search tests).
@Suite("Coordinates in a search text")
struct TextCoordinateTests {
    /// Text, latitude, longitude, the rest.
    static let readings: [(String, Double, Double, String)] = [
        ("47.1, 9.5", 47.1, 9.5, ""),
        ("47.12400621,9.6047552", 47.12400621, 9.6047552, ""),
        ("-21.0,-33.0", -21, -33, ""),
        ("[47.1 9.5]", 47.1, 9.5, ""),
        ("N 47.10791° E 9.52676°", 47.10791, 9.52676, ""),
        ("N47.10791 E9.52676", 47.10791, 9.52676, ""),
        ("47.10791° N 9.52676° E", 47.10791, 9.52676, ""),
        ("S 33.86785° W 151.20732°", -33.86785, -151.20732, ""),
        // Nominatim's white-space scenarios: tabs and commas between the parts, the rest before the coordinate.
        ("sporry weiher, N 47.10791° E 9.52676°", 47.10791, 9.52676, "sporry weiher,"),
        ("sporry weiher,\tN 47.10791° E 9.52676°", 47.10791, 9.52676, "sporry weiher,"),
        ("\tsporry weiher\t, \tN 47.10791° E 9.52676°", 47.10791, 9.52676, "\tsporry weiher\t,"),
        ("sporry weiher, N 47.10791° \t\tE 9.52676°", 47.10791, 9.52676, "sporry weiher,"),
        ("sporry weiher, N 47.10791° E\t9.52676°", 47.10791, 9.52676, "sporry weiher,"),
        ("47.1 9.5 restaurants", 47.1, 9.5, "restaurants"),
        // Degrees and minutes; degrees, minutes and seconds.
        ("N 47° 6.4746′ E 9° 31.6056′", 47 + 6.4746 / 60, 9 + 31.6056 / 60, ""),
        ("47 6.4746 N, 9 31.6056 E", 47 + 6.4746 / 60, 9 + 31.6056 / 60, ""),
        ("47°06'28.5\"N 9°31'36.3\"E", 47 + 6.0 / 60 + 28.5 / 3600, 9 + 31.0 / 60 + 36.3 / 3600, ""),
        ("pharmacy N 47° 8′ 24″ E 9° 31′ 12″", 47 + 8.0 / 60 + 24.0 / 3600, 9 + 31.0 / 60 + 12.0 / 3600, "pharmacy"),
    ]

    @Test("decimal, degrees-minutes and degrees-minutes-seconds, hemisphere letters before or after, spaces, tabs or a comma between")
    func readings() throws {
        for (text, latitude, longitude, rest) in Self.readings {
            let reading = try #require(TextCoordinate.reading(text), "\(text)")
            #expect(abs(reading.coordinate.latitude - latitude) < 1e-9, "\(text)")
            #expect(abs(reading.coordinate.longitude - longitude) < 1e-9, "\(text)")
            #expect(reading.rest == rest, "\(text)")
        }
    }

    @Test("no coordinate: words and house numbers, text on both sides, off the globe, dotted numbers",
          arguments: ["Vaduz", "Landstr 27 Steinort, Triesenberg, 9495", "52\tBodastr,Triesenberg", "Hauptstrasse 12.5",
                      "Vaduz 47.1 9.5 Liechtenstein", "95.0, 10.0", "10.0, 190.0", "234.23.14.5", "N 47 E 9", "Schaan", ".",
                      "9490 Vaduz", "New York, New York"])
    func none(text: String) {
        #expect(TextCoordinate.reading(text) == nil)
    }
}
