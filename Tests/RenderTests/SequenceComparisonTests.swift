@testable import Render
@testable import Comparison
import Dispatch
import Codecs
import Foundation
import Geometry
import Raster
@testable import Flipbook
import Testing

@Suite("Frame and sequence comparison (the API flipbook compare and the goldens use)")
struct ComparisonTests {
    func frames(_ colours: [UInt32], width: Int = 8) -> [Bitmap] {
        colours.map { Bitmap(width: width, height: 4, fill: Color(rgb: $0).premultiplied) }
    }

    @Test("Exact by default; a channel tolerance, a pixel fraction and a perceptual threshold each loosen it")
    func tolerances() {
        let a = Bitmap(width: 10, height: 10, fill: Color(rgb: 0x808080).premultiplied)
        var b = a
        b[3, 4] = Color(rgb: 0x838080).premultiplied
        let exact = FrameComparison.compare(b, a)
        #expect(
            !exact.passes && exact.differingPixels == 1 && exact.maxChannelDelta == 3 && exact.worstPixel! == (3, 4))
        #expect(FrameComparison.compare(b, a, tolerance: Tolerance(maxChannelDelta: 3)).passes)
        #expect(!FrameComparison.compare(b, a, tolerance: Tolerance(maxChannelDelta: 2)).passes)
        #expect(FrameComparison.compare(b, a, tolerance: Tolerance(maxDifferingFraction: 0.01)).passes)
        #expect(!FrameComparison.compare(b, a, tolerance: Tolerance(maxDifferingFraction: 0.009)).passes)
        let perceptual = Tolerance(perceptual: 2)
        #expect(FrameComparison.compare(b, a, tolerance: perceptual).passes)  // ΔE ≈ 1.1
        b[5, 5] = Color(rgb: 0xFF0000).premultiplied
        #expect(!FrameComparison.compare(b, a, tolerance: perceptual).passes)
    }

    @Test("Frames match by time: a GIF whose holds merged still equals its source frames")
    func mergedHolds() throws {
        let folder = NSTemporaryDirectory() + "cmp-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder + "/frames", withIntermediateDirectories: true)
        let source = frames([0x000000, 0x000000, 0x000000, 0xFFFFFF, 0xFFFFFF, 0x3067F4])
        for (i, f) in source.enumerated() { try PNGCodec.write(f, to: "\(folder)/frames/\(i).png") }
        var options = GIFOptions()
        options.dithering = 0
        let encoder = try GIFEncoder(path: folder + "/a.gif", width: 8, height: 4, options: options)
        for (i, f) in source.enumerated() { try encoder.add(f, at: Double(i) / 10) }
        #expect(try encoder.finish(at: 0.6).frames == 3)
        let report = SequenceComparison.compare(
            try FrameSequence.load(folder + "/a.gif"), try FrameSequence.load(folder + "/frames", fps: 10))
        #expect(report.passes)
        #expect(report.moments.map(\.time) == [0, 0.1, 0.2, 0.3, 0.4, 0.5])
    }

    @Test("A sequence that ends early leaves moments on one side only, and fails")
    func oneSided() throws {
        let long = FrameSequence(
            frames: frames([0, 0xFFFFFF]).enumerated().map {
                .init(start: Double($0.offset) / 10, bitmap: $0.element, label: "f\($0.offset)")
            },
            duration: 0.2)
        let short = FrameSequence(
            frames: [.init(start: 0, bitmap: frames([0])[0], label: "f0")], duration: 0.1)
        let report = SequenceComparison.compare(short, long)
        #expect(!report.passes)
        #expect(report.oneSided.count == 1 && report.oneSided[0].time == 0.1 && report.oneSided[0].actual == nil)
    }

    @Test(
        "At a render's frame time, a GIF of it shows that frame: a start less than a centisecond later is the same moment",
        arguments: 0..<7)
    func sameMoment(k: Int) {
        // A 30 fps render's GIF: frame k starts at k/30 s rounded to the centisecond (0, 0.03,
        // 0.07, 0.1, …), sometimes after k/30 itself.
        let gif = FrameSequence(
            frames: (0..<7).map {
                .init(
                    start: FrameSequence.folderFrameStart($0, fps: 30), bitmap: Bitmap(width: 1, height: 1),
                    label: "f\($0)")
            },
            duration: 7.0 / 30)
        let t = Double(k) / 30
        #expect(gif.frame(atMoment: t)?.label == "f\(k)")
        // Half way to the next frame, still the one that started.
        #expect(gif.frame(atMoment: t + 1.0 / 60)?.label == "f\(k)")
    }
}

