import Foundation
import HTTPTypes
import Hummingbird
import NIOConcurrencyHelpers
import NIOCore
import PindropCore

/// HTTP/1.1's `Host` as a plain field name (HTTPTypes has no constant for it: it is the authority).
private let hostField = HTTPField.Name("Host")!

/// The request context every route sees: Hummingbird's basic one plus the client's address (for the write limit).
public struct PindropRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The connected client's address; nil when there is no socket (in-process tests).
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}

/// What the server checks of every request before any route, for a server that web pages can reach:
/// - the path, decoded, holds no NUL or control character and no `..` segment (400), so no file outside the web
///   folder and no `app.js%00.html` trick;
/// - the `Host` is one the server answers to (403), so a DNS-rebinding page cannot read the user's saved places
///   (`/healthz` and `/readyz` aside: load balancers and Kubernetes probe by address);
/// - a write (PUT, POST, DELETE) from a page of another origin is refused unless CORS allows that origin (403);
/// - a write's body is JSON (415), so a form or `text/plain` post cannot be forged without a preflight;
/// - writes per client address are rate-limited (429 with `Retry-After`);
/// - CORS is off unless origins are configured; then their preflights are answered (allowing `Content-Type` and
///   `Authorization`, for a user's bearer token) and answers carry the header.
struct RequestScreen<Inner: HTTPResponder>: HTTPResponder where Inner.Context: RemoteAddressRequestContext {
    typealias Context = Inner.Context
    let inner: Inner
    /// Lower-case host names and addresses served; nil for any.
    let allowedHosts: Set<String>?
    let corsOrigins: Set<String>
    let writeLimit: WriteRateLimiter?

    init(_ inner: Inner, configuration: ServerConfiguration) {
        self.inner = inner
        let hosts = configuration.effectiveAllowedHosts
        allowedHosts = hosts.contains("*") ? nil : Set(hosts.map { $0.lowercased() })
        corsOrigins = Set(configuration.corsOrigins)
        writeLimit = configuration.writesPerMinute > 0 ? WriteRateLimiter(perMinute: configuration.writesPerMinute) : nil
    }

    @Sendable func respond(to request: Request, context: Context) async throws -> Response {
        let origin = request.headers[.origin]
        let crossOriginAllowed = origin.map { corsOrigins.contains("*") || corsOrigins.contains($0) } ?? false
        do throws(PindropError) {
            try checkPath(request.uri.path)
            // HTTP/1.1's Host arrives as the authority; a request built in-process may carry it as a plain field.
            let authority = request.headers[hostField] ?? request.head.authority
            // Probes name the server by whatever address they reach it at, and health tells nothing private.
            let path = request.uri.path
            if path != "/healthz" && path != "/readyz" { try checkHost(authority) }
            if request.method == .options, origin != nil, request.headers[.accessControlRequestMethod] != nil {
                guard crossOriginAllowed else { throw .forbidden("cross-origin requests are not allowed from \(origin!.prefix(100))") }
                return preflight(origin!)
            }
            if [.put, .post, .delete, .patch].contains(request.method) {
                if let origin, !crossOriginAllowed, !Self.isSameOrigin(origin, authority: authority) {
                    throw .forbidden("writes from another web site (\(origin.prefix(100))) are refused")
                }
                try checkJSONBody(request)
                try writeLimit?.admit(context.remoteAddress?.ipAddress ?? "local")
            }
        } catch {
            return JSONErrorMiddleware<Context>.response(error)
        }
        var response = try await inner.respond(to: request, context: context)
        if crossOriginAllowed, let origin {
            response.headers[.accessControlAllowOrigin] = corsOrigins.contains("*") ? "*" : origin
            response.headers[.vary] = "Origin"
        }
        return response
    }

    private func checkPath(_ path: String) throws(PindropError) {
        // Most paths hold no escape and no "..": nothing to decode or look for (the HTTP parser already refuses
        // raw control characters). Looked for in the bytes: `String.contains` of a string goes through Foundation.
        let dot = UInt8(ascii: ".")
        guard path.utf8.contains(UInt8(ascii: "%")) || zip(path.utf8, path.utf8.dropFirst()).contains(where: { $0 == dot && $1 == dot }) else { return }
        guard let decoded = path.removingPercentEncoding else { throw .invalidInput("the path is not valid percent-encoded UTF-8") }
        guard !decoded.unicodeScalars.contains(where: QueryParameters.isControl) else {
            throw .invalidInput("the path holds a control character")
        }
        guard !decoded.split(separator: "/").contains("..") else { throw .invalidInput("the path may not go up with \"..\"") }
    }

