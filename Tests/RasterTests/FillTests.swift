import Geometry
import Testing
import TestSupport
@testable import Raster

@Suite("Fills: rects, rounded rects, ellipses")
struct FillTests {
    let red = Color(rgb: 0xFF0000).premultiplied

    @Test("An opaque whole-pixel rect fills exactly its pixels")
    func opaqueRect() {
        var b = Bitmap(width: 32, height: 32, fill: Color.white.premultiplied)
        b.withView { $0.fill(.rect(Rect(x: 4, y: 5, width: 10, height: 6)), color: red) }
        #expect(b[4, 5] == red)
        #expect(b[13, 10] == red)
        #expect(b[14, 10] == Color.white.premultiplied)
        #expect(b[4, 11] == Color.white.premultiplied)
        #expect(
            b.pixels.count / 4 - 60 == (0..<32 * 32).filter { b[$0 % 32, $0 / 32] == Color.white.premultiplied }.count)
    }

    @Test("A half-covered edge pixel gets half the alpha")
    func halfPixelEdge() {
        var b = Bitmap(width: 8, height: 8)
        b.withView { $0.fill(.rect(Rect(x: 2.5, y: 2, width: 3, height: 2)), color: red) }
        #expect(b[2, 2] == PremultipliedColor(r: 128, g: 0, b: 0, a: 128))
        #expect(b[3, 2] == red)
        #expect(b[5, 2] == PremultipliedColor(r: 128, g: 0, b: 0, a: 128))
        #expect(b[6, 2].a == 0)
    }

    @Test("A translucent overlay blends exactly: 50% black over white is 127 or 128 grey")
    func overlay() {
        var b = Bitmap(width: 4, height: 4, fill: Color.white.premultiplied)
        b.withView {
            $0.fill(.rect(Rect(x: 0, y: 0, width: 4, height: 4)), color: Color.black.premultiplied, opacity: 128)
        }
        // 255 − 128·255/255 = 255 − 128, then + 0: d = mul255(255, 127) = 127.
        #expect(b[1, 1] == PremultipliedColor(r: 127, g: 127, b: 127, a: 255))
    }

    @Test("A circle's total coverage is πr² within 0.5%", arguments: [4.0, 10.5, 25.0, 60.25])
    func circleArea(radius: Double) {
        let size = Int(2 * radius) + 8
        var b = Bitmap(width: size, height: size)
        let rect = Rect(x: 3.3, y: 4.1, width: 2 * radius, height: 2 * radius)
        b.withView { $0.fill(.ellipse(rect), color: Color.white.premultiplied) }
        let covered = stride(from: 3, to: b.pixels.count, by: 4).reduce(0.0) { $0 + Double(b.pixels[$1]) / 255 }
        let expected = Double.pi * radius * radius
        #expect(abs(covered - expected) / expected < 0.005)
    }

    @Test("An eccentric ellipse's coverage is πab within 1%")
    func ellipseArea() {
        var b = Bitmap(width: 90, height: 40)
        b.withView { $0.fill(.ellipse(Rect(x: 2.5, y: 3, width: 80, height: 30)), color: Color.white.premultiplied) }
        let covered = stride(from: 3, to: b.pixels.count, by: 4).reduce(0.0) { $0 + Double(b.pixels[$1]) / 255 }
        #expect(abs(covered - Double.pi * 40 * 15) / (Double.pi * 40 * 15) < 0.01)
    }

    @Test("A rounded rect leaves its corner pixel empty and its edge midpoints full")
    func roundedCorner() {
        var b = Bitmap(width: 40, height: 40)
        b.withView { $0.fill(.roundedRect(Rect(x: 0, y: 0, width: 40, height: 40), radius: 16), color: red) }
        #expect(b[0, 0].a == 0)
        #expect(b[1, 1].a == 0)
        #expect(b[20, 0] == red)
        #expect(b[0, 20] == red)
        #expect(b[39, 39].a == 0)
        // The arc at 45°: centre (16,16), radius 16 → the pixel straddling it is partly covered.
        let onArc = b[4, 4].a
        #expect(onArc > 0 && onArc < 255)
    }

    @Test("Fast fills equal the reference path byte for byte", arguments: 0..<80)
    func fastEqualsReference(seed: Int) {
        var rng = SeededRandom(seed: UInt64(seed))
        let (w, h) = (Int.random(in: 1...70, using: &rng), Int.random(in: 1...60, using: &rng))
        let background = rng.bitmap(width: w, height: h, opaque: seed % 3 != 0)
        var fast = background, reference = background
        for _ in 0..<4 {
            let rect = rng.rect(in: Double(w), Double(h))
            let shape: Shape
            switch Int.random(in: 0...2, using: &rng) {
            case 0: shape = .rect(rect)
            case 1: shape = .roundedRect(rect, radius: rng.double(0...30))
            default: shape = .ellipse(rect)
            }
            let color = rng.premultipliedColor()
            let opacity: UInt8 = Bool.random(using: &rng) ? 255 : rng.byte()
            let clip = rng.clip(in: Double(w), Double(h))
            fast.withView { $0.fill(shape, color: color, opacity: opacity, clip: clip) }
            reference.withView { ReferenceRaster.fill($0, shape, color: color, opacity: opacity, clip: clip) }
        }
        #expect(differingBytes(fast, reference) == 0)
    }

    @Test("A subview confines a fill to its rectangle")
    func subviewConfines() {
        var b = Bitmap(width: 20, height: 20)
        b.withView { view in
            view.subview(PixelRect(x: 5, y: 5, width: 4, height: 4))
                .fill(.rect(Rect(x: -100, y: -100, width: 1000, height: 1000)), color: red)
        }
        #expect(b[5, 5] == red && b[8, 8] == red)
        #expect(b[4, 5].a == 0 && b[9, 8].a == 0 && b[5, 9].a == 0)
    }
}
