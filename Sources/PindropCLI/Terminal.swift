import ArgumentParser
import Foundation
import PindropCore
import Synchronization

/// Writing to the terminal: notes and progress on stderr, results on stdout. Text from the data (names, the
/// user's own input echoed in an error) has its control characters escaped, so that it cannot drive the terminal.
enum Terminal {
    static func note(_ message: String) {
        FileHandle.standardError.write(Data("pindrop: \(ControlCharacters.escaped(message))\n".utf8))
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

    /// A progress bar on stderr when it is a terminal; nil otherwise (so logs stay clean). Each stage shows its
    /// fraction, rate and time left; with `inputBytes` (the file being read), the reading stage counts megabytes.
    static func progressBar(inputBytes: Int? = nil) -> ImportProgress? {
        guard isatty(2) == 1 else { return nil }
        let state = Mutex((stage: "", started: Date(), drawn: Date.distantPast))
        return { stage, fraction in
            let now = Date()
            let (elapsed, due) = state.withLock { s -> (Double, Bool) in
                if s.stage != stage { s = (stage, now, .distantPast) }
                // At most ten redraws a second: the reader reports every few thousand rows.
                let due = now.timeIntervalSince(s.drawn) >= 0.1 || stage == "done"
                if due { s.drawn = now }
                return (now.timeIntervalSince(s.started), due)
            }
            guard due else { return }
            FileHandle.standardError.write(Data(progressLine(stage, fraction, elapsed: elapsed, inputBytes: inputBytes).utf8))
        }
    }

    /// One redraw of the progress bar: `[####------]  40% reading 724/1,811 MB, 38 MB/s, 0:29 left`.
    static func progressLine(_ stage: String, _ fraction: Double, elapsed: Double, inputBytes: Int?) -> String {
        let width = 30
        let filled = Int((fraction * Double(width)).rounded(.down))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        var detail = ""
        if stage == "reading", let bytes = inputBytes, bytes > 0 {
            let done = fraction * Double(bytes) / 1e6
            detail += " \(grouped(Int(done)))/\(grouped(bytes / 1_000_000)) MB"
            if elapsed > 0.5 { detail += ", \(grouped(Int(done / elapsed))) MB/s" }
        } else if elapsed > 0.5, stage != "done" {
            detail += String(format: " %.1f%%/s", fraction * 100 / elapsed)
        }
        if fraction > 0.01, elapsed > 1, stage != "done" {
            let left = Int(elapsed * (1 - fraction) / fraction)
            detail += (detail.isEmpty ? " " : ", ") + String(format: "%d:%02d left", left / 60, left % 60)
        }
        return "\r[\(bar)] \(String(format: "%3d", Int(fraction * 100)))% \(stage)\(detail)\u{1B}[K" + (stage == "done" ? "\n" : "")
    }

    /// Prints rows as aligned columns, the first row being the header; a row's `notes` line (if any) follows it.
    static func printColumns(_ rows: [[String]], notes: [String?] = []) {
        let rows = rows.map { $0.map(ControlCharacters.escaped) }, notes = notes.map { $0.map(ControlCharacters.escaped) }
        let widths = (0..<rows[0].count).map { c in rows.map { $0[c].count }.max() ?? 0 }
        for (n, row) in rows.enumerated() {
            print(row.enumerated().map { c, cell in cell.padding(toLength: widths[c], withPad: " ", startingAt: 0) }
                .joined(separator: "  ").trimmingCharacters(in: .whitespaces))
            if n < notes.count, let note = notes[n] { print("  " + note) }
        }
    }

    /// Prints results as an aligned table, or "No Results"; a result with an explanation gets its line under it.
    /// When a result has a street address its name does not start with (a venue's, a building's), an address column
    /// shows it as its country writes it, on one line.
    static func printTable(_ results: [PlaceResult]) {
        guard !results.isEmpty else { print("No Results"); return }
        let showDistance = results.contains { $0.distanceMeters != nil }
        let addresses = results.map { addressLine($0.place) }
        let showAddress = addresses.contains { $0 != nil }
        var rows = [["#", "name"] + (showAddress ? ["address"] : []) + ["latitude", "longitude", "population"]
                    + (showDistance ? ["distance"] : []) + ["id"]]
        for (i, r) in results.enumerated() {
            let p = r.place
            var row = [String(i + 1), r.label] + (showAddress ? [addresses[i] ?? ""] : [])
            row += [String(format: "%.5f", p.coordinate.latitude), String(format: "%.5f", p.coordinate.longitude), String(p.population)]
            if showDistance { row.append(r.distanceMeters.map(formatDistance) ?? "") }
            row.append(p.id)
            rows.append(row)
        }
        printColumns(rows, notes: [nil] + results.map { r in r.explanation.map { explanationLine($0, placeName: r.place.name) } })
    }

    /// A place's street address on one line, as its country writes it ("Städtle 38, 9490 Vaduz, Liechtenstein");
    /// nil for a place without a street, house number or postcode, or whose name starts with its address's first
    /// line (an address's or a street's own list line says it already).
    static func addressLine(_ place: Place) -> String? {
        guard let a = place.address, a.street != nil || a.houseNumber != nil || a.postcode != nil else { return nil }
        let lines = AddressFormatter.format(a, countryCode: place.countryCode).split(separator: "\n")
        guard let first = lines.first, !place.displayName.hasPrefix(first) else { return nil }
        return lines.joined(separator: ", ")
    }

    /// Why a result ranked where it did, in one line:
    /// `prefix "hel" of Helsinki · population 558,457 (importance 19.1) · tier 2 · score 19.1`.
    static func explanationLine(_ e: MatchExplanation, placeName: String) -> String {
        let name = switch e.nameKind {
        case .name: e.matchedName
        case .alternate: "alternate name \(e.matchedName)"
        case .innerWord: "word \"\(e.matchedName)\" of \(placeName)"
        }
        let match = switch e.match {
        case .exact: e.nameKind == .name ? "exact name \(name)" : "exact \(name)"
        case .prefix: "prefix \"\(e.text)\" of \(name)"
        case .typo: "typo \"\(e.text)\" for \(name) (\(e.edit ?? "?"))"
        }
        var parts = [match]
        let bonus = e.kindBonus > 0 ? String(format: ", +%.1f as a %@", e.kindBonus, e.rowKind.rawValue) : ""
        parts.append("population \(grouped(e.population)) (importance \(String(format: "%.1f", e.importance))\(bonus))")
        if e.nameTerm != 0 {
            // Past an inner word's 8, the term holds the demotion of alternate names in short text.
            let why = e.nameTerm < -8 ? " (own names first for short text)" : ""
            parts.append("\(e.nameKind == .innerWord ? "inner word" : "alternate name") \(String(format: "%.1f", e.nameTerm))\(why)")
        }
        if let meters = e.distanceMeters, let term = e.distanceTerm {
            let away = meters < 1000 ? String(format: "%.0f m", meters) : "\(grouped(Int((meters / 1000).rounded()))) km"
            parts.append("\(away) away \(String(format: "%.1f", term))")
        }
        parts.append("tier \(e.tier)")
        parts.append("score \(String(format: "%.1f", e.score))")
        return parts.joined(separator: " · ")
    }

    /// A whole number with thousands separators: 558,457.
    static func grouped(_ n: Int) -> String {
        var digits = String(n.magnitude), out = ""
        while digits.count > 3 { out = "," + digits.suffix(3) + out; digits.removeLast(3) }
        return (n < 0 ? "-" : "") + digits + out
    }

    static func formatDistance(_ meters: Double) -> String {
        meters < 1000 ? String(format: "%.0f m", meters) : String(format: "%.2f km", meters / 1000)
    }
}

/// Runs a command body, turning Pindrop's errors into one line on stderr and the exit code their kind names.
/// An import names the store it is `keeping`: a failed import leaves it as it was, and the line says so.
func reportingErrors<T>(keeping store: StoreLocation? = nil, _ body: () async throws -> T) async throws -> T {
    do {
        return try await body()
    } catch let error as PindropError {
        // Only a store that exists is kept as it was: where none was yet, there is nothing to speak of.
        let kept = store.flatMap { $0.database != nil || FileManager.default.fileExists(atPath: $0.path) ? $0 : nil }
        Terminal.note("error: \(error.message)" + (kept.map { "; \($0) is unchanged" } ?? ""))
        throw ExitCode(error.exitCode)
    }
}
