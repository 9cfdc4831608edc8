import ArgumentParser
import Foundation
import PindropCore
import PindropImport
import PindropIndex

/// Where Pindrop keeps its files: `$PINDROP_HOME`, else `~/.local/share/pindrop`.
enum PindropHome {
    static var path: String {
        if let home = ProcessInfo.processInfo.environment["PINDROP_HOME"], !home.isEmpty { return home }
        return (NSHomeDirectory() as NSString).appendingPathComponent(".local/share/pindrop")
    }

    /// The data the repository ships (GeoNames cities500, compressed): `$PINDROP_DATA`, else `data/` of the
    /// checkout this binary was built from.
    static var shippedData: String {
        if let data = ProcessInfo.processInfo.environment["PINDROP_DATA"], !data.isEmpty { return data }
        let source = URL(fileURLWithPath: #filePath)
        return source.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("data").path
    }
}

/// `--index PATH`, and opening (or, on first use, building) the embedded index.
struct IndexOptions: ParsableArguments {
    @Option(name: .long, help: "The index file (default: $PINDROP_HOME/geonames.sqlite, built on first use).")
    var index: String?

    /// The default index's path.
    static var defaultPath: String { (PindropHome.path as NSString).appendingPathComponent("geonames.sqlite") }

    /// Opens the index; the default one is built from the shipped data the first time (or after an upgrade).
    func openIndex() throws -> PlaceIndex {
        if let index { return try PlaceIndex.open(at: index) }
        let path = Self.defaultPath
        do {
            return try PlaceIndex.open(at: path)
        } catch where FileManager.default.fileExists(atPath: path) {
            Terminal.note("the index at \(path) cannot be used (\(error.message)); rebuilding it")
        } catch {}
        let folder = (PindropHome.shippedData as NSString).appendingPathComponent("geonames")
        let osm = (PindropHome.shippedData as NSString).appendingPathComponent("osm/helsinki-center.osm.pbf")
        let osmFiles = FileManager.default.fileExists(atPath: osm) ? [osm] : []
        Terminal.note("building the index at \(path) from the shipped GeoNames\(osmFiles.isEmpty ? "" : " and OpenStreetMap") data (first use; about 5 s)")
        let report = try IndexBuilder.build(from: try GeoNamesReader.locate(folder), osm: osmFiles, to: path,
                                            progress: Terminal.progressBar())
        Terminal.note("built \(report.summary.rowsImported) places and \(report.venues + report.addresses + report.streets) street-level rows in \(String(format: "%.1f", report.seconds)) s")
        return try PlaceIndex.open(at: path)
    }
}

/// Output choices shared by every query command.
struct OutputOptions: ParsableArguments {
    @Flag(help: "Print one JSON object: the query and a `results` array.")
    var json = false

    @Flag(help: "Print an RFC 7946 GeoJSON FeatureCollection.")
    var geojson = false

    func validate() throws {
        if json && geojson { throw ValidationError("choose one of --json and --geojson") }
    }

    var format: ResultFormat? { json ? .json : (geojson ? .geojson : nil) }
}

/// Writing to the terminal: notes and progress on stderr, results on stdout.
enum Terminal {
    static func note(_ message: String) {
        FileHandle.standardError.write(Data("pindrop: \(message)\n".utf8))
    }

    static func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = Foundation.write(1, buffer.baseAddress! + offset, buffer.count - offset)
                if n <= 0 { return }
                offset += n
            }
        }
    }

    /// A progress bar on stderr when it is a terminal; nil otherwise (so logs stay clean).
    static func progressBar() -> (@Sendable (String, Double) -> Void)? {
        guard isatty(2) == 1 else { return nil }
        return { stage, fraction in
            let width = 30
            let filled = Int((fraction * Double(width)).rounded(.down))
            let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
            let line = "\r[\(bar)] \(String(format: "%3d", Int(fraction * 100)))% \(stage)\u{1B}[K" + (stage == "done" ? "\n" : "")
            FileHandle.standardError.write(Data(line.utf8))
        }
    }

    /// Prints results as an aligned table.
    static func printTable(_ results: [PlaceResult]) {
        guard !results.isEmpty else { print("No Results"); return }
        let showDistance = results.contains { $0.distanceMeters != nil }
        var rows = [["#", "name", "latitude", "longitude", "population"] + (showDistance ? ["distance"] : []) + ["id"]]
        for (i, r) in results.enumerated() {
            let p = r.place
            var row = [String(i + 1), p.displayName, String(format: "%.5f", p.coordinate.latitude),
                       String(format: "%.5f", p.coordinate.longitude), String(p.population)]
            if showDistance { row.append(r.distanceMeters.map(formatDistance) ?? "") }
            row.append(p.id)
            rows.append(row)
        }
        let widths = (0..<rows[0].count).map { c in rows.map { $0[c].count }.max() ?? 0 }
        for row in rows {
            print(row.enumerated().map { c, cell in cell.padding(toLength: widths[c], withPad: " ", startingAt: 0) }
                .joined(separator: "  ").trimmingCharacters(in: .whitespaces))
        }
    }

    static func formatDistance(_ meters: Double) -> String {
        meters < 1000 ? String(format: "%.0f m", meters) : String(format: "%.2f km", meters / 1000)
    }
}

/// Runs a command body, turning Pindrop's errors into one line on stderr and a non-zero exit.
func reportingErrors<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as PindropError {
        Terminal.note("error: \(error.message)")
        throw ExitCode(error.code == "invalid_input" ? 64 : 1)
    }
}
