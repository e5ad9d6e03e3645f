import FlipbookTesting
import Codecs
import Foundation
import Geometry
import Planner
import Raster
import Render
import Scenes
import Testing

@Suite("expanding-view: covering scale, ease-in expansion, goldens")
struct ExpandingViewTests {
    /// The buttons each storyboard taps, as the scene file declares them.
    static let buttons = [
        "bottom": Rect(x: 135, y: 478, width: 50, height: 50), "top-right": Rect(x: 216, y: 109, width: 50, height: 50),
        "left": Rect(x: 18, y: 259, width: 50, height: 50), "small": Rect(x: 145, y: 377, width: 30, height: 30),
    ]

    func plan(_ storyboard: String) throws -> Plan {
        try SceneRenderer(SceneCatalog.prepare("expanding-view", overrides: SceneOverrides(storyboard: storyboard)))
            .plan
    }

    @Test(
        "The grown button's scale S matches the teardown's figures on 320x568",
        arguments: [
            ("bottom", 22.92), ("small", 33.5), ("left", 19.54), ("top-right", 22.54),
        ])
    func coveringScale(storyboard: String, expected: Double) throws {
        let plan = try plan(storyboard)
        #expect(abs(plan.state(of: plan.layer(named: "button")!, at: 0.7 + 0.4).scale - expected) < 0.005)
    }

    @Test(
        "The button's radius follows the 0.4 s ease-in every frame, and covers the screen at the end",
        arguments: ["bottom", "top-right", "left", "small"])
    func easeIn(storyboard: String) throws {
        let plan = try plan(storyboard)
        let button = plan.layer(named: "button")!
        let rect = Self.buttons[storyboard]!
        let s = plan.state(of: button, at: 0.7 + 0.4).scale
        let start = 0.7
        // 12 frames at 30 fps, as measured in all four promo GIFs.
        for k in 0...12 {
            let t = Double(k) / 30
            let p = CubicBezier.easeIn.with(duration: 0.4).progress(at: t)
            let radius = plan.state(of: button, at: start + t).scale * rect.width / 2
            #expect(abs(radius - rect.width / 2 * (1 + (s - 1) * p)) < 1e-9)
        }
        // Covered: every corner of the screen is inside the grown circle.
        let r = s * rect.width / 2, c = rect.center
        for corner in [Point(x: 0, y: 0), Point(x: 320, y: 0), Point(x: 0, y: 568), Point(x: 320, y: 568)] {
            #expect(((corner.x - c.x) * (corner.x - c.x) + (corner.y - c.y) * (corner.y - c.y)).squareRoot() < r)
        }
    }

    @Test("Measured in rendered frames, the radius is within 0.5 pt of the ease-in")
    func radiusInPixels() throws {
        let renderer = try SceneRenderer(
            SceneCatalog.prepare("expanding-view", overrides: SceneOverrides(storyboard: "small")))
        let rect = Self.buttons["small"]!
        let s = 33.5
        for k in [1, 2, 3, 4, 5] {  // by k = 6 the circle passes the screen edge
            let t = Double(k) / 30
            let frame = renderer.frame(at: 0.7 + t)
            // Scan right from the centre (x = 160) to the first pixel not fully orange; its
            // green channel (white 255, orange 101) gives the covered fraction of that pixel.
            let cx = Int(rect.midX), cy = Int(rect.midY)
            var x = cx
            while x < frame.width && frame[x, cy].g <= 102 { x += 1 }
            let coverage = Double(255 - Int(frame[x, cy].g)) / 154
            let measured = Double(x - cx) + coverage
            let expected = rect.width / 2 * (1 + (s - 1) * CubicBezier.easeIn.with(duration: 0.4).progress(at: t))
            #expect(abs(measured - expected) <= 0.5, "k \(k): \(measured) against \(expected)")
        }
    }

    @Test("The next screen fades in above the grown button, which is restored beneath it")
    func fadeOrder() throws {
        let renderer = try SceneRenderer(SceneCatalog.prepare("expanding-view"))
        let list = renderer.plan.sample(at: 1.15, scale: 1)
        #expect(list.commands.map(\.layer) == ["screen", "button", "next", "next-strip", "status-bar"])
        #expect(abs(list.commands[2].alpha - CubicBezier.easeInEaseOut.with(duration: 0.1).progress(at: 0.05)) < 1e-9)
        let rest = renderer.plan.sample(at: 1.5, scale: 1)
        #expect(rest.commands.first { $0.layer == "button" }!.scale == 1)
    }

