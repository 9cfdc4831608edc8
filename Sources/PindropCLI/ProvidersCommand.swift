import ArgumentParser
import Foundation
import PindropCore
import PindropImport
import PindropProviders

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
    @OptionGroup var store: StoreOptions

    func run() async throws {
        try await reportingErrors {
            // Listed without a store when none can be opened: the store then shows as unavailable.
            let service = try ProviderSetup.service(store: try? await store.location.open())
            if json { Terminal.write(WireEncoding.providersDocument(service)) } else { Self.printTable(service) }
        }
    }

    /// The human-readable listing.
    static func printTable(_ service: PlaceService) {
        var rows = [["provider", "name", "configured", "answers", "default for"]]
        for d in service.descriptions {
            let defaultFor = ProviderCapability.allCases.filter { service.chains[$0]?.first == d.name }
            rows.append([d.name, d.displayName, d.unavailableReason.map { "no: \($0)" } ?? "yes",
                         d.capabilities.map(\.rawValue).joined(separator: ", "),
                         defaultFor.isEmpty ? "-" : defaultFor.map(\.rawValue).joined(separator: ", ")])
        }
        Terminal.printColumns(rows)
        print("")
        print("Default chains (the next answers when one fails):")
        for capability in ProviderCapability.allCases {
            let chain = service.chains[capability] ?? []
            print("  \(capability.rawValue): \(chain.isEmpty ? "none configured" : chain.joined(separator: " → "))")
        }
    }
}

/// `pindrop status`: what the store holds, where, the credits its data needs, and what its updates rely on.
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show what the store holds: its kind, place count, location, data credits and the extract updates apply to.")

    @Flag(help: "Print one JSON object, as GET /v1/status answers.")
    var json = false
    @OptionGroup var store: StoreOptions

    func run() async throws {
        try await reportingErrors {
            let location = try store.location
            let status = try await PlaceService(store: try await location.open()).status()
            if json { return Terminal.write(WireEncoding.statusDocument(status)) }
            print("store: \(status.name)\nplaces: \(status.placeCount)\nlocation: \(status.location)")
            if let updated = status.dataUpdated { print("data: \(WireEncoding.isoDate(updated))") }
            if let sequence = status.replicationSequence { print("replication sequence: \(sequence)") }
            for credit in status.attribution { print("credit: \(credit)") }
            Self.printUpdates(location.updateFolder)
        }
    }

    /// The extract updates lay their changes over (the operator must keep it, until a fold makes one of the folder's
    /// own) and how much is recorded against the fold's bound; nothing when the store holds no extract to update.
    private static func printUpdates(_ folder: OSMUpdateFolder) {
        guard FileManager.default.fileExists(atPath: folder.path) else { return }
        do {
            let extracts = try folder.extracts()
            print("osm extract: \(extracts.joined(separator: ", "))")
            print("changes recorded: \(folder.recordedBytes / 1024) KB (folded into the extract past"
                  + " \(OSMUpdater.foldBound(extracts) / 1024) KB)")
        } catch {
            print("osm extract: \((error as? PindropError)?.message ?? "\(error)")")
        }
    }
}
