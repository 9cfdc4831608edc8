import Foundation
import Hummingbird
import PindropCore

/// HTTP methods as a careful server answers them: HEAD wherever GET is (the GET's status and headers, no
/// body), and a method the path does not take is a 405 with `Allow` listing those it does (the API's methods
/// come from the OpenAPI document, so the two cannot disagree; everything else is the web app's files: GET and
/// HEAD). An API path no route has stays a 404 further down.
///
/// It wraps the router's responder rather than sitting among its middleware, because the router picks the
/// route by method before any middleware runs.
struct MethodResponder<Inner: HTTPResponder>: HTTPResponder where Inner.Context: RequestContext {
    typealias Context = Inner.Context
    let inner: Inner
    /// Documented API paths, split at "/", with "{…}" parts matching any rest of the path, and their methods.
    let routes: [(parts: [Substring], methods: [String])]

    /// The routes of an OpenAPI document's `paths` (plus the document itself).
    init(_ inner: Inner, openAPI: [UInt8]) {
        self.inner = inner
        let paths = ((try? JSONSerialization.jsonObject(with: Data(openAPI))) as? [String: Any])?["paths"] as? [String: [String: Any]] ?? [:]
        routes = paths.map { path, operations in
            (path.split(separator: "/"), operations.keys.map { $0.uppercased() }.sorted())
        } + [(["openapi.json"], ["GET"])]
    }

    @Sendable func respond(to request: Request, context: Context) async throws -> Response {
        let methods = allowedMethods(for: request.uri.path)
        let method = request.method == .head ? "GET" : request.method.rawValue
        guard methods.contains(method) else {
            var response = JSONErrorMiddleware<Context>.response(.methodNotAllowed(
                "\(request.method.rawValue) is not allowed on \(request.uri.path.prefix(200)); allowed: \(Self.allowHeader(methods))"))
            response.headers[.allow] = Self.allowHeader(methods)
            return response
        }
        guard request.method == .head else { return try await inner.respond(to: request, context: context) }
        var head = request.head
        head.method = .get
        var response = try await inner.respond(to: Request(head: head, body: request.body), context: context)
        response.body = ResponseBody()
        return response
    }

    /// The methods a path takes: a documented API path's own; any method for another `/v1` path (it is a 404
    /// below); the web app's GET for the rest.
    func allowedMethods(for path: String) -> [String] {
        let parts = path.split(separator: "/")
        for route in routes where Self.matches(route.parts, parts) { return route.methods }
        return parts.first == "v1" ? ["GET", "PUT", "POST", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT"] : ["GET"]
    }

    /// Whether `parts` fit the template: literal parts equal, a "{…}" part takes the rest (ids may hold "/").
    static func matches(_ template: [Substring], _ parts: [Substring]) -> Bool {
        for (index, piece) in template.enumerated() {
            if piece.hasPrefix("{") { return parts.count > index }
            guard index < parts.count, parts[index] == piece else { return false }
        }
        return parts.count == template.count
    }

    /// "GET, HEAD, PUT": the methods with HEAD beside GET.
    static func allowHeader(_ methods: [String]) -> String {
        methods.flatMap { $0 == "GET" ? ["GET", "HEAD"] : [$0] }.joined(separator: ", ")
    }
}