    /// Each recording's button, and its length in real time (frames / 30: captured at 30 fps).
    static let recordings: [(String, String, Double)] = [
        ("transition-1", "bottom", 81.0 / 30), ("transition-2", "small", 81.0 / 30),
        ("transition-3", "left", 88.0 / 30), ("transition-4", "top-right", 84.0 / 30),
    ]

    @Test(
        "Each recording's storyboard taps its button, expands on screen from frames 24/21/18/16 to +12 as recorded, and lasts as long within 10 %",
        arguments: 0..<4)
    func recordings(index: Int) throws {
        let (storyboard, button, seconds) = Self.recordings[index]
        let plan = try plan(storyboard)
        let layer = plan.layer(named: "button")!
        let firstMoving = [24, 21, 18, 16][index]
        // On screen the button is still in the recording's last frame before it grows, and at
        // its covering size 12 frames later. The tap lands in the frame before, so the first
        // frame that shows the growth is already more than a frame into it, as recorded.
        #expect(plan.state(of: layer, at: Double(firstMoving - 1) / 30).scale == 1)
        #expect(plan.state(of: layer, at: Double(firstMoving) / 30).scale > 1)
        #expect(plan.modelState(of: layer, at: Double(firstMoving - 1) / 30).scale > 1)
        let covering = try self.plan(button).state(of: layer, at: 0.7 + 0.4).scale
        #expect(abs(plan.state(of: layer, at: Double(firstMoving) / 30 + 0.4).scale - covering) < 1e-6)
        #expect(abs(plan.duration - seconds) / seconds < 0.1, "\(plan.duration) s against \(seconds) s")
    }

    @Test(
        "The status bar stays on top in every frame, and the closing screen carries no copy of it",
        arguments: ["bottom", "transition-3"])
    func statusBarOnTop(storyboard: String) throws {
        let plan = try plan(storyboard)
        for t in stride(from: 0.0, through: plan.duration, by: 1.0 / 30) {
            let list = plan.sample(at: t, scale: 1)
            #expect(list.commands.last?.layer == "status-bar", "t \(t)")
            if let next = list.commands.first(where: { $0.layer == "next" }) { #expect(next.rect.minY >= 20 - 1e-9) }
        }
    }

    @Test(
        "As the next screen closes, its white top slides with it, so nothing under shows through",
        arguments: ["bottom", "transition-4"])
    func closingScreenHasItsTop(storyboard: String) throws {
        let plan = try plan(storyboard)
        var closing = 0
        for t in stride(from: 0.0, through: plan.duration, by: 1.0 / 60) {
            let list = plan.sample(at: t, scale: 2)
            guard let next = list.commands.first(where: { $0.layer == "next" }), next.rect.minY > 40 + 1e-6,
                next.rect.minY < list.size.height, next.alpha > 0.99
            else { continue }
            closing += 1
            let strip = try #require(list.commands.first { $0.layer == "next-strip" }, "t \(t)")
            // The status bar's 20 pt above the screen's top, at 2x, meeting it.
            #expect(strip.alpha > 0.99 && abs(strip.rect.minY - (next.rect.minY - 40)) < 1e-6, "t \(t)")
            #expect(abs(strip.rect.maxY - next.rect.minY) < 1e-6, "t \(t)")
            let order = list.commands.map(\.layer)
            #expect(order.firstIndex(of: "next-strip")! > order.firstIndex(of: "next")!, "t \(t)")
        }
        #expect(closing >= 10, "\(closing) instants of the close")
    }

    @Test(
        "Golden frames: mid-expand, the next screen, mid-close",
        arguments: [("mid-expand", 0.95), ("next", 1.5), ("mid-close", 2.3)])
    func goldens(name: String, t: Double) throws {
        let renderer = try SceneRenderer(SceneCatalog.prepare("expanding-view"))
        try assertFrames([Frame(time: t, bitmap: renderer.frame(at: t))], named: "expanding-view-\(name)")
    }
}
