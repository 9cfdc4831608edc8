import ArgumentParser
import Foundation
import PindropCore
import PindropIndex
import PindropProviders

/// `--provider NAME` on the query commands, and the registry that answers through it.
struct ProviderOptions: ParsableArguments {
    @Option(help: """
        Ask this provider first: embedded, nominatim, photon, google, mapbox or foursquare (see `pindrop providers`). \
        When it fails, the default chain answers and the answer is marked as a fallback.
        """)
    var provider: String?

    /// Whether the question goes through the provider registry: a provider was named, or the environment sets the
    /// chain of `capability` (`PINDROP_SEARCH_PROVIDERS`...). Otherwise the embedded index answers directly.
    func usesRegistry(for capability: ProviderCapability) -> Bool {
        provider != nil || ProcessInfo.processInfo.environment[ProviderSetup.chainVariable(capability)]?
            .trimmingCharacters(in: .whitespaces).isEmpty == false
    }

    /// The named provider, trimmed and lower-cased; nil for none.
    var providerName: String? {
        guard let name = provider?.trimmingCharacters(in: .whitespaces).lowercased(), !name.isEmpty else { return nil }
        return name
    }

    /// Refuses `--provider` with `--batch`, which answers from the embedded index line by line.
    func validate(batch: Bool) throws(PindropError) {
        if batch, provider != nil { throw .invalidInput("--batch answers from the embedded index; leave out --provider") }
    }
}

/// The provider registry for this environment, with `index` as the provider "embedded" (nil: listed as unavailable).
func providerRegistry(index: PlaceIndex?) async throws -> ProviderRegistry {
    var embedded: EmbeddedProvider?
    if let index { embedded = EmbeddedProvider(store: index, attribution: index.attribution) }
    return try ProviderSetup.registry(environment: ProcessInfo.processInfo.environment, embedded: embedded)
}

/// Prints a provider chain's answer: `--json` / `--geojson` with `provider`, `fallback` and `failures`; as a table,
/// the results, then who answered and their attribution, with each failure before a fallback as a note on stderr.
func printAnswer(_ answer: ProviderAnswer, query: [(String, QueryValue)], output: OutputOptions, registry: ProviderRegistry) {
    if let format = output.format {
        var bytes = WireEncoding.document(query: query, answer: answer, format: format).bytes
        bytes.append(0x0A)
        Terminal.write(bytes)
        return
    }
    for failure in answer.failures {
        Terminal.note("\(failure.provider) failed: \(failure.error.message)")
    }
    Terminal.printTable(answer.results)
    let description = registry.descriptions.first { $0.name == answer.provider }
    var line = "answered by \(description?.displayName ?? answer.provider)"
    if answer.isFallback { line += " (fallback)" }
    if answer.fromCache { line += " (cached)" }
    if let attribution = description?.attribution, !attribution.isEmpty { line += " · \(attribution)" }
    print(line)
}

/// `reportingErrors` for work that awaits (a remote provider): one line on stderr and a non-zero exit.
func reportingErrors<T>(awaiting body: () async throws -> T) async throws -> T {
    do {
        return try await body()
    } catch let error as PindropError {
        Terminal.note("error: \(error.message)")
        throw ExitCode(error.code == "invalid_input" ? 64 : 1)
    }
}

/// `pindrop providers`: every provider, whether it is configured (and why not), what it answers, and who
/// answers each capability by default.
struct ProvidersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "providers",
        abstract: "List the place providers, whether each is configured, and who answers each question by default.",
        discussion: """
            Remote providers are configured from the environment: PINDROP_<NAME>_URL, PINDROP_<NAME>_API_KEY \
            (Google, Mapbox, Foursquare), the chains PINDROP_SEARCH_PROVIDERS, PINDROP_SUGGEST_PROVIDERS, \
            PINDROP_REVERSE_PROVIDERS, PINDROP_NEARBY_PROVIDERS ("photon,embedded"), PINDROP_PROVIDER_TIMEOUT and \
            PINDROP_USER_AGENT. See docs/providers.md.
            """)

    @Flag(help: "Print one JSON object: `providers` and the default `chains`.")
    var json = false
    @OptionGroup var indexOptions: IndexOptions

    func run() async throws {
        try await reportingErrors(awaiting: {
            let registry = try await providerRegistry(index: try? indexOptions.openIndex())
            if json {
                var bytes = WireEncoding.providersDocument(registry).bytes
                bytes.append(0x0A)
                Terminal.write(bytes)
            } else {
                print(Self.table(registry))
            }
        })
    }

    /// The human-readable listing.
    static func table(_ registry: ProviderRegistry) -> String {
        var rows = [["provider", "name", "configured", "answers", "default for"]]
        for d in registry.descriptions {
            let defaultFor = ProviderCapability.allCases.filter { registry.chains[$0]?.first == d.name }
            rows.append([d.name, d.displayName, d.unavailableReason.map { "no: \($0)" } ?? "yes",
                         d.capabilities.map(\.rawValue).joined(separator: ", "),
                         defaultFor.isEmpty ? "-" : defaultFor.map(\.rawValue).joined(separator: ", ")])
        }
        let widths = (0..<rows[0].count).map { c in rows.map { $0[c].count }.max() ?? 0 }
        var lines = rows.map { row in
            row.enumerated().map { c, cell in cell.padding(toLength: widths[c], withPad: " ", startingAt: 0) }
                .joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }
        lines.append("")
        lines.append("Default chains (the next answers when one fails):")
        for capability in ProviderCapability.allCases {
            let chain = registry.chains[capability] ?? []
            lines.append("  \(capability.rawValue): \(chain.isEmpty ? "none configured" : chain.joined(separator: " → "))")
        }
        return lines.joined(separator: "\n")
    }
}
