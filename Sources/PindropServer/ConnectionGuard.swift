import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import PindropCore

/// HTTP/1.1 as `pindrop serve` speaks it: Hummingbird's HTTP1 channel with the limits a careful server (nginx,
/// Apache httpd) sets, each refusal answered with the JSON error before the connection closes:
/// - more open connections than `maxConnections`: 503 at once, so a flood of idle sockets cannot use up the
///   process's descriptors (and make the accept loop spin);
/// - no complete request head, an idle keep-alive, or a stalled body for `idleTimeoutSeconds`: closed;
/// - a body not finished `requestTimeoutSeconds` after its head (a slow drip): closed;
/// - a request line over `maxRequestLineBytes`: 414; a head over `maxHeadBytes`: 431; a malformed head: 400;
/// - `Expect: 100-continue`: answered with 100 Continue, so uploads do not wait a second for nothing;
/// - two `Host` headers, or none in HTTP/1.1: 400; an absolute-form target's authority is the host checked; an
///   HTTP/1.0 request without keep-alive is answered, then the connection closes (`HeadGate`).
struct GuardedHTTP1Channel: ServerChildChannel, HTTPChannelHandler {
    typealias Value = HTTP1Channel.Value
    let responder: HTTPChannelHandler.Responder
    let configuration: ServerConfiguration
    let connections: ConnectionCounter

