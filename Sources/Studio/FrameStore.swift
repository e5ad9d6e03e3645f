import Dispatch
import Flipbook
import Foundation
import Synchronization

/// Every frame of one version of the transition, encoded as PNG for the page as soon as it
/// renders. Frames that repeat the one before (holds, a settled spring) share one picture,
/// so the page fetches each distinct picture once. Rendering stops when the store is
/// cancelled (a newer version replaced it).
final class FrameStore: Sendable {
    let version: Int
    let times: [Double]
    private let state = Mutex(State())

    private struct State {
        /// The encoded pictures, in order of first appearance.
        var pictures: [[UInt8]] = []
        /// For each frame rendered so far, the index of its picture.
        var frames: [Int] = []
        var finished = false
        var failure: String?
        var cancelled = false
        var seconds = 0.0
    }

    init(version: Int, times: [Double]) {
        self.version = version
        self.times = times
    }

    /// Renders every frame of `transition` on a queue of its own, encoding each new picture.
    func start(_ transition: Transition) {
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            let began = Date()
            var previous: Bitmap?
            do {
                try transition.forEachFrame(at: times) { frame in
                    if state.withLock({ $0.cancelled }) { throw CancellationError() }
                    if let previous, previous.pixels == frame.bitmap.pixels {
                        state.withLock { $0.frames.append($0.pictures.count - 1) }
                        return
                    }
                    previous = frame.bitmap
                    let png = try frame.bitmap.pngData(fast: true)
                    state.withLock { s in
                        s.pictures.append(png)
                        s.frames.append(s.pictures.count - 1)
                    }
                }
                state.withLock {
                    $0.finished = true
                    $0.seconds = Date().timeIntervalSince(began)
                }
            } catch {
                state.withLock {
                    $0.finished = true
                    if !(error is CancellationError) { $0.failure = "\(error)" }
                }
            }
        }
    }

    func cancel() { state.withLock { $0.cancelled = true } }

    /// What the page needs to play the version: each frame's picture, once all have rendered.
    struct Manifest: Encodable {
        var version: Int
        var times: [Double]
        var frames: [Int]
        var pictures: Int
        var renderSeconds: Double
    }

    /// Waits (up to `timeout` seconds) for every frame, then describes them; nil if the
    /// render failed, was cancelled or is still going.
    func manifest(timeout: Double = 30) async -> Manifest? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let s = state.withLock { $0 }
            if s.finished {
                guard s.failure == nil, !s.cancelled else { return nil }
                return Manifest(
                    version: version, times: times, frames: s.frames, pictures: s.pictures.count,
                    renderSeconds: s.seconds)
            }
            if s.cancelled { return nil }
            try? await Task.sleep(nanoseconds: 5_000_000)
        }
        return nil
    }

    /// The encoded picture `k`, waiting while it renders; nil if there is none.
    func picture(_ k: Int, timeout: Double = 30) async -> [UInt8]? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let (picture, done) = state.withLock { s in
                (k >= 0 && k < s.pictures.count ? s.pictures[k] : nil, s.finished || s.cancelled)
            }
            if let picture { return picture }
            if done { return nil }
            try? await Task.sleep(nanoseconds: 5_000_000)
        }
        return nil
    }

    /// The bytes the store holds.
    var bytes: Int { state.withLock { $0.pictures.reduce(0) { $0 + $1.count } } }
}
