import Foundation
import Geometry
import Raster

/// Frames with the times they start showing: a decoded GIF, one PNG, or a folder of PNG
/// frames at an fps. Times are in seconds, as everywhere in the library.
public struct FrameSequence: Sendable {
    public struct Frame: Sendable {
        public var start: Double
        public var bitmap: Bitmap
        /// Where it came from (a file, or a GIF's frame number), for reports.
        public var label: String

        public init(start: Double, bitmap: Bitmap, label: String) {
            self.start = start
            self.bitmap = bitmap
            self.label = label
        }
    }

    public var frames: [Frame]
    /// When the last frame stops showing, in seconds (0 for a still, which shows at every
    /// time).
    public var duration: Double

    public init(frames: [Frame], duration: Double) {
        self.frames = frames
        self.duration = duration
    }

    /// When frame `i` of a PNG folder starts, in seconds: at `i / fps` rounded to the
    /// centisecond, as a GIF of the same frames shows it, so that one render compares the same
    /// whichever container holds it.
    public static func folderFrameStart(_ i: Int, fps: Double) -> Double {
        (Double(i) * 100 / fps).rounded() / 100
    }

    /// The frame showing at `t` seconds (nil past the end; a single still shows at every time).
    public func frame(at t: Double) -> Frame? {
        Self.index(at: t, starts: frames.map(\.start), duration: duration).map { frames[$0] }
    }

    /// The frame showing at the moment that starts at `t`, as `SequenceComparison` counts
    /// moments: a frame starting less than a centisecond later is that moment's (GIF keeps time
    /// in centiseconds, so a render's frame at 2/30 s starts at 0.07 s in its GIF).
    public func frame(atMoment t: Double) -> Frame? {
        Self.index(atMoment: t, starts: frames.map(\.start), duration: duration).map { frames[$0] }
    }

    /// Which of frames starting at `starts` and ending at `duration` shows at `t`, as
    /// ``frame(at:)`` finds it.
    public static func index(at t: Double, starts: [Double], duration: Double) -> Int? {
        if starts.count == 1 && duration == 0 { return 0 }
        guard t < duration else { return nil }
        return starts.lastIndex { $0 <= t }
    }

    /// Which of frames starting at `starts` shows at the moment that starts at `t`, as
    /// ``frame(atMoment:)`` finds it.
    public static func index(atMoment t: Double, starts: [Double], duration: Double) -> Int? {
        index(at: t + SequenceComparison.sameMoment - 1e-9, starts: starts, duration: duration)
            ?? index(at: t, starts: starts, duration: duration)
    }
}

/// A frame that starts before the frame before it: the file's clock goes back.
public struct FrameOrderError: Error, CustomStringConvertible, Equatable {
    public var frame: String
    public var start: Double
    public var previous: String
    public var previousStart: Double

    public var description: String {
        String(
            format:
                "%@ starts at %.3f s, before %@ (%.3f s): the file's timestamps go back (a clock that restarts); its frames cannot be put in one order",
            frame, start, previous, previousStart)
    }
}

/// Reads a sequence's frames one at a time, in order, each with the time it stops showing,
/// so that memory does not grow with the length. `FrameReader.open` (in Flipbook) reads files.
public final class FrameReader {
    private let read: () throws -> (FrameSequence.Frame, end: Double)?

    /// A reader over whatever `read` gives: each frame with the time it stops showing, then nil.
    /// Frames must come in time order: one that starts before the frame before it (a clock that
    /// restarts, as in some fragmented MP4s) is an error, never a frame quietly skipped.
    public init(read: @escaping () throws -> (FrameSequence.Frame, end: Double)?) {
        var last: FrameSequence.Frame?
        self.read = {
            guard let (frame, end) = try read() else { return nil }
            if let previous = last, frame.start < previous.start - 1e-9 {
                throw FrameOrderError(
                    frame: frame.label, start: frame.start, previous: previous.label,
                    previousStart: previous.start)
            }
            last = frame
            return (frame, end)
        }
    }

    /// A reader over frames already in memory.
    public init(_ sequence: FrameSequence) {
        var i = 0
        let frames = sequence.frames
        let still = frames.count == 1 && sequence.duration == 0
        read = {
            guard i < frames.count else { return nil }
            defer { i += 1 }
            let end = still ? .infinity : i + 1 < frames.count ? frames[i + 1].start : sequence.duration
            return (frames[i], end)
        }
    }

    /// The next frame and when it stops showing (infinity for a still), or nil after the last.
    public func next() throws -> (FrameSequence.Frame, end: Double)? { try read() }

    /// These frames, read on a thread of their own up to `depth` ahead of the caller, so that
    /// decoding and measuring overlap. The same frames and errors, in the same order; the
    /// thread stops when the reader it returns is released, and this reader must not be read
    /// from anywhere else.
    public func readingAhead(depth: Int = 2) -> FrameReader {
        let ahead = ReadAhead(self, depth: depth)
        let consumer = ReadAhead.Consumer(ahead)
        return FrameReader(unchecked: { try consumer.next() })
    }

    private init(unchecked read: @escaping () throws -> (FrameSequence.Frame, end: Double)?) { self.read = read }
}

/// The queue between a reader's own thread and the one that reads from it.
private final class ReadAhead: @unchecked Sendable {
    typealias Item = Result<(FrameSequence.Frame, end: Double)?, any Error>
    private let condition = NSCondition()
    private var queue: [Item] = []
    private var stopped = false
    private var started = false
    private var finished = false
    private let source: FrameReader
    private let depth: Int

    init(_ source: FrameReader, depth: Int) { (self.source, self.depth) = (source, max(1, depth)) }

    /// The reading end: releasing it stops the thread.
    final class Consumer {
        let ahead: ReadAhead
        init(_ ahead: ReadAhead) { self.ahead = ahead }
        func next() throws -> (FrameSequence.Frame, end: Double)? { try ahead.next() }
        deinit { ahead.stop() }
    }

    func next() throws -> (FrameSequence.Frame, end: Double)? {
        condition.lock()
        defer { condition.unlock() }
        if finished { return nil }
        if !started {
            started = true
            Thread { [self] in produce() }.start()
        }
        while queue.isEmpty { condition.wait() }
        let item = queue.removeFirst()
        condition.broadcast()
        switch item {
        case .success(nil), .failure: finished = true
        case .success: break
        }
        return try item.get()
    }

    private func produce() {
        while true {
            condition.lock()
            while queue.count >= depth && !stopped { condition.wait() }
            if stopped {
                condition.unlock()
                return
            }
            condition.unlock()
            let item = Item { try source.next() }
            condition.lock()
            queue.append(item)
            condition.broadcast()
            condition.unlock()
            switch item {
            case .success(nil), .failure: return
            case .success: continue
            }
        }
    }

    func stop() {
        condition.lock()
        stopped = true
        queue.removeAll()
        condition.broadcast()
        condition.unlock()
    }
}
