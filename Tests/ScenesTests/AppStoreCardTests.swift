import FlipbookTesting
import Foundation
import Geometry
import Planner
import Raster
import Render
import Scenes
import Testing

@Suite("app-store-card, newer version: two curves at once, interactive dismiss, goldens")
struct AppStoreCardTests {
    static let renderer = try! SceneRenderer(
        SceneCatalog.prepare("app-store-card", overrides: SceneOverrides(storyboard: "newer")))
    var plan: Plan { Self.renderer.plan }
    let card1 = Rect(x: 20, y: 40, width: 335, height: 402), card2 = Rect(x: 20, y: 462, width: 335, height: 402)

    /// The present's spring for a card `distance` points down, by the rule the scene documents:
    /// damping 1 − 0.3·distance/height within 0.7...1, duration 0.5 + 0.4·distance/height within 0.5...0.9.
    func presentSpring(distance: Double) -> (damping: Double, duration: Double) {
        let f = abs(distance) / 667
        return (min(1, max(0.7, 1 - 0.3 * f)), min(0.9, max(0.5, 0.5 + 0.4 * f)))
    }

    @Test(
        "Present damping and duration follow the distance travelled: the card's position is on that spring",
        arguments: [
            (0.0, 1.0, 0.5), (40.0, 0.98201, 0.52399), (333.5, 0.85, 0.7), (462.0, 0.79220, 0.77706),
            (666.0, 0.70045, 0.89940),
        ])
    func presentRule(distance: Double, damping: Double, duration: Double) throws {
        let scene = try SceneCatalog.prepare(
            "app-store-card", assignments: ["layout.card1=[20,\(distance),335,402]"],
            overrides: SceneOverrides(storyboard: "first-card"))
        let plan = try SceneRenderer(scene).plan
        let layer = plan.layer(named: "card-1")!
        let spring = Curve.spring(duration: duration, damping: damping), start = 0.8 + 0.5 + 0.15
        let midY = distance + 201
        // The card's position is in its anchor's coordinates: the slot's top, across the screen.
        for t in stride(from: 0.05, through: duration, by: duration / 7) {
            #expect(
                abs(
                    plan.modelState(of: layer, at: start + t).position.y + distance
                        - (midY + (333.5 - midY) * spring.progress(at: t))) < 0.01, "t \(t)")
        }
        #expect(plan.modelState(of: layer, at: start + duration + 1e-3).position.y + distance == 333.5)
    }

    /// When card `i` starts presenting: rest, press, hold (and for the second card, all of the first's turn).
    func presentStart(_ i: Int) -> Double {
        let first = 0.8 + 0.5 + 0.15
        if i == 0 { return first }
        let (_, d0) = presentSpring(distance: 40)
        return first + d0 + 1.2 + 0.45 + 0.6 + 0.8 + 0.5 + 0.15
    }

    @Test(
        "The card's position is on its spring while its size and corners run linearly over 0.6 of it",
        arguments: [0, 1])
    func twoCurves(card: Int) {
        let slot = card == 0 ? card1 : card2
        let (damping, duration) = presentSpring(distance: slot.minY)
        let spring = Curve.spring(duration: duration, damping: damping),
            linear = Curve.bezier(.linear, duration: 0.6 * duration)
        let layer = plan.layer(named: "card-\(card + 1)")!
        let t0 = presentStart(card)
        for t in stride(from: 0.0, through: duration, by: duration / 9) {
            let s = plan.modelState(of: layer, at: t0 + t)
            let k = spring.progress(at: t), m = linear.progress(at: t)
            #expect(abs(s.position.y + slot.minY - (slot.midY + (333.5 - slot.midY) * k)) < 1e-6, "t \(t)")
            #expect(abs(s.size.width - (335 + 40 * m)) < 1e-6 && abs(s.size.height - (402 + 265 * m)) < 1e-6)
            #expect(abs(s.cornerRadius - 16 * (1 - m)) < 1e-6)
        }
        #expect(
            plan.modelState(of: layer, at: t0 + duration + 1e-9).frame
                == Rect(x: 0, y: -slot.minY, width: 375, height: 667))
    }

    @Test(
        "Dragging shrinks the card linearly to 0.86 with rounded corners; at progress 1 it flies back on 0.6 s, damping 0.7"
    )
    func dragDismiss() {
        let layer = plan.layer(named: "card-1")!
        let (_, d0) = presentSpring(distance: 40)
        let dragStart = presentStart(0) + d0 + 1.2
        let track = GestureTrack(pressAt: .zero).dragging(by: 0, 100, over: 0.45, easing: .easeIn)
        for t in stride(from: 0.0, through: 0.45, by: 0.05) {
            let p = track.translation(at: t).y / 100
            let s = plan.modelState(of: layer, at: dragStart + t)
            #expect(abs(s.scale - (1 - 0.14 * p)) < 1e-9 && abs(s.cornerRadius - 16 * p) < 1e-9)
        }
        let back = Curve.spring(duration: 0.6, damping: 0.7)
        let released = dragStart + 0.45
        for t in [0.1, 0.3, 0.5] {
            let s = plan.modelState(of: layer, at: released + t)
            #expect(abs(s.position.y + card1.minY - (333.5 + (241 - 333.5) * back.progress(at: t))) < 1e-6)
        }
        #expect(
            plan.modelState(of: layer, at: released + 0.6 + 1e-9).frame == Rect(x: 20, y: 0, width: 335, height: 402))
    }

    @Test("Press scales the card to 0.96 on a 0.5 s damping-1 spring")
    func press() {
        let layer = plan.layer(named: "card-1")!
        let spring = Curve.spring(duration: 0.5, damping: 1)
        for t in [0.05, 0.15, 0.3] {
            #expect(abs(plan.modelState(of: layer, at: 0.8 + t).scale - (1 - 0.04 * spring.progress(at: t))) < 1e-9)
        }
    }

    @Test(
        "Golden frames: pressed, mid-present, detail, mid-drag, second card edge pan",
        arguments: [
            ("pressed", 1.2), ("mid-present", 1.6), ("detail", 2.5), ("mid-drag", 3.4), ("edge-pan", 7.9),
        ])
    func goldens(name: String, t: Double) throws {
        try assertFrames([Frame(time: t, bitmap: Self.renderer.frame(at: t))], named: "app-store-card-\(name)")
    }
}

