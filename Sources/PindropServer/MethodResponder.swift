import Foundation
import Hummingbird
import PindropCore

/// HTTP methods as a careful server answers them: HEAD wherever GET is (the GET's status and headers, its
/// `Content-Length` included, no body), and a method the path does not take is a 405 with `Allow` listing those it does (the API's methods
/// come from the OpenAPI document, so the two cannot disagree; everything else is the web app's files: GET and
/// HEAD). An API path no route has stays a 404 further down.
///
/// It wraps the router's responder rather than sitting among its middleware, because the router picks the
/// route by method before any middleware runs.
struct MethodResponder<Inner: HTTPResponder>: HTTPResponder where Inner.Context: RequestContext {
    typealias Context = Inner.Context
    let inner: Inner
    /// The documented API paths and the server's other routes, with their methods.
    let routes: RoutePatterns

    init(_ inner: Inner, routes: RoutePatterns) {
        self.inner = inner
        self.routes = routes
    }

    @Sendable func respond(to request: Request, context: Context) async throws -> Response {
        let methods = routes.routes[routes.route(of: request.uri.path)].methods
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
        // The GET's length, as RFC 9110 has HEAD say (emptying the body would set it to 0).
        let length = response.headers[.contentLength]
        response.body = ResponseBody()
        response.headers[.contentLength] = length
        return response
    }

    /// "GET, HEAD, PUT": the methods with HEAD beside GET.
    static func allowHeader(_ methods: [String]) -> String {
        methods.flatMap { $0 == "GET" ? ["GET", "HEAD"] : [$0] }.joined(separator: ", ")
    }
}
