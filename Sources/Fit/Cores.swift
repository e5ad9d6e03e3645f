import Foundation
import Synchronization

/// Work spread over every core: the tries of a scene's changes, the runs of a fit's frames.
enum Cores {
    /// `body` of each of `items` on every core, each with its answer, in order; the first
    /// error in their order is thrown.
    static func each<T: Sendable, U: Sendable>(_ items: [T], _ body: @Sendable (T) throws -> U) throws -> [(T, U)] {
        let results = Mutex([Result<U, Error>?](repeating: nil, count: items.count))
        DispatchQueue.concurrentPerform(iterations: items.count) { i in
            let result = Result { try body(items[i]) }
            results.withLock { $0[i] = result }
        }
        return try zip(items, results.withLock { $0 }).map { ($0, try $1!.get()) }
    }
}
