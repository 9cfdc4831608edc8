import Foundation
import HTTPTypes
import Hummingbird
import PindropCore

/// The files of a folder, served under a path when no route answers (the web app's at `/`, Leaflet's at
/// `/vendor/leaflet`), as a careful static server serves them:
/// - only regular files inside the folder: a symbolic link that leads out of it is not followed (404), a folder
///   is never listed nor redirected to (only `/` gives the web app's `index.html`);
/// - one byte range (`Range: bytes=a-b`, `a-`, `-n`): 206 with `Content-Range`; a range past the end is 416 with
///   `Content-Range: bytes */N`; several ranges, or a malformed one, get the whole file (as RFC 9110 allows);
/// - a weak `ETag` from the size and the modification time, and 304 for an `If-None-Match` that matches;
/// - HTML with the web app's `Content-Security-Policy`.
struct StaticFiles<Context: RequestContext>: RouterMiddleware {
    /// The folder, resolved (symbolic links followed): files must resolve inside it.
    let folder: String
    /// The path the folder is served under, without a trailing "/" ("" for the root).
    let basePath: String
    /// Whether `/` (the base path's root) gives `index.html`.
    let servesIndex: Bool
    let cacheControl: String
    /// The policy HTML answers carry; nil for none.
    let contentSecurityPolicy: String?
    private let files = FileIO()

    init(folder: String, basePath: String = "", servesIndex: Bool = false, cacheControl: String, contentSecurityPolicy: String? = nil) {
        self.folder = Self.resolved(folder) ?? folder
        self.basePath = basePath.hasSuffix("/") ? String(basePath.dropLast()) : basePath
        self.servesIndex = servesIndex
        self.cacheControl = cacheControl
        self.contentSecurityPolicy = contentSecurityPolicy
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as any HTTPResponseError where error.status == .notFound {
            guard request.method == .get, let file = file(for: request.uri.path) else { throw error }
            return try await answer(request, file: file, context: context)
        }
    }

    /// The file a path names, with its size and modification time, or nil.
    func file(for rawPath: String) -> (path: String, size: Int, modified: Int)? {
        guard let path = rawPath.removingPercentEncoding, path.hasPrefix(basePath + "/") else { return nil }
        var relative = String(path.dropFirst(basePath.count + 1))
        if relative.isEmpty, servesIndex { relative = "index.html" }
        guard !relative.isEmpty, !relative.split(separator: "/").contains(".."),
              let full = Self.resolved(folder + "/" + relative) else { return nil }
        var status = stat()
        guard full.hasPrefix(folder + "/"), stat(full, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        #if canImport(Glibc)
        let modified = status.st_mtim.tv_sec
        #else
        let modified = status.st_mtimespec.tv_sec
        #endif
        return (full, Int(status.st_size), Int(modified))
    }

    /// `path` with every symbolic link followed (realpath), or nil when it does not exist.
    static func resolved(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private func answer(_ request: Request, file: (path: String, size: Int, modified: Int), context: Context) async throws -> Response {
        let eTag = "W/\"\(String(file.size, radix: 16))-\(String(file.modified, radix: 16))\""
        var headers: HTTPFields = [.eTag: eTag, .acceptRanges: "bytes", .cacheControl: cacheControl,
                                   .contentLength: String(file.size)]
        let fileExtension = (file.path as NSString).pathExtension
        if let type = MediaType.getMediaType(forExtension: fileExtension) { headers[.contentType] = type.description }
        if fileExtension == "html", let contentSecurityPolicy { headers[.contentSecurityPolicy] = contentSecurityPolicy }
        if let match = request.headers[.ifNoneMatch], match.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == eTag }) {
            return Response(status: .notModified, headers: headers)
        }
        let ifRange = request.headers[.ifRange]
        guard let rangeHeader = request.headers[.range], ifRange == nil || ifRange == eTag,
              let range = Self.byteRange(rangeHeader, size: file.size) else {
            return Response(status: .ok, headers: headers, body: try await files.loadFile(path: file.path, context: context))
        }
        guard let bytes = range else {
            var refusal = JSONErrorMiddleware<Context>.response(.invalidInput("the range \(rangeHeader.prefix(60)) is outside the file's \(file.size) bytes"))
            refusal.status = .rangeNotSatisfiable
            refusal.headers[.contentRange] = "bytes */\(file.size)"
            return refusal
        }
        headers[.contentRange] = "bytes \(bytes.lowerBound)-\(bytes.upperBound)/\(file.size)"
        headers[.contentLength] = String(bytes.count)
        return Response(status: .partialContent, headers: headers,
                        body: try await files.loadFile(path: file.path, range: bytes, context: context))
    }

    /// The bytes one range of `Range: bytes=…` asks of a file of `size` bytes (RFC 9110, 14.1.2): `.some(nil)`
    /// when none of them is in the file, nil when the header is malformed or asks for several ranges (then the whole
    /// file is the answer).
    static func byteRange(_ header: String, size: Int) -> ClosedRange<Int>?? {
        guard header.hasPrefix("bytes="), !header.contains(",") else { return nil }
        let spec = header.dropFirst(6).trimmingCharacters(in: .whitespaces)
        guard let dash = spec.firstIndex(of: "-") else { return nil }
        let first = spec[..<dash], last = spec[spec.index(after: dash)...]
        guard (first + last).allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        if first.isEmpty {
            // A suffix: the last n bytes.
            guard let n = Int(last), n >= 0 else { return nil }
            return n == 0 || size == 0 ? .some(nil) : .some(max(0, size - n)...(size - 1))
        }
        guard let start = Int(first), start >= 0 else { return nil }
        let end = last.isEmpty ? Int.max : Int(last)
        guard let end, end >= start else { return nil }
        return start < size ? .some(start...min(end, size - 1)) : .some(nil)
    }
}
