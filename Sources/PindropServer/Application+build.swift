import Foundation
import Hummingbird
import Logging
import PindropCore

/// Builds the whole server (routes, middleware, static files) without running it, so tests can drive it
/// in-process and the CLI can run it. `onServerRunning` gets the bound port (useful with port 0).
public func buildApplication(configuration: ServerConfiguration, services: ServerServices,
                             onServerRunning: @escaping @Sendable (_ port: Int) async -> Void = { _ in })
    -> some ApplicationProtocol {
    Application(
        responder: RequestScreen(MethodResponder(buildRouter(configuration: configuration, services: services).buildResponder(),
                                                 openAPI: openAPIDocument), configuration: configuration),
        server: GuardedHTTP1Channel.builder(configuration),
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "Pindrop"),
        onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? configuration.port) }
    )
}

/// Every route of the HTTP API v1, the OpenAPI document and the web app, behind one JSON error middleware.
public func buildRouter(configuration: ServerConfiguration, services: ServerServices) -> Router<PindropRequestContext> {
    let router = Router(context: PindropRequestContext.self)
    var quietLogger = Logger(label: "Pindrop.files")
    quietLogger.logLevel = .warning
    router.add(middleware: JSONErrorMiddleware())
    router.add(middleware: FileMiddleware(
        configuration.publicDirectory ?? publicResourcesPath(),
        cacheControl: CacheControl([(MediaType(type: .any), [.noCache])]),
        searchForIndexHtml: true, logger: quietLogger))
    if configuration.leafletURL == nil {
        router.add(middleware: FileMiddleware(
            configuration.leafletDirectory, urlBasePath: "/vendor/leaflet",
            cacheControl: CacheControl([(MediaType(type: .any), [.maxAge(3600)])]), logger: quietLogger))
    }

    let v1 = router.group("v1")
    PlacesController<PindropRequestContext>(places: services.places, suggestMinChars: configuration.suggestMinChars)
        .addRoutes(to: v1)
    UserDataController<PindropRequestContext>(places: services.places, users: services.users, requireToken: configuration.requireToken,
                                              maxBodyBytes: configuration.maxBodyBytes, maxSaved: configuration.maxSavedPlaces)
        .addRoutes(to: v1)
    StreetMapController<PindropRequestContext>(places: services.places).addRoutes(to: v1)
    MusicController<PindropRequestContext>(music: services.music).addRoutes(to: v1)
    BasemapController<PindropRequestContext>(coastline: services.coastline).addRoutes(to: v1)
    WebAppController<PindropRequestContext>(configuration: configuration, coastline: services.coastline != nil).addRoutes(to: router)
    let openAPI = ByteBuffer(bytes: openAPIDocument(for: services.places))
    router.get("openapi.json") { _, _ in
        Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: openAPI))
    }
    return router
}

/// The OpenAPI 3.1 description of the HTTP API (the `openapi.json` resource). A test holds it against the
/// router's routes, and schemathesis against real answers.
let openAPIDocument: [UInt8] = {
    guard let url = Bundle.module.url(forResource: "openapi", withExtension: "json"), let data = try? Data(contentsOf: url) else {
        fatalError("the openapi.json resource is missing from the build")
    }
    return [UInt8](data)
}()

/// The OpenAPI document as this server enforces it: each operation's `provider` lists the providers it may name
/// here (configured ones that answer that kind of request), so the document and the 400s agree.
func openAPIDocument(for places: PlaceService) -> [UInt8] {
    guard var document = (try? JSONSerialization.jsonObject(with: Data(openAPIDocument))) as? [String: Any],
          var paths = document["paths"] as? [String: Any],
          let provider = ((document["components"] as? [String: Any])?["parameters"] as? [String: Any])?["provider"] as? [String: Any]
    else { return openAPIDocument }
    let reference = "#/components/parameters/provider"
    for capability in ProviderCapability.allCases {
        let path = "/v1/\(capability.rawValue)"
        guard var operations = paths[path] as? [String: Any], var get = operations["get"] as? [String: Any],
              let parameters = get["parameters"] as? [[String: Any]] else { continue }
        var own = provider
        own["schema"] = ["type": "string", "enum": [""] + places.providerNames(for: capability)]
        get["parameters"] = parameters.map { ($0["$ref"] as? String) == reference ? own : $0 }
        operations["get"] = get
        paths[path] = operations
    }
    document["paths"] = paths
    let data = try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys, .withoutEscapingSlashes])
    return data.map { [UInt8]($0) } ?? openAPIDocument
}

/// The built-in web app folder (the `Public` resource).
func publicResourcesPath() -> String {
    Bundle.module.url(forResource: "Public", withExtension: nil)?.path ?? Bundle.module.bundlePath + "/Public"
}
