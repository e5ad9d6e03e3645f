import Geometry
import Planner
import Raster
import Render
import Scenes
import Testing

@Suite("Compositor: skipping pixels that later draws paint opaquely changes no byte")
struct CullingTests {
    @Test("Culled and full renders are identical at 24 times, background included", arguments: ["expanding-cells", "sliding-panels", "expanding-view", "app-store-card"])
    func culledEqualsFull(scene: String) throws {
        let renderer = try SceneRenderer(SceneCatalog.prepare(scene))
        var hiddenPixels = 0
        for k in 0..<24 {
            let t = renderer.plan.duration * Double(k) / 23
            let list = renderer.plan.sample(at: t, scale: 1)
            let size = (Int(list.size.width.rounded()), Int(list.size.height.rounded()))
            var full = Bitmap(width: size.0, height: size.1, fill: renderer.scene.settings.background.premultiplied)
            var culled = full
            culled.withView { renderer.compositor.draw(list, into: $0, culling: true) }
            full.withView { renderer.compositor.draw(list, into: $0, culling: false) }
            #expect(culled == full, "\(scene) at \(t) s")
            // render() also leaves the background unpainted where commands hide it.
            #expect(renderer.compositor.render(list) == full, "\(scene) at \(t) s, render")
            let hidden = renderer.compositor.occlusions(list.commands)[1]
            hiddenPixels += hidden.rects.reduce(0) { $0 + $1.intersection(full.bounds).width * $1.intersection(full.bounds).height }
        }
        // Every scene draws something under an opaque draw (a card's white fill under its
        // photo, a list under the detail screen, rows under the growing circle).
        #expect(hiddenPixels > 0, "\(scene): nothing was hidden")
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
