import Testing
import Geometry
@testable import Raster

@Suite("Pixel math: one rounding rule")
struct PixelMathTests {
    @Test("mul255 is the exact rounded a·b/255 for all 65,536 pairs")
    func mul255Exhaustive() {
        var mismatches = 0
        for a in 0...255 {
            for b in 0...255 {
                let exact = Int((Double(a * b) / 255).rounded())
                if mul255(a, b) != exact || mul255(UInt32(a), UInt32(b)) != UInt32(exact) { mismatches += 1 }
            }
        }
        #expect(mismatches == 0)
    }

    @Test("mul255 identities: x·255 = x, x·0 = 0, symmetric")
    func identities() {
        for x in 0...255 {
            #expect(mul255(x, 255) == x)
            #expect(mul255(x, 0) == 0)
            #expect(mul255(x, 7) == mul255(7, x))
        }
    }

    @Test("premultiply then unpremultiply returns opaque colours exactly and keeps 8-bit error ≤ 255/(2a)")
    func premultiplyRoundTrip() {
        for a in stride(from: 1, through: 255, by: 17) {
            for c in stride(from: 0, through: 255, by: 5) {
                let colour = Color(r: UInt8(c), g: UInt8(255 - c), b: 128, a: UInt8(a))
                let back = colour.premultiplied.unpremultiplied
                let bound = Int((255.0 / (2.0 * Double(a))).rounded(.up)) + 1
                #expect(abs(Int(back.r) - c) <= bound)
                #expect(back.a == UInt8(a))
                if a == 255 { #expect(back == colour) }
            }
        }
    }

    @Test("Color(rgb:) and description")
    func colourParsing() {
        let c = Color(rgb: 0x3067F4)
        #expect(c == Color(r: 0x30, g: 0x67, b: 0xF4))
        #expect(c.description == "#3067F4")
        #expect(Color(r: 1, g: 2, b: 3, a: 128).premultiplied == PremultipliedColor(r: 1, g: 1, b: 2, a: 128))
    }

    @Test(
        "isqrt is floor(√n)", arguments: [0, 1, 2, 3, 4, 15, 16, 17, 1 << 40, (1 << 40) + 12345, 4_503_599_627_370_495])
    func integerSquareRoot(n: Int) {
        let s = isqrt(n)
        #expect(s * s <= n && (s + 1) * (s + 1) > n)
    }
}
