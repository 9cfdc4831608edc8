import NIOCore
import NIOHTTP1
import PindropCore

/// Right after the HTTP/1 parser, before the conversion to HTTP types loses the request line's version and all
/// but one `Host` header: what RFC 9112 asks of a request head.
/// - Two `Host` headers, or none in HTTP/1.1 (section 3.2): 400, and the connection closes (which one the
///   conversion would keep is not a choice to leave to a proxy in front).
/// - An absolute-form target (`GET http://host/path`): its authority is the request's host (section 3.2.2), so
///   the Host allow-list judges the name the client really asked for, and the path goes on alone.
/// - HTTP/1.0 without `Connection: keep-alive`, or `Connection: close`: the answer says `Connection: close`
///   (an HTTP/1.0 answer, so it is never chunked) and the connection closes once it is written, rather than
///   waiting out the idle timeout.
final class HeadGate: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// The version of the request being answered, and whether the connection closes after its answer.
    private var version = HTTPVersion.http1_1, closesAfterAnswer = false
    /// Whether the parts of a refused request are being dropped.
    private var refusing = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(var head):
            if let problem = Self.problem(in: &head) {
                refusing = true
                return refuse(context, problem)
            }
            version = head.version
            closesAfterAnswer = !head.isKeepAlive
            context.fireChannelRead(wrapInboundOut(.head(head)))
        case .body, .end:
            guard !refusing else { return }
            context.fireChannelRead(data)
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard closesAfterAnswer else { return context.write(data, promise: promise) }
        switch unwrapOutboundIn(data) {
        case .head(var head) where head.status.code >= 200:
            head.version = version
            head.headers.replaceOrAdd(name: "Connection", value: "close")
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .head, .body:
            context.write(data, promise: promise)
        case .end:
            let written = context.eventLoop.makePromise(of: Void.self)
            if let promise { written.futureResult.cascade(to: promise) }
            context.write(data, promise: written)
            closeAfter(written.futureResult, context, linger: false)
        }
    }

    /// What is wrong with a request head, or nil; an absolute-form target is made origin-form, its authority the
    /// `Host`.
    static func problem(in head: inout HTTPRequestHead) -> PindropError? {
        let hosts = head.headers["Host"]
        if hosts.count > 1 { return .invalidInput("the request has \(hosts.count) Host headers; it may have one") }
        if let authority = absoluteFormAuthority(head.uri) {
            guard !authority.host.isEmpty else { return .invalidInput("the request's target has no host") }
            head.headers.replaceOrAdd(name: "Host", value: String(authority.host))
            head.uri = authority.rest.first == "/" ? String(authority.rest) : "/" + authority.rest
        } else if hosts.isEmpty, head.version.major == 1, head.version.minor >= 1 {
            return .invalidInput("an HTTP/1.1 request must name its Host")
        }
        return nil
    }

    /// The authority and the rest (path and query) of an absolute-form target ("http://example.org:8080/v1?q=x").
    static func absoluteFormAuthority(_ uri: String) -> (host: Substring, rest: Substring)? {
        guard let schemeEnd = uri.range(of: "://"), ["http", "https"].contains(uri[..<schemeEnd.lowerBound].lowercased()) else { return nil }
        let afterScheme = uri[schemeEnd.upperBound...]
        let end = afterScheme.firstIndex { $0 == "/" || $0 == "?" } ?? afterScheme.endIndex
        return (afterScheme[..<end], afterScheme[end...])
    }

    private func refuse(_ context: ChannelHandlerContext, _ error: PindropError) {
        let body = WireEncoding.errorDocument(error).withUnsafeBytes { ByteBuffer(bytes: $0) }
        let headers: HTTPHeaders = ["Content-Type": "application/json; charset=utf-8", "X-Content-Type-Options": "nosniff",
                                    "Content-Length": String(body.readableBytes), "Connection": "close"]
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .badRequest, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        closeAfter(context.writeAndFlush(wrapOutboundOut(.end(nil))), context, linger: true)
    }
}
