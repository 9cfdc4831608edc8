import Hummingbird
import NIOCore
import PindropCore

/// The server's one error type: an HTTP status plus the `{"error": {"code": ..., "message": ...}}` body.
public struct APIError: HTTPResponseError, Sendable, Equatable {
    /// The HTTP status sent.
    public var status: HTTPResponse.Status
    /// A stable machine-readable code ("invalid_input", "not_found", ...).
    public var code: String
    /// One sentence for a person.
    public var message: String

    /// Makes an error from its parts.
    public init(_ status: HTTPResponse.Status, code: String, message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    /// 400 for a bad parameter or body.
    public static func badRequest(_ message: String) -> APIError { APIError(.badRequest, code: "invalid_input", message: message) }

    /// 404 for something that does not exist.
    public static func notFound(_ message: String) -> APIError { APIError(.notFound, code: "not_found", message: message) }

    /// Maps an error from any layer: a `PindropError` to its status (bad input 400, unknown 404, index or remote
    /// trouble 502/503), Hummingbird's own errors keep their status, anything else is a 500 that hides its details.
    public init(_ error: any Error) {
        switch error {
        case let error as APIError:
            self = error
        case let error as PindropError:
            let status: HTTPResponse.Status = switch error {
            case .invalidInput: .badRequest
            case .notFound: .notFound
            case .indexUnavailable, .unreadableData, .rateLimited: .serviceUnavailable
            case .upstream: .badGateway
            }
            self.init(status, code: error.code, message: error.message)
        case let error as any HTTPResponseError:
            self.init(error.status, code: Self.code(for: error.status), message: Self.message(for: error.status))
        case is NIOTooManyBytesError:
            self.init(.contentTooLarge, code: "too_large", message: "the request body is too large")
        default:
            self.init(.internalServerError, code: "internal_error", message: "the server failed to answer; see its log")
        }
    }

    /// Writes the JSON error body.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var w = JSONWriter(capacity: 128)
        w.beginObject()
        w.key("error")
        w.beginObject()
        w.key("code"); w.string(code)
        w.key("message"); w.string(message)
        w.endObject()
        w.endObject()
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8"]
        if status == .methodNotAllowed { headers[.allow] = "GET, PUT, POST, DELETE" }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: w.bytes)))
    }

    private static func code(for status: HTTPResponse.Status) -> String {
        switch status.code {
        case 404: "not_found"
        case 405: "method_not_allowed"
        case 413: "too_large"
        case 400..<500: "invalid_input"
        default: "internal_error"
        }
    }

    private static func message(for status: HTTPResponse.Status) -> String {
        switch status.code {
        case 404: "no such endpoint or file"
        case 405: "this method is not allowed here"
        case 413: "the request body is too large"
        case 400..<500: "the request is malformed"
        default: "the server failed to answer; see its log"
        }
    }
}

/// The outermost middleware: whatever fails below it, the client gets the one JSON error shape,
/// and unexpected errors are logged, never shown.
struct JSONErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            let apiError = APIError(error)
            if apiError.status.code >= 500 {
                context.logger.error("\(request.method) \(request.uri.path) failed: \(String(reflecting: error))")
            }
            return try apiError.response(from: request, context: context)
        }
    }
}
