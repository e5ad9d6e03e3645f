import Foundation
import Testing

@testable import FlipbookTesting

/// A curve as the studio's editor reads it: the damping ratio behind each overshoot.
@Suite("Motion: the damping ratio a spring's dragged peak asks for")
struct MotionTests {
    @Test(
        "A UIKit spring at rest to start: each damping ratio's overshoot is the damped oscillator's exp(−ζπ/√(1−ζ²))",
        arguments: [0.3, 0.5, 0.7, 0.9])
    func uikitSpringOvershoot(zeta: Double) throws {
        let table = try #require(try Motion(spec: "spring:duration=0.6,dampingRatio=1,velocity=0").dampingByOvershoot)
        let row = try #require(table.first { abs($0[1] - zeta) < 1e-9 })
        let expected = exp(-zeta * Double.pi / (1 - zeta * zeta).squareRoot())
        #expect(abs(row[0] - expected) < 0.002, "ζ \(zeta): \(row[0]) against \(expected)")
    }

    @Test("The table runs by rising overshoot, from none at ζ = 1 to the most at ζ = 0.04, by fiftieths")
    func ordered() throws {
        let table = try #require(try Motion(spec: "spring:duration=0.5,dampingRatio=0.8,velocity=0").dampingByOvershoot)
        #expect(table.count == 49)
        #expect(table.first == [0, 1])
        #expect(table.last?[1] == 0.04)
        #expect(zip(table, table.dropFirst()).allSatisfy { $0[0] <= $1[0] && $0[1] >= $1[1] })
    }

    @Test("A spring thrown toward its target: the table's row for its own damping ratio is its own overshoot")
    func velocityCounts() throws {
        let still = try #require(try Motion(spec: "spring:duration=0.5,dampingRatio=0.7,velocity=0").dampingByOvershoot)
        let motion = try Motion(spec: "spring:duration=0.5,dampingRatio=0.7,velocity=5")
        let thrown = try #require(motion.dampingByOvershoot)
        let at = { (t: [[Double]]) in t.first { abs($0[1] - 0.7) < 1e-9 }![0] }
        #expect(abs(at(thrown) - motion.overshoot) < 0.001, "\(at(thrown)) against \(motion.overshoot)")
        #expect(at(thrown) > at(still) + 0.002, "\(at(thrown)) against \(at(still)) at rest")
    }

    @Test("A response spring's bounce 0.3 is ζ 0.7, whose overshoot the table gives; a Bézier has none")
    func responseSpringAndBezier() throws {
        let response = try Motion(spec: "response:response=0.5,bounce=0.3")
        let table = try #require(response.dampingByOvershoot)
        let row = try #require(table.first { abs($0[1] - 0.7) < 1e-9 })
        #expect(abs(row[0] - response.overshoot) < 0.002, "\(row[0]) against the curve's own \(response.overshoot)")
        #expect(try Motion(spec: "easeIn:duration=0.3").dampingByOvershoot == nil)
    }
}
