@testable import Render
import Dispatch
import Codecs
import Foundation
import Geometry
import Raster
import Flipbook
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
        for _ in 0..<3 {
            DispatchQueue.global().async(group: group) {
                gate.wait()
                released.update { $0 += 1 }
            }
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
