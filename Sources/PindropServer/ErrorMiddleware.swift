import Hummingbird
import NIOCore
import NIOHTTP1
import PindropCore

/// The outermost middleware: whatever fails below it, the client gets the one JSON error shape
/// (`WireEncoding.errorDocument`) with the status the error's kind names. Errors of the HTTP layer keep their
/// status; anything unexpected is a 500 whose details go to the log, never to the client.
struct JSONErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            let failure = Self.pindropError(error)
            if failure.httpStatus >= 500, case .internalFailure = failure {
                context.logger.error("\(request.method) \(request.uri.path) failed: \(String(reflecting: error))")
            }
            return Self.response(failure)
        }
    }

    /// What an error from any layer means to the client.
    static func pindropError(_ error: any Error) -> PindropError {
        switch error {
        case let error as PindropError: error
        case let error as any HTTPResponseError: PindropError(httpStatus: Int(error.status.code))
        case is NIOTooManyBytesError: .tooLarge("the request body is too large")
        // The client closed or broke the body (shorter than its Content-Length, unterminated chunks): its fault.
        case is HTTPParserError: .invalidInput("the request body ended before it was complete")
        default: .internalFailure("the server failed to answer; see its log")
        }
    }

    /// The error document with its status, and `WWW-Authenticate: Bearer` on a 401 (RFC 6750). (A 405's `Allow` is
    /// `MethodResponder`'s, which knows the path.)
    static func response(_ error: PindropError) -> Response {
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8"]
        if let retryAfter = error.retryAfter { headers[.retryAfter] = String(retryAfter) }
        if case .unauthorized = error { headers[.wwwAuthenticate] = "Bearer" }
        return Response(status: HTTPResponse.Status(code: error.httpStatus), headers: headers,
                        body: .init(byteBuffer: WireEncoding.errorDocument(error).withUnsafeBytes { ByteBuffer(bytes: $0) }))
    }
}
