import FlyingFox
import FlyingSocks
import Foundation
import Synchronization

/// Server-sent events to every page that listens (`GET /api/events`): each is one `data:` line
/// of JSON. A comment line goes out every few seconds, so a closed page is noticed and let go.
final class EventStream: Sendable {
    private let listeners = Mutex<[UUID: AsyncStream<[UInt8]>.Continuation]>([:])

    /// Sends `json` to every listener.
    func send(_ json: String) {
        let bytes = Array("data: \(json)\n\n".utf8)
        for c in listeners.withLock({ Array($0.values) }) { c.yield(bytes) }
    }

    /// A new listener's response body: a `retry` hint, then every event from now on.
    func body(heartbeat: Double = 10) -> HTTPBodySequence {
        let id = UUID()
        let (stream, continuation) = AsyncStream<[UInt8]>.makeStream(bufferingPolicy: .bufferingNewest(64))
        continuation.yield(Array("retry: 1000\n\n".utf8))
        let beat = Task {
            while !Task.isCancelled {
                try? await Task.sleep(nanoseconds: UInt64(heartbeat * 1e9))
                continuation.yield(Array(": ping\n\n".utf8))
            }
        }
        continuation.onTermination = { [weak self] _ in
            beat.cancel()
            _ = self?.listeners.withLock { $0.removeValue(forKey: id) }
        }
        listeners.withLock { $0[id] = continuation }
        return HTTPBodySequence(from: ChunkSequence(stream: stream))
    }

    /// Ends every listener's stream (the server is stopping).
    func finish() {
        for c in listeners.withLock({ Array($0.values) }) { c.finish() }
    }
}

/// Byte chunks as the buffered byte sequence FlyingFox streams a body from.
struct ChunkSequence: AsyncBufferedSequence {
    typealias Element = UInt8
    let stream: AsyncStream<[UInt8]>

    func makeAsyncIterator() -> Iterator { Iterator(base: stream.makeAsyncIterator()) }

    struct Iterator: AsyncBufferedIteratorProtocol {
        var base: AsyncStream<[UInt8]>.Iterator
        var pending: ArraySlice<UInt8> = []

        mutating func next() async -> UInt8? {
            if pending.isEmpty { pending = await base.next()?[...] ?? [] }
            return pending.popFirst()
        }

        mutating func nextBuffer(suggested count: Int) async -> ArraySlice<UInt8>? {
            if pending.isEmpty {
                guard let chunk = await base.next() else { return nil }
                pending = chunk[...]
            }
            let n = Swift.min(Swift.max(1, count), pending.count)
            defer { pending = pending.dropFirst(n) }
            return pending.prefix(n)
        }
    }
}