    private func checkHost(_ authority: String?) throws(PindropError) {
        guard let allowedHosts, let authority else { return }
        // The common case, checked without building strings: the loopback address the server listens on.
        if allowedHosts.contains("localhost"), authority.utf8.starts(with: "127.0.0.1".utf8),
           authority.utf8.count == 9 || authority.utf8.dropFirst(9).first == UInt8(ascii: ":") { return }
        let host = Self.hostName(authority)
        guard allowedHosts.contains(host) || Self.isLoopback(host) && allowedHosts.contains("localhost") else {
            throw .forbidden("this server does not answer to the host name \"\(host.prefix(100))\"; start it with --allowed-host to add one")
        }
    }

    private func checkJSONBody(_ request: Request) throws(PindropError) {
        let length = request.headers[.contentLength].flatMap { Int($0) } ?? (request.headers[.transferEncoding] == nil ? 0 : 1)
        guard length > 0 else { return }
        let type = request.headers[.contentType]?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        guard type == "application/json" || type.hasSuffix("+json") else {
            throw .unsupportedMediaType("the request body must be JSON (Content-Type: application/json), not \"\(type.prefix(60))\"")
        }
    }

    private func preflight(_ origin: String) -> Response {
        Response(status: .noContent, headers: [
            .accessControlAllowOrigin: corsOrigins.contains("*") ? "*" : origin,
            .accessControlAllowMethods: "GET, HEAD, PUT, POST, DELETE",
            .accessControlAllowHeaders: "Content-Type, Authorization",
            .accessControlMaxAge: "600",
            .vary: "Origin",
        ])
    }

    /// "example.com" of "Example.COM:8080", "::1" of "[::1]:8080".
    static func hostName(_ authority: String) -> String {
        var host = Substring(authority.lowercased())
        if host.hasPrefix("["), let close = host.firstIndex(of: "]") {
            host = host[host.index(after: host.startIndex)..<close]
        } else if let colon = host.firstIndex(of: ":"), host.lastIndex(of: ":") == colon {
            host = host[..<colon]
        }
        return String(host.hasSuffix(".") ? host.dropLast() : host)
    }

    /// localhost, *.localhost, 127.0.0.0/8 and ::1.
    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host.hasSuffix(".localhost") || host == "::1"
            || (host.hasPrefix("127.") && host.split(separator: ".").count == 4 && host.split(separator: ".").allSatisfy { UInt8($0) != nil })
    }

    /// Whether `Origin` names the server the request came to (scheme aside).
    static func isSameOrigin(_ origin: String, authority: String?) -> Bool {
        guard let authority, let url = URL(string: origin), let host = url.host else { return false }
        let originAuthority = url.port.map { "\(host):\($0)" } ?? host
        return originAuthority.lowercased() == authority.lowercased()
    }
}

/// A token bucket per client address: `perMinute` writes a minute, in bursts of a tenth of that.
final class WriteRateLimiter: Sendable {
    let perSecond: Double
    let burst: Double
    private let buckets = NIOLockedValueBox([String: (tokens: Double, at: ContinuousClock.Instant)]())

    init(perMinute: Int) {
        perSecond = Double(perMinute) / 60
        burst = max(1, Double(perMinute) / 10)
    }

    /// Takes one write for `client`, or throws `.tooManyRequests` with the seconds until one is free.
    func admit(_ client: String) throws(PindropError) {
        let now = ContinuousClock.now
        let wait: Double? = buckets.withLockedValue { buckets in
            // A full bucket says nothing; forget them when many addresses have written.
            if buckets.count > 10_000 { buckets = buckets.filter { $0.value.tokens + (now - $0.value.at).seconds * perSecond < burst } }
            var bucket = buckets[client] ?? (burst, now)
            bucket.tokens = min(burst, bucket.tokens + (now - bucket.at).seconds * perSecond)
            bucket.at = now
            defer { buckets[client] = bucket }
            guard bucket.tokens >= 1 else { return (1 - bucket.tokens) / perSecond }
            bucket.tokens -= 1
            return nil
        }
        if let wait {
            throw .tooManyRequests("more than \(Int(perSecond * 60)) changes a minute from this address; try again shortly",
                                   retryAfter: max(1, Int(wait.rounded(.up))))
        }
    }
}

extension Duration {
    /// The duration in seconds, as a Double.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
