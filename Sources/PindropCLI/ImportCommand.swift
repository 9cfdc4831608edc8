import ArgumentParser
import Foundation
import PindropCore
import PindropImport
import PindropIndex

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Build the index from downloaded open data.",
        subcommands: [ImportGeoNamesCommand.self, ImportOSMCommand.self])
}

struct ImportGeoNamesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "geonames",
        abstract: "Import a GeoNames dump (cities500.txt ... allCountries.txt, plain or .gz) with admin1CodesASCII.txt and countryInfo.txt from beside it.")

    @Argument(help: "A GeoNames dump file, or a folder holding one.")
    var source: String
    @Option(name: .long, help: "Where to write the index (default: the default index in $PINDROP_HOME).")
    var index: String?

    func run() throws {
        try reportingErrors {
            let files = try GeoNamesReader.locate(source)
            let target = index ?? IndexOptions.defaultPath
            Terminal.note("importing \(files.places)" + (files.admin1Codes == nil ? " (no admin1CodesASCII.txt beside it)" : "")
                          + (files.countryInfo == nil ? " (no countryInfo.txt beside it)" : ""))
            let report = try IndexBuilder.build(from: files, to: target, progress: Terminal.progressBar())
            for skipped in report.summary.skipped.prefix(20) { Terminal.note("skipped \(skipped)") }
            if report.summary.skipped.count > 20 { Terminal.note("... and \(report.summary.skipped.count - 20) more skipped lines") }
            print("read \(report.summary.rowsRead) rows, imported \(report.summary.rowsImported), skipped \(report.summary.rowsRead - report.summary.rowsImported)"
                  + "; \(report.nameEntries) names indexed in \(String(format: "%.1f", report.seconds)) s"
                  + "; index \(target) (\(report.fileBytes / 1_048_576) MB)")
        }
    }
}

struct ImportOSMCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "osm",
        abstract: "Add an OpenStreetMap extract (.osm.pbf) to an index: street addresses, streets and venues (replacing any earlier extract).")

    @Argument(help: "OpenStreetMap PBF files.")
    var files: [String]
    @Option(name: .long, help: "The index to add them to (default: the default index in $PINDROP_HOME).")
    var index: String?

    func run() throws {
        try reportingErrors {
            guard !files.isEmpty else { throw PindropError.invalidInput("give at least one .osm.pbf file") }
            let target = index ?? IndexOptions.defaultPath
            if index == nil, !FileManager.default.fileExists(atPath: target) { _ = try IndexOptions().openIndex() }
            let report = try IndexBuilder.rebuild(target, osm: files, progress: Terminal.progressBar())
            print("imported \(report.venues) venues, \(report.addresses) addresses, \(report.streets) streets"
                  + " in \(String(format: "%.2f", report.seconds)) s; index \(target) (\(report.fileBytes / 1_048_576) MB)")
        }
    }
}