    /// The server builder for `Application(server:)`.
    static func builder(_ configuration: ServerConfiguration) -> HTTPServerBuilder {
        let connections = ConnectionCounter()
        return HTTPServerBuilder { responder in
            GuardedHTTP1Channel(responder: responder, configuration: configuration, connections: connections)
        }
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let progress = RequestProgress()
        let requestTimeout = TimeAmount.seconds(Int64(configuration.requestTimeoutSeconds))
        do {
            // Before the HTTP decoder: sees raw bytes, so it can count connections and measure the request line.
            try channel.pipeline.syncOperations.addHandler(ConnectionGate(
                connections: connections, maxConnections: configuration.maxConnections,
                maxRequestLineBytes: configuration.maxRequestLineBytes, progress: progress))
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        // The request gate sits after the decoder, before Hummingbird's own handlers: it sees heads and parse errors.
        let http = HTTP1Channel.Configuration(
            additionalChannelHandlers: [RequestGate(progress: progress, requestTimeout: requestTimeout)],
            idleTimeout: .seconds(Int64(configuration.idleTimeoutSeconds)),
            httpDecoderConfiguration: .init(maxHeaderFieldSize: configuration.maxHeadBytes,
                                            maxHeaderListSize: configuration.maxHeadBytes, maxHeaderFieldCount: 100))
        return HTTP1Channel(responder: responder, configuration: http).setup(channel: channel, logger: logger).flatMapThrowing { value in
            // Right after the HTTP/1 parser, where the request line's version and every Host header are still seen.
            let parser = try channel.pipeline.syncOperations.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try channel.pipeline.syncOperations.addHandler(HeadGate(), position: .after(parser))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await handleHTTP(asyncChannel: value, logger: logger)
    }
}

/// Open connections across the server's event loops.
final class ConnectionCounter: Sendable {
    private let count = NIOLockedValueBox(0)

    /// Counts one more connection; false (and not counted) when `limit` are already open.
    func enter(limit: Int) -> Bool {
        count.withLockedValue { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
    }

    func leave() { count.withLockedValue { $0 -= 1 } }
}

/// Where a connection is in its current request, shared by the two gates of one connection. Only touched on
/// the connection's event loop, hence unchecked.
final class RequestProgress: @unchecked Sendable {
    /// Bytes of the request line seen so far, while it is being read.
    var requestLineBytes = 0
    /// Whether the next bytes still belong to a request line (the start of a connection or after a request's end).
    var readingRequestLine = true
    /// Whether a head has arrived and its end not yet.
    var inRequest = false
}

/// A refusal as raw HTTP/1.1 bytes: the JSON error, then the connection closes.
func rawErrorResponse(_ error: PindropError) -> ByteBuffer {
    let body = WireEncoding.errorDocument(error).bytes
    // Status(code:) knows no reason phrase for these two; the static members do.
    let status: HTTPResponse.Status = switch error.httpStatus {
    case 414: .uriTooLong
    case 503: .serviceUnavailable
    default: .init(code: error.httpStatus)
    }
    var head = "HTTP/1.1 \(status.code) \(status.reasonPhrase)\r\nContent-Type: application/json; charset=utf-8\r\n"
    head += "X-Content-Type-Options: nosniff\r\n"
    head += "Content-Length: \(body.count)\r\nConnection: close\r\n"
    if let retryAfter = error.retryAfter { head += "Retry-After: \(retryAfter)\r\n" }
    var buffer = ByteBuffer(string: head + "\r\n")
    buffer.writeBytes(body)
    return buffer
}

/// First in a connection's pipeline: the connection cap and the request-line limit.
final class ConnectionGate: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    let connections: ConnectionCounter
    let maxConnections: Int
    let maxRequestLineBytes: Int
    let progress: RequestProgress
    private var admitted = false
    private var refused = false

    init(connections: ConnectionCounter, maxConnections: Int, maxRequestLineBytes: Int, progress: RequestProgress) {
        self.connections = connections
        self.maxConnections = maxConnections
        self.maxRequestLineBytes = maxRequestLineBytes
        self.progress = progress
    }

    func channelActive(context: ChannelHandlerContext) {
        context.fireChannelActive()
        if connections.enter(limit: maxConnections) {
            admitted = true
        } else {
            refuse(context, .overloaded("the server has \(maxConnections) open connections, its limit; try again shortly",
                                        retryAfter: 5), linger: false)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        if admitted { connections.leave(); admitted = false }
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        let bytes = unwrapInboundIn(data)
        if progress.readingRequestLine {
            if let newline = bytes.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) {
                progress.requestLineBytes += newline - bytes.readerIndex
                progress.readingRequestLine = false
            } else {
                progress.requestLineBytes += bytes.readableBytes
            }
            if progress.requestLineBytes > maxRequestLineBytes {
                return refuse(context, .uriTooLong("the request line is longer than \(maxRequestLineBytes) bytes"), linger: true)
            }
        }
        context.fireChannelRead(data)
    }

    private func refuse(_ context: ChannelHandlerContext, _ error: PindropError, linger: Bool) {
        refused = true
        closeAfter(context.writeAndFlush(wrapOutboundOut(rawErrorResponse(error))), context, linger: linger)
    }
}

/// After the HTTP decoder: answers `Expect: 100-continue`, bounds a request's total time, and answers a head
/// that cannot be parsed with the JSON error (Hummingbird would send an empty 400).
final class RequestGate: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    let progress: RequestProgress
    let requestTimeout: TimeAmount
    private var deadline: Scheduled<Void>?

    init(progress: RequestProgress, requestTimeout: TimeAmount) {
        self.progress = progress
        self.requestTimeout = requestTimeout
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            progress.inRequest = true
            let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
            deadline = context.eventLoop.scheduleTask(in: requestTimeout) { loopBound.value.close(promise: nil) }
            if head.headerFields[.expect]?.lowercased() == "100-continue" {
                context.writeAndFlush(wrapOutboundOut(.head(HTTPResponse(status: .continue))), promise: nil)
            }
        case .body:
            break
        case .end:
            deadline?.cancel()
            deadline = nil
            progress.inRequest = false
            progress.readingRequestLine = true
            progress.requestLineBytes = 0
        }
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // Inside a request the error reaches the handler reading the body, which answers 400.
        guard let parseError = error as? HTTPParserError, !progress.inRequest else { return context.fireErrorCaught(error) }
        let failure: PindropError = parseError == .headerOverflow
            ? .headersTooLarge("the request's headers are larger than the server accepts") : .invalidInput("the request is not valid HTTP/1.1")
        var head = HTTPResponse(status: .init(code: failure.httpStatus))
        head.headerFields[.contentType] = "application/json; charset=utf-8"
        head.headerFields[contentTypeOptionsField] = "nosniff"
        head.headerFields[.connection] = "close"
        let body = WireEncoding.errorDocument(failure).withUnsafeBytes { ByteBuffer(bytes: $0) }
        head.headerFields[.contentLength] = String(body.readableBytes)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(body)), promise: nil)
        closeAfter(context.writeAndFlush(wrapOutboundOut(.end(nil))), context, linger: true)
    }
}

/// Closes the connection once `write` is done (a close right away could drop a response still queued). With
/// `linger`, the output closes first and the rest after two seconds of discarding what the client still sends:
/// closing with unread input would reset the connection and lose the answer (nginx's lingering close).
func closeAfter(_ write: EventLoopFuture<Void>, _ context: ChannelHandlerContext, linger: Bool) {
    let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
    write.whenComplete { _ in
        let context = bound.value
        guard linger else { return context.close(promise: nil) }
        context.close(mode: .output, promise: nil)
        context.eventLoop.assumeIsolated().scheduleTask(in: .seconds(2)) { bound.value.close(promise: nil) }
    }
}
