import Dispatch
import HTTPTypes
import Hummingbird
import PindropCore
import Synchronization

/// `X-Request-Id`, the request's id in answers and log lines.
let requestIDField = HTTPField.Name("X-Request-Id")!

/// `X-Content-Type-Options`, `nosniff` on every answer: a browser takes each as the type it says (an answer
/// echoing the request as JSON is never read as HTML or script).
let contentTypeOptionsField = HTTPField.Name("X-Content-Type-Options")!

/// The outermost responder: gives every request an id (a proxy's well-formed `X-Request-Id`, else a new one) and
/// sends it back in `X-Request-Id` (with `X-Content-Type-Options: nosniff`), then counts the answer in the metrics and writes one access-log line. It sits
/// outside the request screen, so refusals (403, 405, 429) are counted and logged too. Requests are named by their
/// route pattern, never by their path or query: a query's text or a token never reaches a log or a label.
struct RequestObserver<Inner: HTTPResponder>: HTTPResponder where Inner.Context: RequestContext {
    typealias Context = Inner.Context
    let inner: Inner
    let routes: RoutePatterns
    let metrics: ServerMetrics?
    let accessLog: AccessLog?

    @Sendable func respond(to request: Request, context: Context) async throws -> Response {
        let start = DispatchTime.now().uptimeNanoseconds
        let id = RequestID.accepted(request.headers[requestIDField]) ?? RequestID.next()
        var response: Response
        do {
            response = try await inner.respond(to: request, context: context)
        } catch {
            // What the server below answers for it (the connection's own errors close it without an answer).
            record(request, status: JSONErrorMiddleware<Context>.pindropError(error).httpStatus, bytes: 0, id: id, start: start)
            throw error
        }
        response.headers[requestIDField] = id
        response.headers[contentTypeOptionsField] = "nosniff"
        record(request, status: Int(response.status.code), bytes: response.body.contentLength ?? 0, id: id, start: start)
        return response
    }

    private func record(_ request: Request, status: Int, bytes: Int, id: String, start: UInt64) {
        let elapsed = DispatchTime.now().uptimeNanoseconds &- start
        let route = routes.route(of: request.uri.path)
        let pattern = routes.routes[route].pattern
        let method = request.method.rawValue
        metrics?.recordRequest(route: route, pattern: pattern, method: method, status: status, nanoseconds: elapsed)
        accessLog?.write(method: method, route: pattern, status: status, nanoseconds: elapsed, bytes: bytes, id: id)
    }
}

/// Request ids: 16 hex digits, a random half per process and a counting half, so ids from several servers behind
/// one proxy do not collide and an id is cheap to make.
enum RequestID {
    private static let prefix = String(UInt32.random(in: .min ... .max), radix: 16).leftPadded(to: 8)
    private static let counter = Atomic<UInt32>(0)

    /// A new id.
    static func next() -> String {
        let n = counter.wrappingAdd(1, ordering: .relaxed).newValue
        return prefix + String(n, radix: 16).leftPadded(to: 8)
    }

    /// A client's or proxy's id when it is 1 to 64 of letters, digits, "-", "_" and "."; nil otherwise (a new one
    /// is made), so a log line never carries what a client chose to put there.
    static func accepted(_ value: String?) -> String? {
        guard let value, (1...64).contains(value.utf8.count) else { return nil }
        let plain = value.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
        }
        return plain ? value : nil
    }
}

extension String {
    /// The string with "0"s in front up to `width` characters.
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
