import Codecs
import Foundation
import Geometry
import Planner
import Raster
import Render
import Scenes
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
        #expect(!exact.passes && exact.differingPixels == 1 && exact.maxChannelDelta == 3 && exact.worstPixel! == (3, 4))
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
        let report = SequenceComparison.compare(try FrameSequence.load(folder + "/a.gif"), try FrameSequence.load(folder + "/frames", fps: 10))
        #expect(report.passes)
        #expect(report.moments.map(\.time) == [0, 100, 200, 300, 400, 500])
    }

    @Test("A sequence that ends early leaves moments on one side only, and fails")
    func oneSided() throws {
        let long = FrameSequence(frames: frames([0, 0xFFFFFF]).enumerated().map { .init(start: Double($0.offset) * 100, bitmap: $0.element, label: "f\($0.offset)") },
                                 duration: 200, source: "long")
        let short = FrameSequence(frames: [.init(start: 0, bitmap: frames([0])[0], label: "f0")], duration: 100, source: "short")
        let report = SequenceComparison.compare(short, long)
        #expect(!report.passes)
        #expect(report.oneSided.count == 1 && report.oneSided[0].time == 100 && report.oneSided[0].actual == nil)
    }
}

@Suite("Bring your own screenshots: the worked example in Assets/examples/byo-notes")
struct BringYourOwnTests {
    static let config = SceneCatalog.installRoot + "/Assets/examples/byo-notes/expanding-cells.yaml"
    static let renderer = try! SceneRenderer(SceneCatalog.prepare("expanding-cells", configFile: config))

    /// The user's @3x screenshot, resampled to @1x by the same raster.
    func downscaled(_ name: String) throws -> Bitmap {
        let texture = Texture(try PNGCodec.read(path: SceneCatalog.installRoot + "/Assets/examples/byo-notes/\(name)"))
        var out = Bitmap(width: 375, height: 667, fill: Color.white.premultiplied)
        out.withView { $0.draw(texture, from: texture.bounds, to: Rect(x: 0, y: 0, width: 375, height: 667)) }
        return out
    }

    @Test("The list and the detail come out of the user's own images, not the built-in ones")
    func usesTheirImages() throws {
        let tolerance = Tolerance(maxChannelDelta: 24, maxDifferingFraction: 0.002)
        let start = FrameComparison.compare(Self.renderer.frame(at: 0), try downscaled("list@3x.png"), tolerance: tolerance)
        #expect(start.passes, "\(start)")
        // After the expand: the detail, with its status bar drawn from the separate strip.
        let detail = FrameComparison.compare(Self.renderer.frame(at: 2.0), try downscaled("detail@3x.png"), tolerance: tolerance)
        #expect(detail.passes, "\(detail)")
        #expect(!FrameComparison.compare(Self.renderer.frame(at: 0), try PNGCodec.read(path: SceneCatalog.installRoot + "/Assets/expanding-cells/list.png")).passes)
    }

    @Test("The example's tapped row (the fourth note) is what grows, on its own 0.5 s, damping-0.85 spring")
    func theirGeometry() {
        let plan = Self.renderer.plan
        let container = plan.layer(named: "container")!
        let spring = Curve.spring(duration: 0.5, damping: 0.85)
        #expect(plan.state(of: container, at: 1.0).frame == Rect(x: 0, y: 244, width: 375, height: 60))
        for t in [0.05, 0.15, 0.3] {
            #expect(abs(plan.state(of: container, at: 1.09 + t).frame.minY - 244 * (1 - spring.progress(at: t))) < 1e-9)
        }
    }

    @Test("Golden: the example mid-expand")
    func golden() throws {
        try Golden.check(Self.renderer.frame(at: 1.2), named: "byo-notes-mid-expand")
    }
}