@Suite("The renderer's plumbing: gates, and readers over frames in memory")
struct RenderPlumbingTests {
    @Test("A gate counts like a semaphore until it is opened, then lets every waiter through")
    func gate() {
        let gate = CountingGate(1)
        gate.wait()  // takes the one
        let released = Locked(0)
        let group = DispatchGroup()
        // Threads of its own: a waiter queued on Dispatch's global pool can sit unstarted for
        // seconds while other suites hold that pool's threads.
        for _ in 0..<3 {
            group.enter()
            Thread {
                gate.wait()
                released.update { $0 += 1 }
                group.leave()
            }.start()
        }
        gate.signal()
        // One waiter gets the signal, and only one, however long the others wait.
        for _ in 0..<500 where released.value == 0 { Thread.sleep(forTimeInterval: 0.01) }
        Thread.sleep(forTimeInterval: 0.1)
        #expect(released.value == 1)
        gate.open()
        #expect(group.wait(timeout: .now() + 5) == .success)
        #expect(released.value == 3)
    }

    @Test("A reader over a sequence ends each frame where the next starts, and a still never")
    func readerEnds() throws {
        let bitmap = Bitmap(width: 1, height: 1)
        let sequence = FrameSequence(
            frames: [.init(start: 0, bitmap: bitmap, label: "a"), .init(start: 0.03, bitmap: bitmap, label: "b")],
            duration: 0.1)
        let reader = FrameReader(sequence)
        #expect(try reader.next()?.end == 0.03)
        #expect(try reader.next()?.end == 0.1)
        #expect(try reader.next() == nil)
        let still = FrameReader(
            FrameSequence(frames: [.init(start: 0, bitmap: bitmap, label: "x")], duration: 0))
        #expect(try still.next()?.end == .infinity)
    }

    @Test("Read ahead: the same frames and errors in order, at most its depth ahead, stopping when released")
    func readAhead() throws {
        /// A reader of `count` frames that fails at `failing`, counting the frames it was asked for.
        func source(_ count: Int, failing: Int? = nil, asked: Locked<Int>) -> FrameReader {
            FrameReader {
                let i = asked.value
                asked.update { $0 += 1 }
                if i == failing { throw FrameOrderError(frame: "\(i)", start: 0, previous: "", previousStart: 0) }
                guard i < count else { return nil }
                let b = Bitmap(width: 2, height: 1, fill: PremultipliedColor(r: UInt8(i), g: 0, b: 0, a: 255))
                return (.init(start: Double(i) / 10, bitmap: b, label: "\(i)"), Double(i + 1) / 10)
            }
        }
        let asked = Locked(0)
        let ahead = source(40, asked: asked).readingAhead(depth: 3)
        var seen: [(String, Double, UInt8)] = []
        while let (frame, end) = try ahead.next() {
            seen.append((frame.label, end, frame.bitmap.pixels[0]))
            #expect(asked.value <= seen.count + 3 + 1)
        }
        #expect(seen.map(\.0) == (0..<40).map { "\($0)" })
        let tenths: [Double] = (1...40).map { (i: Int) -> Double in Double(i) / 10 }
        #expect(seen.map(\.1) == tenths)
        #expect(seen.map(\.2) == (0..<40).map { UInt8($0) })
        #expect(try ahead.next() == nil)

        let failing = source(40, failing: 5, asked: Locked(0)).readingAhead()
        for i in 0..<5 { #expect(try failing.next()?.0.label == "\(i)") }
        #expect(throws: FrameOrderError.self) { try failing.next() }
        #expect(try failing.next() == nil)

        // Released after three frames: it reads no further than its depth past them.
        let early = Locked(0)
        do {
            let reader = source(1000, asked: early).readingAhead(depth: 2)
            for _ in 0..<3 { _ = try reader.next() }
        }
        Thread.sleep(forTimeInterval: 0.2)
        let settled = early.value
        Thread.sleep(forTimeInterval: 0.2)
        #expect(settled <= 3 + 2 + 1 && early.value == settled, "\(settled) then \(early.value)")
    }
}

/// A value shared between threads under a lock.
final class Locked<T>: @unchecked Sendable {
    private var stored: T
    private let lock = NSLock()
    init(_ value: T) { stored = value }
    var value: T { lock.withLock { stored } }
    func update(_ change: (inout T) -> Void) { lock.withLock { change(&stored) } }

}

@Suite("A comparison of nothing")
struct NothingComparedReportTests {
    @Test("A comparison of no moment (no frame on either side) does not pass")
    func nothingCompared() {
        let none = FrameSequence(frames: [], duration: 0)
        let report = SequenceComparison.compare(none, none)
        #expect(report.moments.isEmpty)
        #expect(!report.passes)
    }
}

/// Timing is compared as a browser plays it: when the last frame ends, frames asking for 10 ms
/// or less, and clocks that go back.
@Suite("Comparison sees every timing change a browser would show")
struct TimingComparisonTests {
    func frame(_ rgb: UInt32, _ start: Double, _ label: String) -> FrameSequence.Frame {
        FrameSequence.Frame(
            start: start, bitmap: Bitmap(width: 4, height: 4, fill: Color(rgb: rgb).premultiplied), label: label)
    }

