import Synchronization
import struct Flipbook.Bitmap
import class Flipbook.FrameReader
import struct Flipbook.FrameSequence

/// A recording read once, a frame at a time, keeping of each frame only what a measurement
/// takes from it: memory goes with what is kept, not with the frames' size or number. It
/// refuses what a fit or a score cannot read (fewer than two frames, frames of two sizes, past
/// `Fitter.maximumFrames` or `Fitter.maximumSeconds`), stopping as soon as it knows.
struct RecordingPass<Kept> {
    /// When each frame starts, retimed as asked, and when the last one stops showing.
    let starts: [Double]
    let duration: Double
    /// The frames' size.
    let width: Int
    let height: Int
    /// What was kept of each frame; a frame the same as the one before shares its.
    let kept: [Kept]
    /// The capture's likely rate, where the file's times misstate it and no interval is given.
    let suspectedRate: CaptureRate?

    /// `keep` makes what is kept of a frame; `settle`, told when the frame shows (the file's
    /// own times) once the next one comes, may drop what it no longer needs.
    init(
        _ reader: FrameReader, frameInterval: Double?,
        settle: ((inout Kept, _ start: Double, _ end: Double) -> Void)? = nil, keep: (Bitmap) throws -> Kept
    ) throws {
        try self.init(reader, frameInterval: frameInterval, settle: settle) { bitmap, _, _, _ in try keep(bitmap) }
    }

    /// As above, `keep` told too the frame's index and when it shows by the file's own times
    /// (its start, and the next frame's); a frame the same as the one before shares its kept
    /// value instead.
    init(
        _ reader: FrameReader, frameInterval: Double?,
        settle: ((inout Kept, _ start: Double, _ end: Double) -> Void)? = nil,
        keep: (Bitmap, _ index: Int, _ start: Double, _ end: Double) throws -> Kept
    ) throws {
        var starts: [Double] = [], kept: [Kept] = [], end = 0.0
        var last: Bitmap?
        let reader = reader.readingAhead()
        while let (frame, until) = try reader.next() {
            let b = frame.bitmap
            if let first = last, (b.width, b.height) != (first.width, first.height) {
                throw FitError.frameSize(
                    frame: starts.count, width: b.width, height: b.height, firstWidth: first.width,
                    firstHeight: first.height)
            }
            // Only a file's own times bound it as it is read; a retimed one is checked at the end.
            if starts.count == Fitter.maximumFrames || (frameInterval == nil && frame.start > Fitter.maximumSeconds) {
                throw FitError.tooLong(frames: starts.count + 1, seconds: frame.start)
            }
            kept.append(try last == b ? kept[kept.count - 1] : keep(b, starts.count, frame.start, until))
            if let settle, let previous = starts.last { settle(&kept[kept.count - 2], previous, frame.start) }
            starts.append(frame.start)
            last = b
            end = until
        }
        guard starts.count >= 2, let first = last else { throw FitError.tooShort(frames: starts.count) }
        let (retimed, duration) = CaptureRate.retimed(
            starts: starts, duration: end.isFinite ? end : 0, interval: frameInterval)
        guard duration <= Fitter.maximumSeconds else {
            throw FitError.tooLong(frames: starts.count, seconds: duration)
        }
        self.starts = retimed
        self.duration = duration
        (width, height) = (first.width, first.height)
        self.kept = kept
        suspectedRate = frameInterval == nil ? CaptureRate.suspected(starts: starts) : nil
    }

    /// The frame showing at the moment that starts at `t` (as `FrameSequence.frame(atMoment:)`).
    func index(atMoment t: Double) -> Int? { FrameSequence.index(atMoment: t, starts: starts, duration: duration) }
}

extension RecordingPass: Sendable where Kept: Sendable {}

/// The passes fits have made over one recording, by how they read it: fits of one recording
/// with other values or keys (a scene's tries) read its frames once.
final class FitPasses: Sendable {
    typealias Pass = RecordingPass<(picture: LumaImage, thumbnail: LumaImage)>
    struct Key: Hashable {
        var crop: Crop?
        var frameInterval: Double?
        var height: Int
    }
    private let passes = Mutex<[Key: Pass]>([:])

    /// How many passes it holds.
    var count: Int { passes.withLock { $0.count } }

    /// The pass read as `key` says, made by `make` the first time.
    func pass(_ key: Key, _ make: () throws -> Pass) throws -> Pass {
        if let known = passes.withLock({ $0[key] }) { return known }
        let made = try make()
        passes.withLock { $0[key] = made }
        return made
    }

    /// A pass's pictures as the search for the recording's start compares them
    /// (`Problem.small`, `Problem.blurredSmall`), by the pass, their height and whether blurred.
    struct SmallKey: Hashable {
        var pass: Key
        var height: Int
        var blurred: Bool
    }
    typealias Small = (small: [LumaImage], blurred: [LumaImage])
    private let smalls = Mutex<[SmallKey: Small]>([:])

    /// The small pictures `key` names, made by `make` the first time: every try of a change
    /// starts its search on the same ones.
    func small(_ key: SmallKey, _ make: () -> Small) -> Small {
        if let known = smalls.withLock({ $0[key] }) { return known }
        let made = make()
        smalls.withLock { $0[key] = made }
        return made
    }
}

/// A recording read again in order, for the pictures that show it: frame `i` of a first pass,
/// asked for in order, holding one frame at a time.
final class RecordingRereader {
    private let reader: FrameReader
    private var index = -1
    private var current: Bitmap?

    init(_ reader: FrameReader) { self.reader = reader.readingAhead() }

    /// Frame `i`, at or after the last one asked for.
    func frame(_ i: Int) throws -> Bitmap {
        precondition(i >= index)
        while index < i {
            guard let (frame, _) = try reader.next() else { throw FitError.changedWhileRead(frame: i) }
            current = frame.bitmap
            index += 1
        }
        return current!
    }
}
