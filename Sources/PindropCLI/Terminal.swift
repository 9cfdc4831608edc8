import ArgumentParser
import Foundation
import PindropCore

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

    /// Writes a JSON document and a newline on stdout.
    static func write(_ document: JSONWriter) { write(document.bytes + [0x0A]) }

    /// A progress bar on stderr when it is a terminal; nil otherwise (so logs stay clean).
    static func progressBar() -> ImportProgress? {
        guard isatty(2) == 1 else { return nil }
        return { stage, fraction in
            let width = 30
            let filled = Int((fraction * Double(width)).rounded(.down))
            let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
            let line = "\r[\(bar)] \(String(format: "%3d", Int(fraction * 100)))% \(stage)\u{1B}[K" + (stage == "done" ? "\n" : "")
            FileHandle.standardError.write(Data(line.utf8))
        }
    }

    /// Prints rows as aligned columns, the first row being the header.
    static func printColumns(_ rows: [[String]]) {
        let widths = (0..<rows[0].count).map { c in rows.map { $0[c].count }.max() ?? 0 }
        for row in rows {
            print(row.enumerated().map { c, cell in cell.padding(toLength: widths[c], withPad: " ", startingAt: 0) }
                .joined(separator: "  ").trimmingCharacters(in: .whitespaces))
        }
    }

    /// Prints results as an aligned table, or "No Results".
    static func printTable(_ results: [PlaceResult]) {
        guard !results.isEmpty else { print("No Results"); return }
        let showDistance = results.contains { $0.distanceMeters != nil }
        var rows = [["#", "name", "latitude", "longitude", "population"] + (showDistance ? ["distance"] : []) + ["id"]]
        for (i, r) in results.enumerated() {
            let p = r.place
            var row = [String(i + 1), r.label, String(format: "%.5f", p.coordinate.latitude),
                       String(format: "%.5f", p.coordinate.longitude), String(p.population)]
            if showDistance { row.append(r.distanceMeters.map(formatDistance) ?? "") }
            row.append(p.id)
            rows.append(row)
        }
        printColumns(rows)
    }

    static func formatDistance(_ meters: Double) -> String {
        meters < 1000 ? String(format: "%.0f m", meters) : String(format: "%.2f km", meters / 1000)
    }
}

/// Runs a command body, turning Pindrop's errors into one line on stderr and the exit code their kind names.
/// An import names the index it `keeping`: a failed import leaves it as it was, and the line says so.
func reportingErrors<T>(keeping index: String? = nil, _ body: () async throws -> T) async throws -> T {
    do {
        return try await body()
    } catch let error as PindropError {
        Terminal.note("error: \(error.message)" + (index.map { "; the index at \($0) is unchanged" } ?? ""))
        throw ExitCode(error.exitCode)
    }
}
