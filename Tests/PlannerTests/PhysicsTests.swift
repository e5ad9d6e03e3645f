import Geometry
import Testing
@testable import Planner

@Suite("Scroll physics and gestures")
struct PhysicsTests {
    @Test("Projection factors: 0.4995 s normal, 0.0995 s fast")
    func projection() {
        #expect(abs(ScrollPhysics.projectedOffset(from: 0, velocity: 1000) - 499.5) < 0.01)
        #expect(
            abs(ScrollPhysics.projectedOffset(from: 0, velocity: 1000, rate: ScrollPhysics.fastDeceleration) - 99.5)
                < 0.01)
        #expect(abs(ScrollPhysics.decelerating(from: 0, velocity: 1000, after: 100) - 499.5) < 0.01)
    }

    @Test("Rubber band: slope 0.55 at the edge, never past the viewport")
    func rubberBand() {
        #expect(abs(ScrollPhysics.rubberBand(0.001, dimension: 667) / 0.001 - 0.55) < 1e-4)
        #expect(ScrollPhysics.rubberBand(1e9, dimension: 667) < 667)
        #expect(abs(ScrollPhysics.rubberBand(100, dimension: 667) - 100 * 0.55 * 667 / (667 + 55)) < 1e-9)
        #expect(ScrollPhysics.rubberBand(-50, dimension: 667) == -ScrollPhysics.rubberBand(50, dimension: 667))
    }

    @Test(
        "Carousel snap targets (225 pt cards, 10 pt spacing, 75 pt inset: card i rests at 235i − 75) for several release velocities",
        arguments: [
            (0.0, 0.0, -75.0), (0.0, 200.0, 160.0), (0.0, 400.0, 160.0), (-75.0, 300.0, 160.0), (160.0, 600.0, 395.0),
            (160.0, -600.0, -75.0), (395.0, 3000.0, 395.0),
        ])
    func snap(offset: Double, velocity: Double, expected: Double) {
        let target = ScrollPhysics.snapTarget(
            offset: offset, velocity: velocity, page: 225, spacing: 10, inset: 75, pages: 3)
        #expect(abs(target - expected) < 1e-9, "got \(target)")
    }

    @Test(
        "End slopes of the named Béziers",
        arguments: [("linear", 1.0), ("easeOut", 0.0), ("easeIn", 6.0 / 3.48), ("easeInEaseOut", 0.0)])
    func endSlope(name: String, expected: Double) throws {
        guard case .bezier(let b) = try Curve(spec: name) else {
            Issue.record("\(name) is not a Bézier")
            return
        }
        #expect(abs(b.endSlope - expected) < 1e-9)
    }

    @Test("A scripted drag: eased positions, a hold, and the lift velocity")
    func gesture() {
        let g = GestureTrack(pressAt: Point(x: 10, y: 20)).dragging(by: 0, 100, over: 0.5, easing: .easeInEaseOut)
            .holding(for: 0.2)
        #expect(g.duration == 0.7)
        #expect(g.position(at: 0) == Point(x: 10, y: 20))
        #expect(abs(g.position(at: 0.25).y - 70) < 1e-9)
        #expect(g.position(at: 0.6) == Point(x: 10, y: 120))
        #expect(g.velocityAtRelease == Point(x: 0, y: 0))
        let flick = GestureTrack(pressAt: .zero).dragging(by: 0, 50, over: 0.25)
        #expect(abs(flick.velocityAtRelease.y - 200) < 1e-9)
    }
}