    @Test("0.5 s + 0.5 s against 0.5 s + 5 s differs, from the moment the shorter one ends")
    func lastFrameHeld() {
        let short = FrameSequence(frames: [frame(0x000000, 0, "a0"), frame(0xFFFFFF, 0.5, "a1")], duration: 1)
        let long = FrameSequence(frames: [frame(0x000000, 0, "b0"), frame(0xFFFFFF, 0.5, "b1")], duration: 5.5)
        let report = SequenceComparison.compare(short, long)
        #expect(!report.passes)
        #expect(
            report.firstFailure?.time == 1 && report.firstFailure?.actual == nil
                && report.firstFailure?.expected == "b1")
        #expect(SequenceComparison.compare(long, long).passes)
        // A still has no end: a one-frame GIF and its PNG match.
        let still = FrameSequence(frames: [frame(0x123456, 0, "s")], duration: 0)
        #expect(SequenceComparison.compare(still, still).passes)
    }

    @Test("A frame asking for 0 or 10 ms plays for 100 ms; 20 ms is kept; one frame is a still")
    func browserDelays() throws {
        func read(_ asked: [Int]) throws -> [(Double, Double)] {
            var left = asked.map { (Bitmap(width: 1, height: 1), $0) }
            let reader = FrameReader.browserTimed { left.isEmpty ? nil : left.removeFirst() }
            var out: [(Double, Double)] = []
            while let (f, end) = try reader.next() { out.append((f.start, end)) }
            return out
        }
        #expect(try read([500, 0, 500]).map(\.0) == [0, 0.5, 0.6])
        #expect(try read([500, 0, 500]).last?.1 == 1.1)
        #expect(try read([10, 20]).map(\.1) == [0.1, 0.12])
        let one = try read([0])
        #expect(one.count == 1 && one[0].0 == 0 && one[0].1 == .infinity)
    }

    @Test("A white frame of no delay between two holds differs from the file without it")
    func zeroDelayFrameShows() throws {
        let without = FrameSequence(frames: [frame(0x000000, 0, "a0"), frame(0x000000, 0.5, "a1")], duration: 1)
        let with = FrameSequence(
            frames: [frame(0x000000, 0, "b0"), frame(0xFFFFFF, 0.5, "b1"), frame(0x000000, 0.6, "b2")], duration: 1.1)
        #expect(!SequenceComparison.compare(without, with).passes)
    }

    @Test("A clock that goes back (a fragmented MP4 that restarts) is an error, never frames dropped")
    func clockGoesBack() throws {
        var starts = [0.0, 0.1, 0.2, 0.0, 0.1]
        var i = 0
        let reader = FrameReader {
            guard !starts.isEmpty else { return nil }
            defer { i += 1 }
            let start = starts.removeFirst()
            return (
                FrameSequence.Frame(start: start, bitmap: Bitmap(width: 1, height: 1), label: "frame \(i)"), start + 0.1
            )
        }
        let other = FrameReader(FrameSequence(frames: [frame(0, 0, "x")], duration: 0.5))
        #expect(throws: FrameOrderError(frame: "frame 3", start: 0, previous: "frame 2", previousStart: 0.2)) {
            _ = try SequenceComparison.compare(reader, other)
        }
    }
}
