import AsyncHTTPClient
import Foundation
import NIOCore
import PindropCore

/// Files of an OpenStreetMap replication feed fetched over HTTP: a state file or a change file, each within a
/// timeout and a size bound, any failure one sentence naming the file (never a partial file).
public struct ReplicationDownloads: Sendable {
    /// The longest file read: a minutely change is a few MB, a daily one of a country a few tens.
    public static let maxFileBytes = 1 << 30
    /// How long one file may take.
    public var timeout: Duration
    /// The User-Agent sent (replication servers ask to be told who is asking).
    public var userAgent: String

    /// Downloads with this timeout.
    public init(timeout: Duration = .seconds(120), userAgent: String = "pindrop (OpenStreetMap replication)") {
        self.timeout = timeout; self.userAgent = userAgent
    }

    /// The body of `url`, which must answer 200.
    public func fetch(_ url: String) async throws -> [UInt8] {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "User-Agent", value: userAgent)
        let response: HTTPClientResponse
        do {
            response = try await HTTPClient.shared.execute(request, deadline: .now() + .nanoseconds(timeout.wholeNanoseconds))
        } catch {
            if Task.isCancelled { throw CancellationError() }
            throw PindropError.upstream(provider: "replication feed", message: "\(url) could not be fetched (\(Self.reason(error)))")
        }
        guard response.status.code == 200 else {
            throw PindropError.upstream(provider: "replication feed", message: "\(url) answered HTTP \(response.status.code)")
        }
        do {
            let body = try await response.body.collect(upTo: Self.maxFileBytes)
            return Array(body.readableBytesView)
        } catch {
            if Task.isCancelled { throw CancellationError() }
            throw PindropError.upstream(provider: "replication feed", message: "\(url) stopped before its end (\(Self.reason(error)))")
        }
    }

    private static func reason(_ error: any Error) -> String {
        if let error = error as? HTTPClientError, error == .deadlineExceeded || error == .readTimeout || error == .connectTimeout {
            return "timed out"
        }
        return String(describing: error).prefix(200).description
    }
}
