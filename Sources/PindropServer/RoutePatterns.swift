import Foundation

/// The server's routes as patterns ("/v1/saved/{id}"), each with its methods: the documented API paths of the
/// OpenAPI document, the document itself, the operations endpoints, and two catch-alls, so a request's pattern is
/// always one of a short fixed list. `MethodResponder` answers 405 from it, and the metrics and the access log
/// name requests by it (never by their path, which holds ids and query text, and would make labels unbounded).
struct RoutePatterns: Sendable {
    /// A pattern and the methods it takes.
    struct Route: Sendable {
        let pattern: String
        let parts: [Substring]
        let methods: [String]
    }

    /// Every pattern; a request's route is an index into it.
    let routes: [Route]
    /// Patterns without a "{…}" part, by their path, for the common case of one hash lookup.
    private let literal: [String: Int]
    /// `/v1/…` that no route has (a 404 below).
    let unknownAPI: Int
    /// Anything else: the web app's files.
    let webApp: Int

    /// The patterns of an OpenAPI document's `paths`, plus the document and the operations endpoints.
    init(openAPI: [UInt8]) {
        let paths = ((try? JSONSerialization.jsonObject(with: Data(openAPI))) as? [String: Any])?["paths"] as? [String: [String: Any]] ?? [:]
        var routes = paths.sorted { $0.key < $1.key }.map { path, operations in
            Route(pattern: path, parts: path.split(separator: "/"), methods: operations.keys.map { $0.uppercased() }.sorted())
        }
        for path in ["/openapi.json", "/metrics", "/healthz", "/readyz"] {
            routes.append(Route(pattern: path, parts: path.split(separator: "/"), methods: ["GET"]))
        }
        unknownAPI = routes.count
        routes.append(Route(pattern: "/v1/{unknown}", parts: [], methods: ["GET", "PUT", "POST", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT"]))
        webApp = routes.count
        routes.append(Route(pattern: "/{file}", parts: [], methods: ["GET"]))
        self.routes = routes
        var literal: [String: Int] = [:]
        for (index, route) in routes.enumerated() where !route.pattern.contains("{") { literal[route.pattern] = index }
        self.literal = literal
    }

    /// The route of a request path (without its query).
    func route(of path: String) -> Int {
        if let index = literal[path] { return index }
        let parts = path.split(separator: "/")
        for (index, route) in routes.enumerated() where !route.parts.isEmpty && Self.matches(route.parts, parts) { return index }
        return parts.first == "v1" ? unknownAPI : webApp
    }

    /// Whether `parts` fit the template: literal parts equal, a "{…}" part takes the rest (ids may hold "/").
    static func matches(_ template: [Substring], _ parts: [Substring]) -> Bool {
        for (index, piece) in template.enumerated() {
            if piece.hasPrefix("{") { return parts.count > index }
            guard index < parts.count, parts[index] == piece else { return false }
        }
        return parts.count == template.count
    }
}
