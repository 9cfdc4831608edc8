import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Hummingbird
import HummingbirdTesting
import PindropCore
import PindropProviders
import PindropServer
import PindropTesting
import Synchronization
import Testing

/// One Server-Sent Event: its name and its JSON data.
struct ReceivedEvent {
    let name: String
    let data: [String: Any]

    /// Splits an event-stream body into events.
    static func parse(_ text: String) throws -> [ReceivedEvent] {
        try text.components(separatedBy: "\n\n").filter { !$0.isEmpty }.map { block in
            var name = "message", data = ""
            for line in block.split(separator: "\n") {
                if line.hasPrefix("event: ") { name = String(line.dropFirst(7)) }
                if line.hasPrefix("data: ") { data += line.dropFirst(6) }
            }
            let object = try JSONSerialization.jsonObject(with: Data(data.utf8))
            return ReceivedEvent(name: name, data: try #require(object as? [String: Any], "data is not an object: \(data)"))
        }
    }
}

/// The real server with a music service, over the local MusicBrainz server.
struct MusicTestServer {
    let fake: FakeMusicBrainzServer
    /// Changes to the client's configuration (its mode ceiling, its page cap).
    var configure: @Sendable (inout MusicBrainzConfiguration) -> Void = { _ in }

    /// Starts a local MusicBrainz serving `places` places per query, its one-second rule shrunk by `timeScale`.
    static func start(places: Int, timeScale: Double, failure: FakeMusicBrainzServer.Failure? = nil,
                      configure: @escaping @Sendable (inout MusicBrainzConfiguration) -> Void = { _ in }) async throws -> MusicTestServer {
        MusicTestServer(fake: try await FakeMusicBrainzServer.start(
            .init(catalog: FakeMusicBrainzCatalog(defaultPlaceCount: places), timeScale: timeScale, failure: failure)), configure: configure)
    }

    var services: ServerServices {
        get throws {
            // The real MusicBrainz client (AsyncHTTPClient) against the local server, which speaks the real wire format.
            var configuration = try MusicBrainzConfiguration(baseURL: fake.baseURL, contact: "pindrop-tests",
                                                             requestInterval: .seconds(fake.configuration.timeScale))
            configure(&configuration)
            return ServerServices(places: try PlaceService(store: FakeStore(places: SamplePlaces.all)), users: InMemoryUserAccounts(),
                                  music: MusicBrainzClient(configuration: configuration))
        }
    }

    /// Runs `body` against the application listening on a real socket (the stream's cancellation follows the
    /// connection, so these tests need one), then stops the local MusicBrainz.
    func test<Value: Sendable>(_ body: @Sendable (any TestClientProtocol) async throws -> Value) async throws -> Value {
        var configuration = ServerConfiguration()
        configuration.port = 0
        let app = buildApplication(configuration: configuration, services: try services)
        do {
            let value = try await app.test(.live, body)
            await fake.stop()
            return value
        } catch {
            await fake.stop()
            throw error
        }
    }
}

/// A plain TCP client that sends one GET and records when each event of the stream arrives, so tests can see
/// pages arrive before the end and can hang up in the middle.
final class StreamingConnection: Sendable {
    private let socket: Int32
    private let received = Mutex<[(name: String, at: ContinuousClock.Instant)]>([])

    init(port: Int, path: String) throws {
        let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { close(fd); throw POSIXError(.ECONNREFUSED) }
        socket = fd
        let request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n"
        _ = request.withCString { send(fd, $0, strlen($0), 0) }
        // Every event is written as one chunk, so a read never splits an "event:" line.
        Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = recv(fd, &buffer, buffer.count, 0)
                if count <= 0 { return }
                let now = ContinuousClock.now
                // Split on the byte: "\r\n" of the chunked encoding is one Character in Swift.
                let lines = buffer[0..<count].split(separator: UInt8(ascii: "\n")).map { String(decoding: $0, as: UTF8.self) }
                received.withLock { arrivals in
                    for line in lines where line.hasPrefix("event: ") {
                        arrivals.append((String(line.dropFirst(7)).trimmingCharacters(in: .whitespacesAndNewlines), now))
                    }
                }
            }
        }.start()
    }

    /// The names of the events received so far, in order.
    var eventNames: [String] { received.withLock { $0.map(\.name) } }

    /// When the first event called `name` arrived.
    func arrival(of name: String) -> ContinuousClock.Instant? {
        received.withLock { $0.first { $0.name == name }?.at }
    }

    /// Waits until `condition` holds for the event names, or `timeout` passes; returns whether it held.
    func wait(timeout: Duration = .seconds(20), until condition: ([String]) -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition(eventNames) { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return condition(eventNames)
    }

    /// Hangs up, as a browser does when the page closes its EventSource.
    func hangUp() {
        shutdown(socket, Int32(SHUT_RDWR))
        close(socket)
    }
}
