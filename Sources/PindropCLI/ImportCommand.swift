import ArgumentParser
import Foundation
import PindropCore
import PindropImport

struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Build the index from downloaded open data.",
        subcommands: [ImportGeoNamesCommand.self, ImportOSMCommand.self])
}

struct ImportGeoNamesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "geonames",
        abstract: "Import a GeoNames dump (cities500.txt ... allCountries.txt, plain or .gz) with admin1CodesASCII.txt and countryInfo.txt from beside it.")

    @Argument(help: "A GeoNames dump file, or a folder holding one.")
    var source: String
    @OptionGroup var store: StoreOptions

    func run() async throws {
        let location = try await reportingErrors { try store.location }
        try await reportingErrors(keeping: location) {
            let lock = try ImportLock.forImport(into: location)
            defer { withExtendedLifetime(lock) {} }
            let files = try GeoNamesReader.locate(source)
            Terminal.note("importing \(files.places)" + (files.admin1Codes == nil ? " (no admin1CodesASCII.txt beside it)" : ""))
            let bytes = FileManager.default.fileSize(atPath: files.places)
            let report = try await location.writer.importGeoNames(files, streets: nil, progress: Terminal.progressBar(inputBytes: bytes))
            location.updateFolder.discard()
            for skipped in report.summary.skipped.prefix(20) { Terminal.note("skipped \(skipped)") }
            if report.summary.skipped.count > 20 { Terminal.note("... and \(report.summary.skipped.count - 20) more skipped lines") }
            print("read \(report.summary.rowsRead) rows, imported \(report.summary.rowsImported), skipped \(report.summary.rowsRead - report.summary.rowsImported)"
                  + "; \(report.nameEntries) names indexed in \(String(format: "%.1f", report.seconds)) s"
                  + "; \(location) (\(report.storeBytes / 1_048_576) MB)")
        }
    }
}

struct ImportOSMCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "osm",
        abstract: "Add an OpenStreetMap extract (.osm.pbf) to an index: street addresses, streets and venues (replacing any earlier extract).")

    @Argument(help: "OpenStreetMap PBF files.")
    var files: [String]
    @Flag(help: "Import even when the files hold no street-level data, leaving the store without any.")
    var allowEmpty = false
    @OptionGroup var store: StoreOptions

    func run() async throws {
        let location = try await reportingErrors { try store.location }
        try await reportingErrors(keeping: location) {
            guard !files.isEmpty else { throw PindropError.invalidInput("give at least one .osm.pbf file") }
            let lock = try ImportLock.forImport(into: location)
            defer { withExtendedLifetime(lock) {} }
            // The street level sits on GeoNames places: on first use, build the default store first.
            try await location.buildDefaultIfMissing()
            let report = try await location.writer.importStreets(OSMExtracts(files: files, allowsEmpty: allowEmpty), progress: Terminal.progressBar())
            // Updates lay their changes over these files from now on.
            try location.updateFolder.start(extracts: files)
            print("imported \(report.venues) venues, \(report.addresses) addresses, \(report.streets) streets, \(report.areas) areas"
                  + " in \(String(format: "%.2f", report.seconds)) s; \(location) (\(report.storeBytes / 1_048_576) MB)")
            Self.noteSkipped(report.skippedAreas)
        }
    }

    /// Says on stderr which areas were left out and why (boundaries cut by the extract's edge, mostly).
    static func noteSkipped(_ areas: [String]) {
        guard !areas.isEmpty else { return }
        Terminal.note("left out \(areas.count) areas whose rings do not close here:")
        for line in areas.prefix(10) { Terminal.note("  " + line) }
        if areas.count > 10 { Terminal.note("  … and \(areas.count - 10) more") }
    }
}
