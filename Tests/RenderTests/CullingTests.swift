import Geometry
import Planner
import Raster
@testable import Render
import Scenes
import Testing

@Suite("Compositor: skipping pixels that later draws paint opaquely changes no byte")
struct CullingTests {
    @Test(
        "Culled and full renders are identical at 24 times, background included",
        arguments: ["expanding-cells", "sliding-panels", "expanding-view", "app-store-card"])
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
            hiddenPixels += hidden.rects.reduce(0) {
                $0 + $1.intersection(full.bounds).width * $1.intersection(full.bounds).height
            }
        }
        // Every scene draws something under an opaque draw (a card's white fill under its
        // photo, a list under the detail screen, rows under the growing circle).
        #expect(hiddenPixels > 0, "\(scene): nothing was hidden")
    }
}

@Suite("Renderer: holds are not rasterized again, and other frames redraw only what changed")
struct RepeatedFrameTests {
    @Test(
        "Every frame equals its own whole render, for one render lane (on the caller's thread) and two",
        arguments: ["expanding-cells", "sliding-panels", "expanding-view", "app-store-card"], [1, 2])
    func framesEqualWholeRenders(scene: String, threads: Int) throws {
        let renderer = try SceneRenderer(SceneCatalog.prepare(scene))
        let times = renderer.times(fps: 6)
        var frames: [Bitmap] = []
        let stats = try renderer.render(times: times, threads: threads) { _, frame in frames.append(frame) }
        #expect(frames.count == times.count && stats.frames == times.count)
        #expect(stats.rasterized < stats.frames, "\(stats.rasterized) of \(stats.frames) rasterized")
        // expanding-cells moves nearly every pixel in each frame that changes at all: the
        // rows slide apart as the detail grows, and the pull moves the whole detail.
        if scene != "expanding-cells" {
            #expect(stats.redrawnInPart > 0, "\(stats.redrawnInPart) of \(stats.rasterized) redrawn in part")
        }
        for (t, frame) in zip(times, frames) {
            #expect(frame == renderer.frame(at: t), "\(scene) at \(t) s, \(threads) lanes")
        }
    }

    @Test(
        "Pixels that differ between two frames lie inside their damage",
        arguments: ["expanding-cells", "sliding-panels", "expanding-view", "app-store-card"])
    func damageHoldsEveryChange(scene: String) throws {
        let renderer = try SceneRenderer(SceneCatalog.prepare(scene))
        let lists = renderer.times(fps: 8).map { renderer.plan.sample(at: $0, scale: 1) }
        var smaller = 0
        for (a, b) in zip(lists, lists.dropFirst()) {
            guard let damage = renderer.compositor.damage(from: a, to: b) else { continue }
            let (before, after) = (renderer.compositor.render(a), renderer.compositor.render(b))
            if damage.area < after.bounds.area { smaller += 1 }
            for y in 0..<after.height {
                for x in 0..<after.width where before[x, y] != after[x, y] {
                    #expect(
                        damage.contains(PixelRect(x: x, y: y, width: 1, height: 1)),
                        "\(scene) at \(b.time) s: (\(x), \(y)) changed outside \(damage)")
                }
            }
        }
        #expect(smaller > 0)
    }
}
