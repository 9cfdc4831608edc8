import Foundation
import Logging
import PindropCore
import PostgresNIO
import Synchronization

/// A PostgreSQL database named by a URL (`postgres://user:password@host:port/database?sslmode=prefer`), behind
/// a connection pool that reconnects by itself. Every statement has a time limit (`statement_timeout`), a
/// database that cannot be reached is `PindropError.storeUnavailable`, and no message ever holds the password.
public final class PostgresPool: Sendable {
    /// The URL with its password masked, for status answers, logs and errors.
    public let redactedURL: String
    /// Whether this pool has brought the schema up to date: a command or server migrates once, however many of
    /// its parts (places, users, the writer) open the database.
    let migrated = Mutex(false)
    /// The connection pool itself, for tools that run SQL of their own (the benchmark).
    public let client: PostgresClient
    let logger: Logger
    private let runner: Task<Void, Never>
    /// Connections lent and requests waiting for one, through this pool's own doors; connections open, as the
    /// client's background log tells them (postgres-nio keeps its pool's figures to itself).
    private let counts: PoolCounts
    /// The most connections the pool opens.
    public let maximumConnections: Int

    /// Connects lazily to the database at `url` (`postgres://` or `postgresql://`; `sslmode` disable, prefer
    /// or require, prefer by default). Statements running longer than `statementTimeout` are cancelled by the
    /// server, and waits for a lock longer than `lockTimeout`; `connectTimeout` bounds the wait for a connection when
    /// the database is down.
    public init(url: String, statementTimeout: Duration = .seconds(5), connectTimeout: Duration = .seconds(3),
                answerTimeout: Duration = .seconds(6), lockTimeout: Duration = .seconds(10),
                maximumConnections: Int = 16) throws(PindropError) {
        self.answerTimeout = answerTimeout
        guard let parts = URLComponents(string: url), ["postgres", "postgresql"].contains(parts.scheme ?? ""),
              let host = parts.host, !host.isEmpty else {
            throw .invalidInput("a store URL looks like postgres://user:password@host:5432/database, not \(Self.redact(url))")
        }
        let database = String(parts.path.drop { $0 == "/" })
        let sslMode = parts.queryItems?.first { $0.name == "sslmode" }?.value ?? "prefer"
        let tls: PostgresClient.Configuration.TLS
        switch sslMode {
        case "disable": tls = .disable
        case "prefer", "allow": tls = .prefer(.makeClientConfiguration())
        case "require", "verify-ca", "verify-full": tls = .require(.makeClientConfiguration())
        default: throw .invalidInput("sslmode=\(sslMode) is not one of disable, prefer, require")
        }
        var configuration = PostgresClient.Configuration(
            host: host, port: parts.port ?? 5432, username: parts.user.flatMap { $0.removingPercentEncoding } ?? "postgres",
            password: parts.password?.removingPercentEncoding, database: database.isEmpty ? nil : database, tls: tls)
        configuration.options.connectTimeout = connectTimeout
        configuration.options.maximumConnections = maximumConnections
        configuration.options.additionalStartupParameters = [
            ("application_name", "pindrop"),
            ("statement_timeout", String(statementTimeout.components.seconds * 1000 + statementTimeout.components.attoseconds / 1_000_000_000_000_000)),
            ("lock_timeout", String(lockTimeout.components.seconds * 1000)),
        ]
        redactedURL = Self.redact(url)
        logger = Logger(label: "pindrop.postgres")
        self.maximumConnections = maximumConnections
        let counts = PoolCounts()
        self.counts = counts
        let client = PostgresClient(configuration: configuration,
                                    backgroundLogger: Logger(label: "pindrop.postgres.pool") { _ in ConnectionCountingLogHandler(counts: counts) })
        self.client = client
        runner = Task { await client.run() }
    }

    deinit { runner.cancel() }

    /// Stops the pool; running statements end with an error.
    public func close() { runner.cancel() }

    /// The pool's figures now: connections lent, open and not lent, requests waiting for one, and the most it opens.
    public var statistics: (inUse: Int, idle: Int, waiting: Int, maximum: Int) {
        let now = counts.state.withLock { $0 }
        return (now.inUse, max(0, now.open - now.inUse), now.waiting, maximumConnections)
    }

