import Hummingbird
import PindropCore

/// `GET /v1/providers`: every provider (configured or not, with why not), what each answers, its attribution,
/// and the default chain of each capability. Keys never appear: only the names of the variables that hold them.
struct ProvidersController<Context: RequestContext>: Sendable {
    let providers: ProviderRegistry

    func addRoutes(to group: RouterGroup<Context>) {
        group.get("providers", use: list)
    }

    @Sendable func list(_ request: Request, context: Context) async throws -> Response {
        Responses.json(WireEncoding.providersDocument(providers))
    }
}

extension ProviderRegistry {
    /// A registry where `store` alone answers every capability, as the provider "embedded": what the server
    /// uses when it is given no registry (tests, embedders).
    static func embeddedOnly(_ store: any Geocoder) -> ProviderRegistry {
        let embedded = EmbeddedProvider(store: store, attribution: [])
        let chains = Dictionary(uniqueKeysWithValues: ProviderCapability.allCases.map { ($0, [embedded.name]) })
        // Cannot fail: one provider, and every chain names it for capabilities it has.
        return try! ProviderRegistry(providers: [embedded], chains: chains)
    }
}
