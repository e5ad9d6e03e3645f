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
        /// The encoded pictures, in order of first appearance (nil while one encodes).
        var pictures: [[UInt8]?] = []
        /// For each frame rendered so far, the index of its picture.
        var frames: [Int] = []
        var finished = false
        var failure: String?
        var cancelled = false
        var seconds = 0.0
        var transition: Transition?
        var started = false
    }

    init(version: Int, times: [Double]) {
        self.version = version
        self.times = times
    }

    /// Renders every frame of `transition`, now or, when `after` is given, once the page has
    /// its first frame (`startIfWaiting`) or that many seconds have passed, whichever is first:
    /// until then the frame the page waits for has the cores to itself.
    ///
    /// `lazily`: only when the page asks for the frames (the saved version, which only a
    /// comparison shows while values are changed).
    func start(_ transition: Transition, after delay: Double? = nil, lazily: Bool = false) {
        state.withLock { $0.transition = transition }
        if lazily { return }
        guard let delay else { return startIfWaiting() }
        DispatchQueue.global().asyncAfter(deadline: .now() + delay) { [self] in startIfWaiting() }
    }

    /// Starts the render if it has not started yet.
    func startIfWaiting() {
        guard
            let transition = state.withLock({ s -> Transition? in
                guard !s.started, !s.cancelled, let t = s.transition else { return nil }
                s.started = true
                return t
            })
        else { return }
        render(transition)
    }

    /// Renders every frame on a queue of its own; each new picture is encoded on every core
    /// while later frames render.
    private func render(_ transition: Transition) {
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            let began = Date()
            var previous: Bitmap?
            let encoding = DispatchGroup()
            let cores = ProcessInfo.processInfo.activeProcessorCount
            let inFlight = DispatchSemaphore(value: cores)
            let failure = Mutex<(any Error)?>(nil)
            do {
                try transition.forEachFrame(at: times) { frame in
                    if state.withLock({ $0.cancelled }) { throw CancellationError() }
                    if let error = failure.withLock({ $0 }) { throw error }
                    if let previous, previous.pixels == frame.bitmap.pixels {
                        state.withLock { $0.frames.append($0.pictures.count - 1) }
                        return
                    }
                    previous = frame.bitmap
                    let k = state.withLock { s -> Int in
                        s.pictures.append(nil)
                        s.frames.append(s.pictures.count - 1)
                        return s.pictures.count - 1
                    }
                    inFlight.wait()
                    encoding.enter()
                    DispatchQueue.global(qos: .userInitiated).async { [self, bitmap = frame.bitmap] in
                        defer {
                            inFlight.signal()
                            encoding.leave()
                        }
                        do {
                            let png = try bitmap.pngData(fast: true)
                            state.withLock { $0.pictures[k] = png }
                        } catch {
                            failure.withLock { $0 = error }
                        }
                    }
                }
                encoding.wait()
                if let error = failure.withLock({ $0 }) { throw error }
                state.withLock {
                    $0.finished = true
                    $0.seconds = Date().timeIntervalSince(began)
                    $0.transition = nil
                }
            } catch {
                encoding.wait()
                state.withLock {
                    $0.finished = true
                    $0.transition = nil
                    if !(error is CancellationError) { $0.failure = "\(error)" }
                }
            }
        }
    }

    func cancel() {
        state.withLock {
            $0.cancelled = true
            $0.transition = nil
        }
    }

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
        startIfWaiting()
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

    /// How many frames have rendered once the render has ended (finished or cancelled), or
    /// after `timeout` seconds.
    func renderedFrames(timeout: Double = 30) async -> Int {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline && !state.withLock({ $0.finished || ($0.cancelled && !$0.started) }) {
            try? await Task.sleep(nanoseconds: 5_000_000)
        }
        return state.withLock { $0.frames.count }
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
}