    /// Nil when the database answers `SELECT 1` within `timeout`, else why not (`storeUnavailable`, password-free):
    /// what a readiness probe asks.
    public func problem(within timeout: Duration) async -> PindropError? {
        do {
            try await run("checking that it answers", timeout: timeout) { [client, logger] in
                try await client.withConnection { connection in _ = try await connection.query("SELECT 1", logger: logger) }
            }
            return nil
        } catch let error as PindropError {
            return error
        } catch {
            return .storeUnavailable("the database at \(redactedURL) does not answer (\(type(of: error)))")
        }
    }

    /// `url` with the password replaced by "***".
    public static func redact(_ url: String) -> String {
        guard var parts = URLComponents(string: url) else { return "(an unreadable URL)" }
        if parts.password != nil { parts.password = "***" }
        return parts.string ?? "(an unreadable URL)"
    }

    /// How long a request waits for the database in all (a connection, then its statements) before it
    /// gives up with `storeUnavailable`: the pool keeps trying to connect in the background meanwhile.
    public let answerTimeout: Duration

    /// Runs `body` with a pooled connection, within `answerTimeout` unless `bounded` is false (imports and loads,
    /// which run as long as their data takes, and `ping` first). A failure that is not the caller's own error
    /// becomes `storeUnavailable`, naming what was being done.
    func withConnection<T: Sendable>(_ doing: String, bounded: Bool = true,
                                     _ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        let lease = counts.lease()
        defer { lease.end() }
        return try await run(doing, timeout: bounded ? answerTimeout : nil) { [client] in
            try await client.withConnection { connection in try await lease.using { try await body(connection) } }
        }
    }

    /// Runs `body` in a transaction (rolled back when it throws), bounded like `withConnection`.
    func transaction<T: Sendable>(_ doing: String, bounded: Bool = true,
                                  _ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        let lease = counts.lease()
        defer { lease.end() }
        return try await run(doing, timeout: bounded ? answerTimeout : nil) { [client, logger] in
            try await client.withTransaction(logger: logger) { connection in try await lease.using { try await body(connection) } }
        }
    }

    /// Fails with `storeUnavailable` when the database does not answer within `answerTimeout`.
    func ping(_ doing: String) async throws {
        try await withConnection(doing) { [logger] connection in
            try await connection.query("SELECT 1", logger: logger)
        }
    }

    private func run<T: Sendable>(_ doing: String, timeout: Duration?,
                                      _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        do {
            guard let timeout else { return try await body() }
            // The answer or the time limit, whichever comes first. Not a task group: a group waits for all of its
            // tasks, and a wait for a connection to a database that is restarting does not always end when
            // cancelled, so a request outlived its limit (a client gave up after 15 s in a restart test).
            let late = PindropError.storeUnavailable("the database at \(redactedURL) did not answer within "
                                                     + "\(timeout.components.seconds) s while \(doing)")
            let race = FirstOutcome<T>()
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    race.start(continuation, work: Task { race.finish(await Result(catching: body)) },
                               timer: Task {
                                   guard (try? await Task.sleep(for: timeout)) != nil else { return }
                                   race.finish(.failure(late))
                               })
                }
            } onCancel: {
                race.finish(.failure(CancellationError()))
            }
        } catch {
            throw describe(error, doing: doing)
        }
    }

    /// The error people see for a database failure: ours pass through; the server's own message when it sent one
    /// (a constraint, a timeout), else that the database cannot be reached. Never the URL's password.
    func describe(_ error: any Error, doing: String) -> any Error {
        if error is PindropError || error is CancellationError { return error }
        if let transaction = error as? PostgresTransactionError,
           let cause = transaction.closureError ?? transaction.beginError ?? transaction.commitError ?? transaction.rollbackError {
            return describe(cause, doing: doing)
        }
        if let psql = error as? PSQLError {
            if let message = psql.serverInfo?[.message] {
                let code = psql.serverInfo?[.sqlState] ?? ""
                // 57014 query_canceled (statement_timeout), 55P03 lock_not_available, 57P01..03 shutting down.
                return PindropError.storeUnavailable("the database at \(redactedURL) failed while \(doing): \(message)"
                                                     + (code.isEmpty ? "" : " (SQLSTATE \(code))"))
            }
            return PindropError.storeUnavailable("the database at \(redactedURL) cannot be reached while \(doing) (\(Self.kind(of: psql)))")
        }
        return PindropError.storeUnavailable("the database at \(redactedURL) failed while \(doing) (\(type(of: error)))")
    }

    /// A short, password-free name for a client-side failure.
    static func kind(of error: PSQLError) -> String {
        switch error.code {
        case .connectionError: "connection refused or timed out"
        case .serverClosedConnection, .uncleanShutdown: "the server closed the connection"
        case .queryCancelled: "the statement was cancelled"
        case .tooManyParameters: "too many parameters"
        case .poolClosed: "the connection pool is closed"
        default: String(describing: error.code)
        }
    }
}

