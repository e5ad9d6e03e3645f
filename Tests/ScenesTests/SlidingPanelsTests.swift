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

    @Test("The carousel snaps by the deceleration projection: card 1 released 120 pt on, at several velocities", arguments: [
        (0.0, 2, 160.0), (100.0, 2, 160.0), (300.0, 2, 160.0), (-200.0, 1, -75.0), (700.0, 3, 395.0), (3000.0, 3, 395.0),
    ])
    func snap(velocity: Double, card: Int, offset: Double) throws {
        let plan = try SceneRenderer(SceneCatalog.prepare("sliding-panels", assignments: ["swipe.velocity=\(velocity)"])).plan
        let carousel = plan.layer(named: "carousel")!, room = plan.layer(named: "room-\(card)")!
        let snapped = 0.8 + 0.3 + 0.5
        #expect(abs(plan.state(of: carousel, at: snapped).position.x - (375.0 / 2 - offset)) < 1e-9)
        #expect(!plan.state(of: room, at: snapped + 0.4 + 1e-6).isHidden)
    }

    /// The present starts after the rest, the swipe, the snap and the hold.
    let presentStart = 0.8 + 0.3 + 0.5 + 0.4

    @Test("Presenting: scale 0.6 → 1 and the labels rise on the 0.6 s, damping-0.7 spring; the panel on its own")
    func present() {
        let spring = Curve.spring(duration: 0.6, damping: 0.7)
        let room = plan.layer(named: "room-2")!, title = plan.layer(named: "room-2-title")!, subtitle = plan.layer(named: "room-2-subtitle")!
        let image = plan.layer(named: "room-2-image")!, panel = plan.layer(named: "panel")!
        for t in stride(from: 0.0, through: 0.6, by: 0.05) {
            let k = spring.progress(at: t)
            #expect(abs(plan.state(of: room, at: presentStart + t).scale - (0.6 + 0.4 * k)) < 1e-9)
            #expect(abs(plan.state(of: title, at: presentStart + t).frame.minY - lerp(h / 2 - 44, 20, k)) < 1e-9)
            #expect(abs(plan.state(of: subtitle, at: presentStart + t).frame.minY - lerp(h / 2, 64, k)) < 1e-9)
            #expect(abs(plan.state(of: image, at: presentStart + t).alpha - (1 - k)) < 1e-9)
            #expect(abs(plan.state(of: panel, at: presentStart + t).frame.minY - lerp(h, 64, k)) < 1e-9)
        }
        #expect(plan.state(of: plan.layer(named: "card-2")!, at: presentStart + 0.3).isHidden)
    }

    @Test("Dragging the panel drives the header live; released past half it collapses in remaining × 1.4 s")
    func panelDrag() {
        let dragStart = presentStart + 0.6 + 0.8
        let panel = plan.layer(named: "panel")!, image = plan.layer(named: "room-2-image")!
        for t in stride(from: 0.0, through: 0.5, by: 0.1) {
            let y = plan.state(of: panel, at: dragStart + t).frame.minY
            let progress = (y - 64) / (h - 128)
            #expect(abs(plan.state(of: image, at: dragStart + t).alpha - progress) < 1e-9)
        }
        let released = dragStart + 0.5
        #expect(abs((plan.state(of: panel, at: released).frame.minY - 64) / (h - 128) - 0.62) < 1e-9)
        let settle = Curve.spring(duration: 0.38 * 1.4, damping: 0.7)
        for t in [0.1, 0.3] {
            let expected = lerp(0.62, 1, settle.progress(at: t))
            #expect(abs((plan.state(of: panel, at: released + t).frame.minY - 64) / (h - 128) - expected) < 1e-9)
        }
        #expect(plan.state(of: panel, at: released + 0.532 + 1e-6).frame.minY == h - 64)
    }

    @Test("Golden frames: carousel, mid-present, presented, collapsed", arguments: [
        ("carousel", 0.0), ("mid-present", 2.15), ("presented", 2.9), ("collapsed", 4.6),
    ])
    func goldens(name: String, t: Double) throws {
        try Golden.check(Self.renderer.frame(at: t), named: "sliding-panels-\(name)")
    }

    @Test("A second config, with other rooms, other timings and another tapped card, renders correctly")
    func secondConfig() throws {
        let yaml = """
            room1: {image: \(SceneCatalog.installRoot)/Assets/sliding-panels/room-3.png, title: \(SceneCatalog.installRoot)/Assets/sliding-panels/title-3.png,
                    subtitle: \(SceneCatalog.installRoot)/Assets/sliding-panels/subtitle-3.png, overlay: "#FFC876B3"}
            room3: {image: \(SceneCatalog.installRoot)/Assets/sliding-panels/room-1.png, title: \(SceneCatalog.installRoot)/Assets/sliding-panels/title-1.png,
                    subtitle: \(SceneCatalog.installRoot)/Assets/sliding-panels/subtitle-1.png, overlay: "#424D56B3"}
            swipe: {velocity: 700}
            present: {duration: 0.8, damping: 0.8}
            timing: {restHold: 0.5}
            """
        let file = NSTemporaryDirectory() + "rooms-\(UUID().uuidString).yaml"
        try yaml.write(toFile: file, atomically: true, encoding: .utf8)
        let renderer = try SceneRenderer(SceneCatalog.prepare("sliding-panels", configFile: file))
        let plan = renderer.plan
        let start = 0.5 + 0.3 + 0.5 + 0.4
        let room = plan.layer(named: "room-3")!
        let spring = Curve.spring(duration: 0.8, damping: 0.8)
        #expect(!plan.state(of: room, at: start + 0.1).isHidden)
        #expect(abs(plan.state(of: room, at: start + 0.3).scale - (0.6 + 0.4 * spring.progress(at: 0.3))) < 1e-9)
        try Golden.check(renderer.frame(at: start + 1.0), named: "sliding-panels-second-config-presented")
    }
}
