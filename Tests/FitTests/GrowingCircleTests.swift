@testable import Fit
import Foundation
import TestSupport
import Testing

/// The middle of a circle that grows over a screen, from one moving frame.
@Suite("GrowingCircle: a circle's middle from its edge, where it runs off the screen")
struct GrowingCircleTests {
    /// A still of two grey bands, and the same with a disk of white about (`x`, `y`) of `radius`.
    static func frames(width: Int, height: Int, x: Double, y: Double, radius: Double) -> (LumaImage, LumaImage) {
        let still = (0..<width * height).map { Float($0 / width < height / 2 ? 40 : 90) }
        let moving = (0..<width * height).map { i -> Float in
            let (px, py) = (Double(i % width) + 0.5, Double(i / width) + 0.5)
            return (px - x) * (px - x) + (py - y) * (py - y) <= radius * radius ? 255 : still[i]
        }
        return (
            LumaImage(width: width, height: height, pixels: still),
            LumaImage(width: width, height: height, pixels: moving)
        )
    }

    @Test(
        "A circle cut by two or three of the screen's edges: its middle, where the box around what changed puts it far off"
    )
    func cutByTheEdges() throws {
        // A button's middle near the top right, the left and the bottom of a 320x568 screen,
        // the circle grown well past the screen's edges there, as a 10 fps capture's second frame.
        for (x, y, radius) in [(241.0, 134.0, 190.0), (43.0, 284.0, 200.0), (160.0, 503.0, 240.0)] {
            let (still, moving) = Self.frames(width: 320, height: 568, x: x, y: y, radius: radius)
            let middle = try #require(GrowingCircle.middle(still: still, moving: moving, by: 60))
            #expect(abs(middle.x - x) < 1.5 && abs(middle.y - y) < 1.5, "\(middle) for \((x, y, radius))")
            // The box's middle, which a circle inside the screen shares, is tens of pixels off.
            let box = try #require(moving.changedBox(from: still, by: 60))
            let boxMiddle = (
                Double(box.x.lowerBound + box.x.upperBound) / 2, Double(box.y.lowerBound + box.y.upperBound) / 2
            )
            #expect(abs(boxMiddle.0 - x) + abs(boxMiddle.1 - y) > 20, "\(boxMiddle)")
        }
    }

    @Test("A stray changed pixel far off the circle is left out of its fit")
    func strayPixel() throws {
        let (still, drawn) = Self.frames(width: 200, height: 300, x: 100, y: 150, radius: 40)
        var moving = drawn
        moving.pixels[10 * 200 + 5] = 255
        let middle = try #require(GrowingCircle.middle(still: still, moving: moving, by: 60))
        #expect(abs(middle.x - 100) < 1 && abs(middle.y - 150) < 1, "\(middle)")
    }

    @Test(
        "Randomized: points nearly on a line fit no circle or a finite one, however large (never a value a pixel index traps on)"
    )
    func nearlyALine() {
        var random = SeededRandom(seed: 68)
        for _ in 0..<200 {
            let n = 3 + random.below(20)
            let bend = pow(10, -Double(random.below(14)))
            let points = (0..<n).map { i -> (x: Double, y: Double) in
                let x = Double(random.below(2000))
                return (x, bend * x * x + Double(i) * 1e-12)
            }
            if let fitted = GrowingCircle.circle(through: points) {
                #expect(fitted.x.isFinite && fitted.y.isFinite && fitted.r.isFinite, "\(fitted)")
            }
        }
    }

    @Test("Points on a line, or fewer than three, fit no circle")
    func noCircle() {
        #expect(GrowingCircle.circle(through: [(0, 0), (1, 1)]) == nil)
        #expect(GrowingCircle.circle(through: [(0, 0), (1, 1), (2, 2), (3, 3)]) == nil)
        let fitted = GrowingCircle.circle(through: [(10, 0), (0, 10), (-10, 0), (0, -10)])
        #expect(fitted.map { abs($0.x) < 1e-9 && abs($0.y) < 1e-9 && abs($0.r - 10) < 1e-9 } == true)
    }
}
