import Foundation
import Geometry
import Planner
import Raster
import Render
import Scenes
import Testing

@Suite("app-store-card: two curves at once, interactive dismiss, goldens")
struct AppStoreCardTests {
    static let renderer = try! SceneRenderer(SceneCatalog.prepare("app-store-card"))
    var plan: Plan { Self.renderer.plan }
    let card1 = Rect(x: 20, y: 40, width: 335, height: 402), card2 = Rect(x: 20, y: 462, width: 335, height: 402)

    /// The present's spring for a card `distance` points down, by the rule the scene documents:
    /// damping 1 − 0.3·distance/height within 0.7...1, duration 0.5 + 0.4·distance/height within 0.5...0.9.
    func presentSpring(distance: Double) -> (damping: Double, duration: Double) {
        let f = abs(distance) / 667
        return (min(1, max(0.7, 1 - 0.3 * f)), min(0.9, max(0.5, 0.5 + 0.4 * f)))
    }

    @Test("Present damping and duration follow the distance travelled: the card's position is on that spring", arguments: [
        (0.0, 1.0, 0.5), (40.0, 0.98201, 0.52399), (333.5, 0.85, 0.7), (462.0, 0.79220, 0.77706), (666.0, 0.70045, 0.89940),
    ])
    func presentRule(distance: Double, damping: Double, duration: Double) throws {
        let scene = try SceneCatalog.prepare("app-store-card", assignments: ["layout.card1=[20,\(distance),335,402]"],
                                             overrides: SceneOverrides(storyboard: "first-card"))
        let plan = try SceneRenderer(scene).plan
        let layer = plan.layer(named: "card-1")!
        let spring = Curve.spring(duration: duration, damping: damping), start = 0.8 + 0.5 + 0.15
        let midY = distance + 201
        for t in stride(from: 0.05, through: duration, by: duration / 7) {
            #expect(abs(plan.state(of: layer, at: start + t).position.y - (midY + (333.5 - midY) * spring.progress(at: t))) < 0.01, "t \(t)")
        }
        #expect(plan.state(of: layer, at: start + duration + 1e-3).position.y == 333.5)
    }

    /// When card `i` starts presenting: rest, press, hold (and for the second card, all of the first's turn).
    func presentStart(_ i: Int) -> Double {
        let first = 0.8 + 0.5 + 0.15
        if i == 0 { return first }
        let (_, d0) = presentSpring(distance: 40)
        return first + d0 + 1.2 + 0.45 + 0.6 + 0.8 + 0.5 + 0.15
    }

    @Test("The card's position is on its spring while its size and corners run linearly over 0.6 of it", arguments: [0, 1])
    func twoCurves(card: Int) {
        let slot = card == 0 ? card1 : card2
        let (damping, duration) = presentSpring(distance: slot.minY)
        let spring = Curve.spring(duration: duration, damping: damping), linear = Curve.bezier(.linear, duration: 0.6 * duration)
        let layer = plan.layer(named: "card-\(card + 1)")!
        let t0 = presentStart(card)
        for t in stride(from: 0.0, through: duration, by: duration / 9) {
            let s = plan.state(of: layer, at: t0 + t)
            let k = spring.progress(at: t), m = linear.progress(at: t)
            #expect(abs(s.position.y - (slot.midY + (333.5 - slot.midY) * k)) < 1e-6, "t \(t)")
            #expect(abs(s.size.width - (335 + 40 * m)) < 1e-6 && abs(s.size.height - (402 + 265 * m)) < 1e-6)
            #expect(abs(s.cornerRadius - 16 * (1 - m)) < 1e-6)
        }
        #expect(plan.state(of: layer, at: t0 + duration + 1e-9).frame == Rect(x: 0, y: 0, width: 375, height: 667))
    }

    @Test("Dragging shrinks the card linearly to 0.86 with rounded corners; at progress 1 it flies back on 0.6 s, damping 0.7")
    func dragDismiss() {
        let layer = plan.layer(named: "card-1")!
        let (_, d0) = presentSpring(distance: 40)
        let dragStart = presentStart(0) + d0 + 1.2
        let track = GestureTrack(pressAt: .zero).dragging(by: 0, 100, over: 0.45, easing: .easeIn)
        for t in stride(from: 0.0, through: 0.45, by: 0.05) {
            let p = track.translation(at: t).y / 100
            let s = plan.state(of: layer, at: dragStart + t)
            #expect(abs(s.scale - (1 - 0.14 * p)) < 1e-9 && abs(s.cornerRadius - 16 * p) < 1e-9)
        }
        let back = Curve.spring(duration: 0.6, damping: 0.7)
        let released = dragStart + 0.45
        for t in [0.1, 0.3, 0.5] {
            let s = plan.state(of: layer, at: released + t)
            #expect(abs(s.position.y - (333.5 + (241 - 333.5) * back.progress(at: t))) < 1e-6)
        }
        #expect(plan.state(of: layer, at: released + 0.6 + 1e-9).frame == card1)
    }

    @Test("Press scales the card to 0.96 on a 0.5 s damping-1 spring")
    func press() {
        let layer = plan.layer(named: "card-1")!
        let spring = Curve.spring(duration: 0.5, damping: 1)
        for t in [0.05, 0.15, 0.3] {
            #expect(abs(plan.state(of: layer, at: 0.8 + t).scale - (1 - 0.04 * spring.progress(at: t))) < 1e-9)
        }
    }

    @Test("Golden frames: pressed, mid-present, detail, mid-drag, second card edge pan", arguments: [
        ("pressed", 1.2), ("mid-present", 1.6), ("detail", 2.5), ("mid-drag", 3.4), ("edge-pan", 7.9),
    ])
    func goldens(name: String, t: Double) throws {
        try Golden.check(Self.renderer.frame(at: t), named: "app-store-card-\(name)")
    }
}