/// The promo storyboard: the older demo's own parameters, and the recording's phases.
@Suite("app-store-card, older demo (promo): a 0.5 s damping-0.8 position spring beside a 0.48 s size curve")
struct AppStoreCardOlderDemoTests {
    static let renderer = try! SceneRenderer(SceneCatalog.prepare("app-store-card"))
    var plan: Plan { Self.renderer.plan }
    let card1 = Rect(x: 20, y: 40, width: 335, height: 402)
    /// Rest 0.37 s, then the finger is down 0.59 s before the present starts.
    let presentStart = 0.37 + 0.59

    @Test(
        "The top on a 0.5 s, damping-0.8 spring while the left edge, width, height and corners run 0.48 s ease-in-out (the card stays centred)"
    )
    func twoBlocks() {
        let anchor = plan.layer(named: "anchor-1")!, layer = plan.layer(named: "card-1")!
        let position = Curve.spring(duration: 0.5, damping: 0.8), size = Curve.bezier(.easeInEaseOut, duration: 0.48)
        for t in stride(from: 0.0, through: 0.5, by: 0.025) {
            let k = position.progress(at: t), m = size.progress(at: t)
            let top = plan.modelState(of: anchor, at: presentStart + t).position
            #expect(top.x == 0 && abs(top.y - card1.minY * (1 - k)) < 1e-6, "t \(t)")
            let s = plan.modelState(of: layer, at: presentStart + t)
            #expect(
                abs(s.frame.minX - 20 * (1 - m)) < 1e-6 && abs(s.frame.minY) < 1e-9
                    && abs(s.size.width - (335 + 40 * m)) < 1e-6 && abs(s.cornerRadius - 16 * (1 - m)) < 1e-6,
                "t \(t)")
        }
    }

    @Test(
        "As recorded, the second card's top overshoots the screen's by about 6 pt and is back within 0.45 s; the write-up's spring would overshoot by 75"
    )
    func overshoot() throws {
        // The present's 0.5 s, the detail's 0.427, the drag's 0.6, the fly-back's 0.6, the home
        // screen's 0.263 and the second press's 0.41.
        let secondStart = presentStart + 0.5 + 0.427 + 0.6 + 0.6 + 0.263 + 0.41
        let anchor = plan.layer(named: "anchor-2")!
        let tops = (0...100).map { plan.modelState(of: anchor, at: secondStart + Double($0) / 100).position.y }
        #expect(tops.min()! < -5 && tops.min()! > -8, "top \(tops.min()!)")
        #expect(abs(tops[45]) < 1.5)
        let written = try SceneRenderer(
            SceneCatalog.prepare("app-store-card", overrides: SceneOverrides(storyboard: "write-up"))
        ).plan
        let writtenTop = (0...100).map { written.state(of: anchor, at: secondStart + Double($0) / 100).position.y }
            .min()!
        #expect(writtenTop < -70, "\(writtenTop)")
    }

    @Test(
        "As recorded, the old demo's second card glides into its slot after the edge pan (under 3 pt past it); the newer version's dismiss would drop it 19 pt below and spring back"
    )
    func edgeDismissGlides() throws {
        let config = SceneCatalog.installRoot + "/Assets/app-store-card/recording.yaml"
        func lowest(_ assignments: [String]) throws -> Double {
            let plan = try SceneRenderer(
                SceneCatalog.prepare("app-store-card", configFile: config, assignments: assignments)
            ).plan
            let anchor = plan.layer(named: "anchor-2")!
            // After the edge pan, from 6 s to the end: the slot's top is at 424 pt.
            return stride(from: 6.0, through: plan.duration, by: 0.005).map {
                plan.modelState(of: anchor, at: $0).position.y
            }.max()!
        }
        let glide = try lowest([])
        #expect(glide >= 423.9 && glide < 427, "\(glide)")
        let newer = try lowest(["demo.edgeDismiss.dampingRatio=0.7"])
        #expect(newer > 440 && newer < 446, "\(newer)")
    }

    @Test(
        "The drag shrinks the card linearly to 0.82, the status bar comes back from 0.15 s in, and the grey backdrop goes as it flies back"
    )
    func drag() {
        let card = plan.layer(named: "card-1")!, bar = plan.layer(named: "status-bar")!,
            backdrop = plan.layer(named: "backdrop")!
        let dragStart = presentStart + 0.5 + 0.427
        #expect(plan.modelState(of: bar, at: dragStart).position.y < 0)
        #expect(plan.modelState(of: backdrop, at: dragStart).alpha == 1)
        let track = GestureTrack(pressAt: .zero).dragging(by: 0, 100, over: 0.6, easing: .easeIn)
        for t in stride(from: 0.0, through: 0.6, by: 0.06) {
            let p = track.translation(at: t).y / 100
            #expect(abs(plan.modelState(of: card, at: dragStart + t).scale - (1 - 0.18 * p)) < 1e-9)
        }
        // The status bar starts back 0.15 s into the drag and is in 0.3 s later.
        #expect(plan.modelState(of: bar, at: dragStart + 0.15).position.y == -10)
        #expect(plan.modelState(of: bar, at: dragStart + 0.3).position.y > -10)
        #expect(plan.modelState(of: bar, at: dragStart + 0.45 + 1e-9).position.y == 10)
        #expect(plan.modelState(of: backdrop, at: dragStart + 0.6 + 0.25 + 1e-9).alpha == 0)
        #expect(
            plan.modelState(of: card, at: dragStart + 0.6 + 0.6 + 1e-9).frame
                == Rect(x: 20, y: 0, width: 335, height: 402))
        #expect(
            plan.modelState(of: plan.layer(named: "anchor-1")!, at: dragStart + 0.6 + 0.6 + 1e-9).position
                == Point(x: 0, y: card1.minY))
    }

    @Test("As recorded, the finger scrolls the first detail's content 17.5 pt up and back to the top before the drag")
    func peekScroll() {
        let card = plan.layer(named: "card-1")!
        // The present's blocks last 0.5 s; the scroll starts 0.27 s into the detail, as the
        // recording's shows at 1.8 s; up over 0.1 s and back over 0.05 s.
        let start = presentStart + 0.5 + 0.27
        let up = Curve.bezier(.easeOut, duration: 0.1), back = Curve.bezier(.easeOut, duration: 0.05)
        #expect(plan.modelState(of: card, at: start).contentOffset == Point(x: 0, y: 0))
        for t in stride(from: 0.0, through: 0.1, by: 0.025) {
            #expect(abs(plan.modelState(of: card, at: start + t).contentOffset.y - 17.5 * up.progress(at: t)) < 1e-9)
        }
        for t in stride(from: 0.0, through: 0.05, by: 0.0125) {
            let y = plan.modelState(of: card, at: start + 0.1 + t).contentOffset.y
            #expect(abs(y - 17.5 * (1 - back.progress(at: t))) < 1e-9)
        }
        #expect(plan.modelState(of: card, at: start + 0.15 + 1e-9).contentOffset == Point(x: 0, y: 0))
        // At the peak the screenshot is drawn 17.5 pt higher, clipped to the card, over the
        // body colour; before and after (on screen once the scroll's end shows, as the drag
        // begins), the card draws the screenshot alone.
        let peak = plan.sample(at: start + 0.1 + 1e-9, scale: 2).commands.filter { $0.layer == "card-1" }
        #expect(peak.count == 2 && peak[0].kind == .fill(Color(rgb: 0xFFFFFF)))
        #expect(
            abs(peak[1].rect.minY + 35) < 1e-6 && peak[1].clip?.rect == Rect(x: 0, y: 0, width: 750, height: 1334),
            "\(peak[1])")
        for t in [start - 0.05, start + 0.15 + Plan.presentationLatency + 1e-6] {
            let commands = plan.sample(at: t, scale: 2).commands.filter { $0.layer == "card-1" }
            #expect(commands.count == 1 && abs(commands[0].rect.minY) < 2, "t \(t)")
        }
    }

    @Test("The storyboard lasts as long as the recording (7.4 s), within 10 %")
    func length() {
        #expect(abs(plan.duration - 7.4) / 7.4 < 0.1, "\(plan.duration) s")
    }

    @Test(
        "Golden frames: the overshooting present, the shrunk card over the grey",
        arguments: [("demo-present", 1.21), ("demo-drag", 2.25)])
    func goldens(name: String, t: Double) throws {
        try assertFrames([Frame(time: t, bitmap: Self.renderer.frame(at: t))], named: "app-store-card-\(name)")
    }
}

