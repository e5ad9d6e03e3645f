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

    /// A new listener's response: a `retry` hint, then every event from now on, until the
    /// page goes or the server stops.
    func response(heartbeat: Double = 10) -> HTTPResponse {
        let id = UUID()
        let (stream, continuation) = AsyncStream<[UInt8]>.makeStream(bufferingPolicy: .bufferingNewest(64))
        continuation.yield(Array("retry: 1000\n\n".utf8))
        let beat = Task {
            while !Task.isCancelled {
                try? await Task.sleep(nanoseconds: UInt64(heartbeat * 1e9))
                continuation.yield(Array(": ping\n\n".utf8))
            }
        }
        let end: @Sendable () -> Void = { [weak self] in
            beat.cancel()
            continuation.finish()
            _ = self?.listeners.withLock { $0.removeValue(forKey: id) }
        }
        continuation.onTermination = { _ in end() }
        listeners.withLock { $0[id] = continuation }
        return HTTPResponse(
            status: 200,
            headers: ["Content-Type": "text/event-stream", "Cache-Control": "no-store", "X-Accel-Buffering": "no"],
            stream: stream, onClose: end)
    }

    /// Ends every listener's stream (the server is stopping).
    func finish() {
        for c in listeners.withLock({ Array($0.values) }) { c.finish() }
    }
}