/// The pool's figures, kept by `PostgresPool`.
final class PoolCounts: Sendable {
    struct State: Sendable {
        var inUse = 0, waiting = 0, open = 0
    }

    let state = Mutex(State())

    /// One request for a connection, waiting until `using` starts.
    func lease() -> Lease { Lease(counts: self) }

    /// One request's connection: waiting, then in use, then given back.
    final class Lease: Sendable {
        private let counts: PoolCounts
        /// 0 waiting, 1 in use, 2 over.
        private let stage = Mutex(0)

        init(counts: PoolCounts) {
            self.counts = counts
            counts.state.withLock { $0.waiting += 1 }
        }

        /// Runs `body` with the connection lent: in use for its length.
        func using<T>(_ body: () async throws -> T) async throws -> T {
            move(to: 1)
            defer { move(to: 2) }
            return try await body()
        }

        /// The request is over (answered, failed or timed out before a connection came).
        func end() { move(to: 2) }

        private func move(to next: Int) {
            let previous = stage.withLock { stage in
                let previous = stage
                if next > stage { stage = next }
                return previous
            }
            guard next > previous else { return }
            counts.state.withLock { state in
                if previous == 0 { state.waiting -= 1 } else { state.inUse -= 1 }
                if next == 1 { state.inUse += 1 }
            }
        }
    }
}

/// Counts the connections the client opens and closes from its background log at debug level, where postgres-nio
/// reports them ("Connection established", "Connection closed"); every other line is dropped.
struct ConnectionCountingLogHandler: LogHandler {
    let counts: PoolCounts
    var logLevel: Logger.Level = .debug
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        switch event.message.description {
        case "Connection established": counts.state.withLock { $0.open += 1 }
        case "Connection closed": counts.state.withLock { $0.open = max(0, $0.open - 1) }
        default: break
        }
    }
}

/// A request's answer racing its time limit: the first outcome resumes the request, and the other task is
/// cancelled (the work, when the limit came first, goes on alone until the pool lets it go).
private final class FirstOutcome<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, any Error>?
        var early: Result<T, any Error>?
        var work: Task<Void, Never>?, timer: Task<Void, Never>?
    }
    private let state = Mutex(State())

    /// Sets the race going; an outcome that came before (a cancellation) resumes at once.
    func start(_ continuation: CheckedContinuation<T, any Error>, work: Task<Void, Never>, timer: Task<Void, Never>) {
        let early: Result<T, any Error>? = state.withLock { state in
            state.work = work
            state.timer = timer
            guard let early = state.early else { state.continuation = continuation; return nil }
            return early
        }
        if let early {
            work.cancel()
            timer.cancel()
            continuation.resume(with: early)
        }
    }

    /// The first call resumes the request and cancels both tasks; later calls do nothing.
    func finish(_ outcome: Result<T, any Error>) {
        let (continuation, work, timer) = state.withLock { state in
            guard state.early == nil else { return (nil, nil, nil) as (CheckedContinuation<T, any Error>?, Task<Void, Never>?, Task<Void, Never>?) }
            state.early = outcome
            defer { state.continuation = nil }
            return (state.continuation, state.work, state.timer)
        }
        guard let continuation else { return }
        work?.cancel()
        timer?.cancel()
        continuation.resume(with: outcome)
    }
}

private extension Result where Failure == any Error {
    /// The outcome of an async throwing call.
    init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
