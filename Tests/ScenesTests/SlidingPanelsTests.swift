import FlipbookTesting
import Foundation
import Geometry
import Planner
import Raster
import Render
import Scenes
import Testing

@Suite("sliding-panels: snapping, springs, panel drag, goldens")
struct SlidingPanelsTests {
    static let renderer = try! SceneRenderer(SceneCatalog.prepare("sliding-panels"))
    var plan: Plan { Self.renderer.plan }
    let h = 667.0

    @Test(
        "The carousel snaps by the deceleration projection, one card at most: card 1 flicked 60 pt on, at several velocities",
        arguments: [
            (0.0, 1, -75.0), (300.0, 2, 160.0), (-200.0, 1, -75.0), (700.0, 2, 160.0), (1250.0, 2, 160.0),
            (3000.0, 2, 160.0),
        ])
    func snap(velocity: Double, card: Int, offset: Double) throws {
        let plan = try SceneRenderer(
            SceneCatalog.prepare("sliding-panels", assignments: ["swipe.velocity=\(velocity)"])
        ).plan
        let carousel = plan.layer(named: "cards")!, room = plan.layer(named: "room-\(card)")!
        let snapped = 1.008 + 0.12 + 1.6
        #expect(abs(plan.modelState(of: carousel, at: snapped).position.x - (375.0 / 2 - offset)) < 1e-9)
        #expect(!plan.modelState(of: room, at: snapped + 0.022 + 1e-6).isHidden)
    }

    @Test(
        "The flick hands its speed to an underdamped snap: past the next card by 90-110 pt at 1.5 s, as the recording's frame then (103), and back"
    )
    func flickOvershoots() {
        let carousel = plan.layer(named: "cards")!
        let released = 1.008 + 0.12, target = 375.0 / 2 - 160
        let xs = stride(from: released, through: released + 1.6, by: 0.01).map {
            plan.modelState(of: carousel, at: $0).position.x
        }
        let past = target - plan.modelState(of: carousel, at: 1.5).position.x
        #expect(past > 90 && past < 110, "\(past) pt past the card at 1.5 s")
        #expect(target - xs.min()! < 140 && abs(xs.last! - target) < 0.5, "deepest \(target - xs.min()!) pt")
        // Leaves at the finger's speed: 3600 pt/s to the left.
        let speed =
            (plan.modelState(of: carousel, at: released + 0.001).position.x
                - plan.modelState(of: carousel, at: released).position.x) / 0.001
        #expect(abs(speed + 3600) < 40, "\(speed) pt/s")
    }

    /// The present starts after the rest, the flick, the snap and the hold.
    let presentStart = 1.008 + 0.12 + 1.6 + 0.022

    @Test(
        "Presenting: scale 0.6 → 1 and the labels rise on the 0.6 s, damping-0.74 spring; the panel on its own 0.5 s, damping-0.75 one; the room's backdrop clear until the panel is up"
    )
    func present() {
        let spring = Curve.spring(duration: 0.6, damping: 0.74),
            panelSpring = Curve.spring(duration: 0.5, damping: 0.75)
        let room = plan.layer(named: "room-2")!, title = plan.layer(named: "room-2-title")!,
            subtitle = plan.layer(named: "room-2-subtitle")!
        let image = plan.layer(named: "room-2-image")!, panel = plan.layer(named: "room-panel")!
        for t in stride(from: 0.0, through: 0.6, by: 0.05) {
            let k = spring.progress(at: t)
            #expect(abs(plan.modelState(of: room, at: presentStart + t).scale - (0.6 + 0.4 * k)) < 1e-9)
            #expect(abs(plan.modelState(of: title, at: presentStart + t).frame.minY - lerp(h / 2 - 44, 20, k)) < 1e-9)
            #expect(abs(plan.modelState(of: subtitle, at: presentStart + t).frame.minY - lerp(h / 2, 64, k)) < 1e-9)
            #expect(abs(plan.modelState(of: image, at: presentStart + t).alpha - (1 - k)) < 1e-9)
            let p = panelSpring.progress(at: t)
            #expect(abs(plan.modelState(of: panel, at: presentStart + t).frame.minY - lerp(h, 64, p)) < 1e-9)
        }
        #expect(plan.modelState(of: plan.layer(named: "card-2")!, at: presentStart + 0.3).isHidden)
        // The overlay shows the dimmed carousel through it while the panel rises, and black once it is up.
        #expect(plan.modelState(of: room, at: presentStart + 0.25).backgroundColor == nil)
        #expect(plan.modelState(of: room, at: presentStart + 0.499).backgroundColor == nil)
        #expect(plan.modelState(of: room, at: presentStart + 0.5).backgroundColor == Color(rgb: 0x000000))
        #expect(plan.modelState(of: room, at: presentStart + 2).backgroundColor == Color(rgb: 0x000000))
    }