/// The older demo on the screen its recording was made on, from the config beside the scene.
@Suite("app-store-card on its recording's screen (Assets/app-store-card/recording.yaml)")
struct AppStoreCardRecordingScreenTests {
    static let renderer = try! SceneRenderer(
        SceneCatalog.prepare(
            "app-store-card", configFile: SceneCatalog.installRoot + "/Assets/app-store-card/recording.yaml"))
    var plan: Plan { Self.renderer.plan }

    @Test("A 320 x 568 pt screen with 280 x 364 pt cards at rest; an open card covers it; the storyboard is as long")
    func layout() {
        #expect(plan.canvas == Size(width: 320, height: 568))
        let card1 = plan.layer(named: "card-1")!, card2 = plan.layer(named: "card-2")!
        // Before the first press (0.37 s), each card on its slot; once the present's blocks
        // (0.5 s from the release at 0.96 s) show, card 1 covers the screen.
        #expect(plan.screenRect(of: card1, at: 0.2) == Rect(x: 20, y: 40, width: 280, height: 364))
        #expect(plan.screenRect(of: card2, at: 0.2) == Rect(x: 20, y: 424, width: 280, height: 364))
        #expect(plan.screenRect(of: card1, at: 0.37 + 0.59 + 0.6) == Rect(x: 0, y: 0, width: 320, height: 568))
        #expect(abs(plan.duration - 7.4) < 1e-9, "\(plan.duration) s")
        // The frame is the config's canvas at the render's scale.
        let frame = Self.renderer.frame(at: 1.5)
        #expect(frame.width == 320 && frame.height == 568)
    }
}
