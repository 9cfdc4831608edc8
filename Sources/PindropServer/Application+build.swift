import Foundation
import Synchronization
import Hummingbird
import Logging
import PindropCore

/// Builds the whole server (routes, middleware, static files) without running it, so tests can drive it
/// in-process and the CLI can run it. `onServerRunning` gets the bound port (useful with port 0).
///
/// Outermost is the request observer (request id, metrics, access log), then the request screen, the method
/// check and the router.
public func buildApplication(configuration: ServerConfiguration, services: ServerServices,
                             onServerRunning: @escaping @Sendable (_ port: Int) async -> Void = { _ in })
    -> some ApplicationProtocol {
    let metrics = configuration.metrics ? services.metrics ?? ServerMetrics() : nil
    let routes = RoutePatterns(openAPI: openAPIDocument)
    metrics?.prepare(routes)
    let accessLog = configuration.accessLog && configuration.logLevel <= .info
        ? AccessLog(format: configuration.logFormat, sink: services.accessLogSink) : nil
    let router = buildRouter(configuration: configuration, services: services,
                             metrics: configuration.metricsPort == nil ? metrics : nil, engineMetrics: metrics)
    return Application(
        responder: RequestObserver(inner: RequestScreen(MethodResponder(router.buildResponder(), routes: routes), configuration: configuration),
                                   routes: routes, metrics: metrics, accessLog: accessLog),
        server: GuardedHTTP1Channel.builder(configuration),
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "Pindrop"),
        onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? configuration.port) }
    )
}

/// The server of `--metrics-port`: `/metrics` alone, on `host` and `metricsPort`, without the Host allow-list (it is
/// meant for a scraper on a private network). `metrics` must be the main application's (`ServerServices.metrics`).
public func buildMetricsApplication(configuration: ServerConfiguration, metrics: ServerMetrics, places: PlaceService,
                                    onServerRunning: @escaping @Sendable (_ port: Int) async -> Void = { _ in })
    -> some ApplicationProtocol {
    let router = Router(context: PindropRequestContext.self)
    router.add(middleware: JSONErrorMiddleware())
    addMetricsRoute(to: router, metrics: metrics, places: places)
    return Application(
        router: router,
        configuration: .init(address: .hostname(configuration.host, port: configuration.metricsPort ?? 0), serverName: "Pindrop"),
        onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? 0) }
    )
}

/// Every route of the HTTP API v1, the OpenAPI document, the health checks, the web app and (given `metrics`)
/// `/metrics`, behind one JSON error middleware. `engineMetrics` times the engine's verbs and counts user-data writes.
public func buildRouter(configuration: ServerConfiguration, services: ServerServices, metrics: ServerMetrics? = nil,
                        engineMetrics: ServerMetrics? = nil) -> Router<PindropRequestContext> {
    let router = Router(context: PindropRequestContext.self)
    router.add(middleware: JSONErrorMiddleware())
    router.add(middleware: StaticFiles(folder: configuration.publicDirectory ?? publicResourcesPath(), servesIndex: true,
                                       cacheControl: "no-cache", contentSecurityPolicy: WebAppController<PindropRequestContext>.contentSecurityPolicy(configuration)))
    if configuration.leafletURL == nil {
        router.add(middleware: StaticFiles(folder: configuration.leafletDirectory, basePath: "/vendor/leaflet", cacheControl: "max-age=3600"))
    }

    let v1 = router.group("v1")
    let heavy = HeavyRoutes()
    PlacesController<PindropRequestContext>(places: services.places, suggestMinChars: configuration.suggestMinChars,
                                            metrics: engineMetrics, heavy: heavy)
        .addRoutes(to: v1)
    UserDataController<PindropRequestContext>(places: services.places, users: services.users, requireToken: configuration.requireToken,
                                              maxBodyBytes: configuration.maxBodyBytes, maxSaved: configuration.maxSavedPlaces,
                                              metrics: engineMetrics)
        .addRoutes(to: v1)
    StreetMapController<PindropRequestContext>(places: services.places, heavy: heavy).addRoutes(to: v1)
    MusicController<PindropRequestContext>(music: services.music).addRoutes(to: v1)
    BasemapController<PindropRequestContext>(coastline: services.coastline, heavy: heavy, world: WorldBasemaps()).addRoutes(to: v1)
    WebAppController<PindropRequestContext>(configuration: configuration, coastline: services.coastline != nil, music: services.music != nil)
        .addRoutes(to: router)
    CompatAPI.addRoutes(to: router, places: services.places, metrics: engineMetrics)
    HealthController<PindropRequestContext>(places: services.places, readiness: services.readiness).addRoutes(to: router)
    if let metrics { addMetricsRoute(to: router, metrics: metrics, places: services.places) }
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
    // Each operation that takes `provider`, with the capability it asks for: /v1's, and the compatible APIs'.
    let compatible: [(String, ProviderCapability)] = [("/search", .search), ("/api", .suggest), ("/reverse", .reverse)]
    for (path, capability) in ProviderCapability.allCases.map({ ("/v1/\($0.rawValue)", $0) }) + compatible {
        guard var operations = paths[path] as? [String: Any], var get = operations["get"] as? [String: Any],
              let parameters = get["parameters"] as? [[String: Any]] else { continue }
        var own = provider
        own["schema"] = ["type": "string", "enum": [""] + places.providerNames(for: capability)]
        get["parameters"] = parameters.map { ($0["$ref"] as? String) == reference ? own : $0 }
        operations["get"] = get
        paths[path] = operations
    }
    document["paths"] = paths
    // One at a time: Foundation's writer crashed here once when many servers started at once (the tests' servers).
    let data = openAPIWriting.withLock { _ in
        try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys, .withoutEscapingSlashes])
    }
    return data.map { [UInt8]($0) } ?? openAPIDocument
}

/// Serializes the writing of `openAPIDocument(for:)`.
private let openAPIWriting = Mutex(())

/// The built-in web app folder (the `Public` resource).
func publicResourcesPath() -> String {
    Bundle.module.url(forResource: "Public", withExtension: nil)?.path ?? Bundle.module.bundlePath + "/Public"
}