    @Test(
        "Dragging the panel drives the header live; released past half it collapses to 57 pt showing, in remaining × 1.4 s, from the finger's speed"
    )
    func panelDrag() {
        let dragStart = presentStart + 0.6 + 0.822
        let travel = h - 64 - 57
        let panel = plan.layer(named: "room-panel")!, image = plan.layer(named: "room-2-image")!
        for t in stride(from: 0.0, through: 0.3, by: 0.05) {
            let y = plan.modelState(of: panel, at: dragStart + t).frame.minY
            #expect(abs(plan.modelState(of: image, at: dragStart + t).alpha - (y - 64) / travel) < 1e-9)
        }
        let released = dragStart + 0.3
        let progress = { (t: Double) in (plan.modelState(of: panel, at: t).frame.minY - 64) / travel }
        #expect(abs(progress(released) - 0.6) < 1e-9)
        // The finger was moving at lift, so the settle starts at its speed, not from rest.
        let fingerSpeed = (progress(released) - progress(released - 0.001)) / 0.001
        let settleSpeed = (progress(released + 0.001) - progress(released)) / 0.001
        #expect(
            fingerSpeed > 2 && abs(settleSpeed - fingerSpeed) / fingerSpeed < 0.02,
            "\(fingerSpeed) against \(settleSpeed)")
        #expect(plan.modelState(of: panel, at: released + 0.4 * 1.4 + 1e-6).frame.minY == h - 57)
    }

    @Test(
        "Closed from the collapsed state, the panel goes down while the room shrinks back; its slot's shadow stays hidden until then"
    )
    func closeFromCollapsed() {
        let close = presentStart + 0.6 + 0.86 + 0.3 + 0.56 + 0.43
        let room = plan.layer(named: "room-2")!, panel = plan.layer(named: "room-panel")!,
            shadow = plan.layer(named: "shadow-2")!
        // The close's own spring (dismiss: 1 s, damping 0.5) goes past the card's size, by
        // e^(−πζ/√(1−ζ²)) = 16.3 % of the way, before it settles, as the port's recording does.
        let spring = Curve.spring(duration: 1, damping: 0.5)
        for t in [0.05, 0.15, 0.3] {
            #expect(abs(plan.modelState(of: room, at: close + t).scale - (1 - 0.4 * spring.progress(at: t))) < 1e-9)
            #expect(plan.modelState(of: shadow, at: close + t).isHidden)
        }
        #expect(plan.modelState(of: panel, at: close + 0.3 + 1e-6).frame.minY == h)
        #expect(!plan.modelState(of: shadow, at: close + 1 + 1e-6).isHidden)
        let smallest = stride(from: 0.0, through: 1, by: 0.01).map { plan.modelState(of: room, at: close + $0).scale }
            .min()!
        #expect(abs(smallest - (0.6 - 0.4 * 0.163)) < 0.003, "\(smallest)")
    }

    @Test(
        "The room panel, wherever it shows, runs on to the screen's bottom: its spring's overshoot opens no band behind it",
        arguments: ["promo", "port-demo", "tour"])
    func panelCoversTheBottom(storyboard: String) throws {
        let plan = try SceneRenderer(
            SceneCatalog.prepare("sliding-panels", overrides: SceneOverrides(storyboard: storyboard))
        ).plan
        var highest = h
        for i in 0...Int(plan.duration * 240) {
            let commands = plan.sample(at: Double(i) / 240, scale: 1).commands
            let panel = commands.filter { $0.layer == "room-panel" }.map(\.rect)
            guard let top = panel.map(\.minY).min(), top < h else { continue }
            highest = min(highest, top)
            // The panel and the white under it, from the panel's top down without a gap.
            var reach = panel.map(\.maxY).max()!
            for r in commands.filter({ $0.layer == "room-panel-skirt" }).map(\.rect) where r.minY <= reach {
                reach = max(reach, r.maxY)
            }
            #expect(reach >= h, "at \(Double(i) / 240) s the panel's top is at \(top), and white reaches \(reach)")
        }
        // The panel springs past its stop, the bar's 64 pt, as the recording's does.
        #expect(highest < 64 - 10, "\(highest)")
    }

    @Test("The port's recording is 24 frames of about 0.3 s each: the storyboard lasts 7.2 s, within 10 %")
    func length() {
        #expect(abs(plan.duration - 7.2) / 7.2 < 0.1, "\(plan.duration) s")
    }

    @Test(
        "Golden frames: carousel, the flick's overshoot, mid-present, presented, collapsed",
        arguments: [
            ("carousel", 0.0), ("overshoot", 1.5), ("mid-present", 2.9), ("presented", 3.65), ("collapsed", 5.3),
        ])
    func goldens(name: String, t: Double) throws {
        try assertFrames([Frame(time: t, bitmap: Self.renderer.frame(at: t))], named: "sliding-panels-\(name)")
    }

    @Test("A second config, with other rooms, other timings and another tapped card, renders correctly")
    func secondConfig() throws {
        let yaml = """
            room1: {image: \(SceneCatalog.installRoot)/Assets/sliding-panels/room-3.png, title: \(SceneCatalog.installRoot)/Assets/sliding-panels/title-3.png,
                    subtitle: \(SceneCatalog.installRoot)/Assets/sliding-panels/subtitle-3.png, overlay: "#FFC876B3"}
            room3: {image: \(SceneCatalog.installRoot)/Assets/sliding-panels/room-1.png, title: \(SceneCatalog.installRoot)/Assets/sliding-panels/title-1.png,
                    subtitle: \(SceneCatalog.installRoot)/Assets/sliding-panels/subtitle-1.png, overlay: "#424D56B3"}
            swipe: {velocity: -200}
            present: {duration: 0.8, damping: 0.8}
            timing: {restHold: 0.5}
            """
        let file = NSTemporaryDirectory() + "rooms-\(UUID().uuidString).yaml"
        try yaml.write(toFile: file, atomically: true, encoding: .utf8)
        let renderer = try SceneRenderer(SceneCatalog.prepare("sliding-panels", configFile: file))
        let plan = renderer.plan
        let start = 0.5 + 0.12 + 1.6 + 0.022
        let room = plan.layer(named: "room-1")!
        let spring = Curve.spring(duration: 0.8, damping: 0.8)
        #expect(!plan.modelState(of: room, at: start + 0.1).isHidden)
        #expect(abs(plan.modelState(of: room, at: start + 0.3).scale - (0.6 + 0.4 * spring.progress(at: 0.3))) < 1e-9)
        try assertFrames(
            [Frame(time: start + 1.0, bitmap: renderer.frame(at: start + 1.0))],
            named: "sliding-panels-second-config-presented")
    }
}
