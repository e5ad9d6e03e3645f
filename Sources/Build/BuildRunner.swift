import Dispatch
import Flipbook
import FileInput
import Foundation

/// Builds outputs: each by running its export (as `flipbook render` does), several at once, the costliest first, and stamps each file with
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
    /// Renders one output: its export, on `threads` threads (default: every core).
    public let render: @Sendable (_ request: ExportRequest) throws -> Void

    public init(
        jobs: Int, threads: Int? = nil,
        render: @escaping @Sendable (ExportRequest) throws -> Void = { _ = try $0.run() }
    ) {
        self.jobs = max(1, jobs)
        self.render = { request in
            var request = request
            request.threads = threads
            try render(request)
        }
    }

    /// Builds `items`, calling `progress` (from any thread, one call at a time) as each ends,
    /// and returns each item's outcome in `items` order. An item that reads another of `items`
    /// starts once that one is built, and fails without rendering if it failed.
    public func build(_ items: [BuildPlan.Item], progress: @escaping @Sendable (Event) -> Void = { _ in }) -> [Outcome]
    {
        let writer = Dictionary(items.indices.map { (items[$0].resolvedFile, $0) }, uniquingKeysWith: { a, _ in a })
        let reads = items.map { item in Set(item.inputs.compactMap { writer[$0] }) }
        let state = RunState(reads: reads, costs: items.map(\.cost))
        let workers = min(jobs, max(1, items.count))
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while let (index, failedInput) = state.take() {
                let item = items[index]
                let started = Date()
                let outcome: Outcome
                if let failedInput {
                    outcome = .failed("not built: it reads \(items[failedInput].file), which failed")
                } else {
                    do {
                        try Self.makeFolder(of: item.file)
                        try render(item.request)
                        try OutputStamp.write(item.key.stamp, to: item.file)
                        outcome = .built(seconds: Date().timeIntervalSince(started))
                    } catch {
                        outcome = .failed("\(error)")
                    }
                }
                state.finish(index, outcome) { done in
                    progress(Event(item: item, outcome: outcome, done: done, total: items.count))
                }
            }
        }
        return state.outcomes()
    }
}

extension BuildRunner {
    /// Makes the folder `file` goes in, with an error that says what is in the way.
    static func makeFolder(of file: String) throws {
        let folder = parentFolder(of: file)
        var path = folder.hasPrefix("/") ? "/" : ""
        for part in folder.split(separator: "/") {
            path += (path.isEmpty || path == "/" ? "" : "/") + part
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue {
                throw BuildError.output(path: file, reason: "\(path) is a file, where its folder must be")
            }
        }
        do {
            try FileManager.default.createDirectory(
                atPath: folder.isEmpty ? "." : folder, withIntermediateDirectories: true)
        } catch {
            throw BuildError.output(
                path: file,
                reason: "cannot make the folder \(folder): \((error as NSError).localizedFailureReason ?? "\(error)")")
        }
    }
}

/// The queue of a build's outputs and what became of each, shared by its workers: the
/// costliest output whose inputs are built goes next.
private final class RunState: @unchecked Sendable {
    private let condition = NSCondition()
    private var waiting: Set<Int>
    private var done = 0
    private var results: [BuildRunner.Outcome?]
    private let reads: [Set<Int>]
    private let costs: [Double]

    init(reads: [Set<Int>], costs: [Double]) {
        self.reads = reads
        self.costs = costs
        waiting = Set(reads.indices)
        results = Array(repeating: nil, count: reads.count)
    }

    /// The next output to build and, if one of its inputs failed, which; nil when none is
    /// left. Waits while every output left reads one still being built.
    func take() -> (Int, failedInput: Int?)? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if waiting.isEmpty { return nil }
            let ready = waiting.filter { reads[$0].allSatisfy { results[$0] != nil } }
            if let next = ready.max(by: { (costs[$0], -$0) < (costs[$1], -$1) }) {
                waiting.remove(next)
                let failed = reads[next].sorted().first {
                    if case .failed = results[$0]! { return true } else { return false }
                }
                return (next, failed)
            }
            condition.wait()
        }
    }

    /// Records an outcome and reports it while holding the lock, so reports never interleave.
    func finish(_ index: Int, _ outcome: BuildRunner.Outcome, report: (Int) -> Void) {
        condition.lock()
        defer { condition.unlock() }
        results[index] = outcome
        done += 1
        report(done)
        condition.broadcast()
    }

    func outcomes() -> [BuildRunner.Outcome] {
        condition.lock()
        defer { condition.unlock() }
        return results.map { $0! }
    }
}
