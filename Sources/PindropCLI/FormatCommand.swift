import ArgumentParser
import Foundation
import PindropCore

/// `pindrop format`: an address's parts as JSON in, the address as its country writes it out, as
/// `{"formatted": "..."}` (OpenCage's templates, `AddressFormatter`). No index is needed.
struct FormatCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "format",
        abstract: "Write an address as its country does: {\"road\": \"Mannerheimintie\", \"house_number\": 16, \"postcode\": \"00100\", \"city\": \"Helsinki\", \"country_code\": \"fi\"}.",
        discussion: """
            Keys are the address templates' component names (house_number, road, neighbourhood, suburb, city, town, \
            village, county, state, postcode, country, country_code, ... and their aliases: street, province, ...); \
            a key of any other name (a place's name) is written on the line above the address. Values are text or \
            numbers. The answer is {"formatted": "..."}, its lines separated by "\\n".
            """
    )

    @Argument(help: "The parts as one JSON object (omit with --batch).")
    var json: String?
    @Flag(help: "Join the lines with \", \" instead of line breaks.")
    var singleLine = false
    @Flag(help: "Shorten common words as the country's languages do (\"Avenue\" → \"Ave\").")
    var abbreviate = false
    @OptionGroup var batch: BatchOptions

    func run() async throws {
        try await reportingErrors {
            let formatter = AddressFormatter.shared
            if batch.batch {
                guard json == nil else { throw PindropError.invalidInput("give the parts on stdin with --batch, not as an argument") }
                return try await formatter.answerBatch(singleLine: singleLine, abbreviate: abbreviate,
                                                       read: { Foundation.read(0, $0.baseAddress!, $0.count) }, write: Terminal.write)
            }
            guard let json else { throw PindropError.invalidInput("give the address parts as a JSON object, or --batch") }
            let parts = try AddressParts(json: Array(json.utf8))
            var w = JSONWriter()
            w.beginObject()
            w.key("formatted")
            w.string(formatter.format(parts, singleLine: singleLine, abbreviate: abbreviate))
            w.endObject()
            Terminal.write(w)
        }
    }
}
