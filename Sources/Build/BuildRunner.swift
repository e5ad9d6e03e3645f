import Dispatch
import Flipbook
import Foundation

/// Builds outputs: each with the render command (handed in, so that a build renders exactly
/// as `flipbook render` does), several at once, the costliest first, and stamps each file with
/// its key once it is written. A failed output does not stop the others.
public struct BuildRunner: Sendable {
    /// What happened to one output.
    public enum Outcome: Sendable {
        case built(seconds: Double)
        case failed(String)
    }

    /// One output done, for progress.
    public struct Event: Sendable {
        public let item: BuildPlan.Item
        public let outcome: Outcome
        /// How many outputs are done, of how many.
        public let done: Int
        public let total: Int
    }

    /// How many outputs render at once.
    public let jobs: Int
    /// Renders one output: `flipbook render` with these arguments.
    public let render: @Sendable (_ arguments: [String]) throws -> Void

    public init(jobs: Int, render: @escaping @Sendable ([String]) throws -> Void) {
        self.jobs = max(1, jobs)
        self.render = render
    }

    /// Builds `items`, calling `progress` (from any thread, one call at a time) as each ends,
    /// and returns each item's outcome in `items` order.
    public func build(_ items: [BuildPlan.Item], progress: @escaping @Sendable (Event) -> Void = { _ in }) -> [Outcome]
    {
        let order = items.indices.sorted { items[$0].cost > items[$1].cost }
        let state = RunState(count: items.count)
        let workers = min(jobs, max(1, items.count))
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while let next = state.take() {
                let item = items[order[next]]
                let started = Date()
                let outcome: Outcome
                do {
                    let folder = (item.file as NSString).deletingLastPathComponent
                    try FileManager.default.createDirectory(
                        atPath: folder.isEmpty ? "." : folder, withIntermediateDirectories: true)
                    try render(item.arguments)
                    try OutputStamp.write(item.key, to: item.file)
                    outcome = .built(seconds: Date().timeIntervalSince(started))
                } catch {
                    outcome = .failed("\(error)")
                }
                state.finish(order[next], outcome) { done in
                    progress(Event(item: item, outcome: outcome, done: done, total: items.count))
                }
            }
        }
        return state.outcomes()
    }
}

/// The queue of a build's outputs and what became of each, shared by its workers.
private final class RunState: @unchecked Sendable {
    private let lock = NSLock()
    private var next = 0
    private var done = 0
    private var results: [BuildRunner.Outcome?]
    private let count: Int

    init(count: Int) {
        self.count = count
        results = Array(repeating: nil, count: count)
    }

    /// The next position in the build order, if any is left.
    func take() -> Int? {
        lock.withLock {
            guard next < count else { return nil }
            defer { next += 1 }
            return next
        }
    }

    /// Records an outcome and reports it while holding the lock, so reports never interleave.
    func finish(_ index: Int, _ outcome: BuildRunner.Outcome, report: (Int) -> Void) {
        lock.withLock {
            results[index] = outcome
            done += 1
            report(done)
        }
    }

    func outcomes() -> [BuildRunner.Outcome] { lock.withLock { results.map { $0! } } }
}
