import Foundation
import Testing

@testable import Fit

@Suite("PageShift: how far a scrolling band's page moved between two stills")
struct PageShiftTests {
    /// A band of columns, no two alike however far apart, on a flat screen.
    static func page(width: Int, height: Int, band: ClosedRange<Int>, offset: Int) -> LumaImage {
        var pixels = [Float](repeating: 240, count: width * height)
        for y in band {
            for x in 0..<width {
                let k = Double(x + offset)
                pixels[y * width + x] = Float(120 + 80 * sin(k * 0.37) * cos(k * 0.113) + Double(y % 5))
            }
        }
        return LumaImage(width: width, height: height, pixels: pixels)
    }

    @Test("A carousel's band moved left by a card and its gap: that shift, along x only")
    func sideways() {
        let (w, h) = (160, 200)
        let first = Self.page(width: w, height: h, band: 60...140, offset: 0)
        let next = Self.page(width: w, height: h, band: 60...140, offset: 70)
        let box = (x: 0...(w - 1), y: 60...140)
        #expect(PageShift.find(first: first, next: next, in: box) == PageShift(x: 70, y: 0))
        // Back again: the page moved right.
        #expect(PageShift.find(first: next, next: first, in: box) == PageShift(x: -70, y: 0))
    }

    @Test("Two bands with nothing in common are no page apart")
    func unrelated() {
        let (w, h) = (160, 200)
        let first = Self.page(width: w, height: h, band: 60...140, offset: 0)
        var next = first
        for i in next.pixels.indices { next.pixels[i] = Float((i * 7919) % 251) }
        #expect(PageShift.find(first: first, next: next, in: (x: 0...(w - 1), y: 60...140)) == nil)
    }
}
