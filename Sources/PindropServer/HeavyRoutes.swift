import Foundation
import PindropCore
import Synchronization

/// The routes whose answers take real time of a core (the basemap, the street map, nearby pages of more than
/// `RequestLimits.maxResults`): at most one running per core, on threads of their own, and as many waiting; beyond
/// that, 503 `overloaded` with `Retry-After: 1`. Everything else (health above all, which probes time out after a
/// second) keeps the async pool's threads, which the engine's long work would otherwise hold: 16 clients asking
/// for the world's basemap made `/healthz` wait 2 s.
final class HeavyRoutes: Sendable {
    /// How many answers run at once, and how many more may wait.
    let running: Int, waiting: Int
    private let inFlight = Atomic<Int>(0)

    /// Room for one answer per core of this machine (`ProcessInfo.activeProcessorCount`), and as many waiting.
    init(cores: Int = ProcessInfo.processInfo.activeProcessorCount) {
        running = max(1, cores)
        waiting = running
    }

    /// Runs `body` on the heavy routes' threads, or throws `.overloaded` when `running + waiting` are in flight.
    func run<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        guard inFlight.add(1, ordering: .relaxed).newValue <= running + waiting else {
            inFlight.subtract(1, ordering: .relaxed)
            throw PindropError.overloaded("the server is busy with \(running + waiting) map and nearby answers, its most at once;"
                                          + " try again in a second", retryAfter: 1)
        }
        defer { inFlight.subtract(1, ordering: .relaxed) }
        guard #available(macOS 15, *) else { return try await body() }
        return try await withTaskExecutorPreference(HeavyWorkExecutor.shared(threads: running)) { try await body() }
    }
}

/// A pool of threads as a task executor: the jobs of the tasks that prefer it run there, first come, first served.
/// One per process and size (tests build many servers), its threads living as long as the process.
@available(macOS 15, *)
final class HeavyWorkExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    /// Guarded by `condition`.
    private var jobs: [UnownedJob] = [], next = 0

    private static let executors = Mutex<[Int: HeavyWorkExecutor]>([:])

    /// The executor of `threads` threads, made on first use.
    static func shared(threads: Int) -> HeavyWorkExecutor {
        executors.withLock { executors in
            if let made = executors[threads] { return made }
            let made = HeavyWorkExecutor(threads: threads)
            executors[threads] = made
            return made
        }
    }

    private init(threads: Int) {
        for n in 0..<threads {
            let thread = Thread { [unowned self] in self.work() }
            thread.name = "pindrop-heavy-\(n)"
            thread.start()
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func work() {
        while true {
            condition.lock()
            while next == jobs.count { condition.wait() }
            let job = jobs[next]
            next += 1
            // Drop the run part of the queue now and then, so it does not grow for the process's life.
            if next == jobs.count || next > 1024 { jobs.removeFirst(next); next = 0 }
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
