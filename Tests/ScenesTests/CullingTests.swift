import Geometry
import Planner
import Raster
import Render
import Scenes
import Testing

@Suite("Compositor: skipping draws hidden under a full-frame opaque draw changes no byte")
struct CullingTests {
    @Test("Culled and full renders are identical at 12 times", arguments: ["expanding-cells", "sliding-panels", "expanding-view", "app-store-card"])
    func culledEqualsFull(scene: String) throws {
        let renderer = try SceneRenderer(SceneCatalog.prepare(scene))
        var culledSomething = false
        for k in 0..<12 {
            let t = renderer.plan.duration * Double(k) / 11
            let list = renderer.plan.sample(at: t, scale: 1)
            let size = (Int(list.size.width.rounded()), Int(list.size.height.rounded()))
            var culled = Bitmap(width: size.0, height: size.1, fill: renderer.scene.settings.background.premultiplied)
            var full = culled
            culled.withView { renderer.compositor.draw(list, into: $0, culling: true) }
            full.withView { renderer.compositor.draw(list, into: $0, culling: false) }
            #expect(culled == full, "\(scene) at \(t) s")
            let frame = Rect(x: 0, y: 0, width: Double(size.0), height: Double(size.1))
            if list.commands.dropFirst().contains(where: { renderer.compositor.covers($0, frame) }) { culledSomething = true }
        }
        if scene == "sliding-panels" { #expect(culledSomething) }
    }
}

@Suite("Renderer: frames that repeat the draw list before them are not rasterized again")
struct RepeatedFrameTests {
    @Test("Every frame equals its own render, and holds are not rasterized", arguments: ["expanding-cells", "expanding-view"])
    func repeatsEqualRenders(scene: String) throws {
        let renderer = try SceneRenderer(SceneCatalog.prepare(scene))
        let times = renderer.times(fps: 6)
        var frames: [Bitmap] = []
        let stats = try renderer.render(times: times, threads: 2) { _, frame in frames.append(frame) }
        #expect(frames.count == times.count && stats.frames == times.count)
        #expect(stats.rasterized < stats.frames, "\(stats.rasterized) of \(stats.frames) rasterized")
        for (t, frame) in zip(times, frames) {
            #expect(frame == renderer.frame(at: t), "\(scene) at \(t) s")
        }
    }
}
