import FlipbookTesting
import Codecs
import Comparison
import Foundation
import Geometry
import Planner
import Raster
import Render
import Scenes
import Testing

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
        let start = FrameComparison.compare(
            Self.renderer.frame(at: 0), try downscaled("list@3x.png"), tolerance: tolerance)
        #expect(start.passes, "\(start)")
        // After the expand: the detail, with its status bar drawn from the separate strip.
        let detail = FrameComparison.compare(
            Self.renderer.frame(at: 2.0), try downscaled("detail@3x.png"), tolerance: tolerance)
        #expect(detail.passes, "\(detail)")
        #expect(
            !FrameComparison.compare(
                Self.renderer.frame(at: 0),
                try PNGCodec.read(path: SceneCatalog.installRoot + "/Assets/expanding-cells/list.png")
            ).passes)
    }

    @Test("The example's tapped row (the fourth note) is what grows, on its own 0.5 s, damping-0.85 spring")
    func theirGeometry() {
        let plan = Self.renderer.plan
        let container = plan.layer(named: "container")!
        let spring = Curve.spring(duration: 0.5, damping: 0.85)
        #expect(plan.state(of: container, at: 1.0).frame == Rect(x: 0, y: 244, width: 375, height: 60))
        for t in [0.05, 0.15, 0.3] {
            #expect(abs(plan.state(of: container, at: 1.08 + t).frame.minY - 244 * (1 - spring.progress(at: t))) < 1e-9)
        }
    }

    @Test("Golden: the example mid-expand")
    func golden() throws {
        try assertFrames([Frame(time: 1.2, bitmap: Self.renderer.frame(at: 1.2))], named: "byo-notes-mid-expand")
    }
}
