import Foundation
import Geometry
import Raster

/// How different two frames may be and still match. The default is exact.
public struct Tolerance: Sendable, Equatable {
    /// The largest per-channel difference allowed (0...255).
    public var maxChannelDelta: Int = 0
    /// The fraction of pixels allowed to differ beyond `maxChannelDelta` (0...1).
    public var maxDifferingFraction: Double = 0
    /// When set, a pixel differs only if its CIE76 colour difference (ΔE in CIELAB, over
    /// white) also exceeds this: 1 is about the smallest difference a person notices.
    public var perceptual: Double? = nil

    public init(maxChannelDelta: Int = 0, maxDifferingFraction: Double = 0, perceptual: Double? = nil) {
        self.maxChannelDelta = maxChannelDelta
        self.maxDifferingFraction = maxDifferingFraction
        self.perceptual = perceptual
    }

    /// One line stating every setting, for reports.
    public var summary: String {
        var parts = [
            "max channel difference \(maxChannelDelta)", "max differing pixels \(maxDifferingFraction * 100)%",
        ]
        parts.append(perceptual.map { "perceptual ΔE76 > \($0)" } ?? "no perceptual threshold")
        return (self == .exact ? "exact (" : "tolerance (") + parts.joined(separator: ", ") + ")"
    }

    /// Whether a pixel pair counts as different; `colours` keeps the CIELAB values already
    /// converted, since frames repeat their colours.
    @inline(__always)
    func differs(_ a: PremultipliedColor, _ e: PremultipliedColor, delta: Int, colours: inout LabCache) -> Bool {
        guard delta > maxChannelDelta else { return false }
        guard let perceptual else { return true }
        return colours.deltaE76(a, e) > perceptual
    }

    public static let exact = Tolerance()

    /// Against a recording: a pixel differs only past a ΔE76 of 5, above what a GIF's palette,
    /// its dithering or a video's encoding moves a colour, so that a recording of the very same
    /// render reads as matching and what shows is motion.
    public static let recording = Tolerance(perceptual: 5)
}

/// How two frames differ.
public struct FrameDifference: Sendable, Equatable {
    /// The expected frame's size, which the differing fraction counts against.
    public var width: Int
    public var height: Int
    /// The actual frame's size: another than the expected's is a size mismatch.
    public var actualWidth: Int
    public var actualHeight: Int
    /// Pixels whose largest channel difference exceeds the tolerance's delta.
    public var differingPixels: Int
    /// The largest channel difference anywhere.
    public var maxChannelDelta: Int
    /// Where that largest difference is.
    public var worstPixel: (x: Int, y: Int)?
    public var sizeMismatch: Bool
    /// The tolerance it was measured with, which also judges it.
    public var tolerance: Tolerance

    /// Both sizes, for a mismatch's message: `actual 120×213, expected 100×178`.
    public var sizes: String { "actual \(actualWidth)×\(actualHeight), expected \(width)×\(height)" }

    public var differingFraction: Double { width * height == 0 ? 0 : Double(differingPixels) / Double(width * height) }

    /// Whether the frames match within the tolerance they were compared with.
    public var passes: Bool {
        !sizeMismatch && (differingPixels == 0 || differingFraction <= tolerance.maxDifferingFraction)
    }

    public static func == (a: FrameDifference, b: FrameDifference) -> Bool {
        a.width == b.width && a.height == b.height && a.actualWidth == b.actualWidth
            && a.actualHeight == b.actualHeight && a.differingPixels == b.differingPixels
            && a.maxChannelDelta == b.maxChannelDelta
            && a.worstPixel?.x == b.worstPixel?.x && a.worstPixel?.y == b.worstPixel?.y
            && a.sizeMismatch == b.sizeMismatch
            && a.tolerance == b.tolerance
    }
}

/// Compares frames pixel by pixel (premultiplied RGBA, all four channels).
public enum FrameComparison {
    public static func compare(_ actual: Bitmap, _ expected: Bitmap, tolerance: Tolerance = .exact) -> FrameDifference {
        guard actual.width == expected.width, actual.height == expected.height else {
            return FrameDifference(
                width: expected.width, height: expected.height, actualWidth: actual.width,
                actualHeight: actual.height, differingPixels: expected.width * expected.height,
                maxChannelDelta: 255, worstPixel: nil, sizeMismatch: true, tolerance: tolerance)
        }
        var differing = 0, worst = 0
        var worstAt: (Int, Int)? = nil
        var colours = LabCache()
        // A row the same byte for byte has no differing pixel and no delta: only the rows that
        // differ are read pixel by pixel, so a long recording of small changes costs its changes.
        let same = actual.pixels.withUnsafeBytes { a in
            expected.pixels.withUnsafeBytes { e in
                guard let a = a.baseAddress, let e = e.baseAddress else {
                    return [Bool](repeating: true, count: actual.height)
                }
                return (0..<actual.height).map { y in
                    memcmp(a + y * actual.rowBytes, e + y * expected.rowBytes, actual.width * 4) == 0
                }
            }
        }
        for y in 0..<actual.height where !same[y] {
            for x in 0..<actual.width {
                let a = actual[x, y], e = expected[x, y]
                let d = max(
                    abs(Int(a.r) - Int(e.r)), abs(Int(a.g) - Int(e.g)), abs(Int(a.b) - Int(e.b)),
                    abs(Int(a.a) - Int(e.a)))
                if tolerance.differs(a, e, delta: d, colours: &colours) { differing += 1 }
                if d > worst {
                    worst = d
                    worstAt = (x, y)
                }
            }
        }
        return FrameDifference(
            width: actual.width, height: actual.height, actualWidth: actual.width, actualHeight: actual.height,
            differingPixels: differing, maxChannelDelta: worst,
            worstPixel: worstAt.map { (x: $0.0, y: $0.1) }, sizeMismatch: false, tolerance: tolerance)
    }

    /// A picture of the difference: the expected frame faded, with differing pixels in
    /// magenta, brighter the larger the difference.
    public static func diffImage(_ actual: Bitmap, _ expected: Bitmap, tolerance: Tolerance = .exact) -> Bitmap {
        let w = max(actual.width, expected.width), h = max(actual.height, expected.height)
        var out = Bitmap(width: w, height: h, fill: Color.white.premultiplied)
        var colours = LabCache()
        for y in 0..<h {
            for x in 0..<w {
                let inA = x < actual.width && y < actual.height, inE = x < expected.width && y < expected.height
                guard inA && inE else {
                    out[x, y] = Color(rgb: 0xFF00FF).premultiplied
                    continue
                }
                let a = actual[x, y], e = expected[x, y]
                let d = max(
                    abs(Int(a.r) - Int(e.r)), abs(Int(a.g) - Int(e.g)), abs(Int(a.b) - Int(e.b)),
                    abs(Int(a.a) - Int(e.a)))
                if tolerance.differs(a, e, delta: d, colours: &colours) {
                    let k = UInt8(128 + min(127, d))
                    out[x, y] = Color(r: k, g: 0, b: k).premultiplied
                } else {
                    let mean: Int = (Int(e.r) + Int(e.g) + Int(e.b)) / 3
                    let grey = UInt8(200 + mean * 55 / 255)
                    out[x, y] = Color(r: grey, g: grey, b: grey).premultiplied
                }
            }
        }
        return out
    }

    /// Actual, expected and diff side by side, each under its name.
    public static func sideBySide(_ actual: Bitmap, _ expected: Bitmap, diff: Bitmap) -> Bitmap {
        let gap = 8
        let columns = [("actual", actual), ("expected", expected), ("diff", diff)]
        let w = actual.width + expected.width + diff.width + 2 * gap
        // Labels grow with the frames so that they stay readable when the sheet is scaled down.
        let scale = max(1, min(4, columns.map(\.1.width).min()! / 160))
        let band = (LabelFont.glyphHeight + 6) * scale
        let h = band + max(actual.height, expected.height, diff.height)
        var out = Bitmap(width: w, height: h, fill: Color(rgb: 0x808080).premultiplied)
        var x = 0
        for (name, b) in columns {
            LabelFont.draw(
                name, into: &out, x: x + 3 * scale, y: 3 * scale, scale: scale, color: Color.white.premultiplied)
            for y in 0..<b.height { for i in 0..<b.width { out[x + i, band + y] = b[i, y] } }
            x += b.width + gap
        }
        return out
    }
}

/// Colours converted to CIELAB, kept in a small direct-mapped table by their RGBA bits.
struct LabCache {
    private var keys = [UInt32](repeating: 0, count: 1024)
    private var filled = [Bool](repeating: false, count: 1024)
    private var values = [(Double, Double, Double)](repeating: (0, 0, 0), count: 1024)

    /// CIE76 ΔE between two pixels composited over white, in CIELAB (D65).
    mutating func deltaE76(_ a: PremultipliedColor, _ b: PremultipliedColor) -> Double {
        let la = lab(a), lb = lab(b)
        let dl = la.0 - lb.0, da = la.1 - lb.1, db = la.2 - lb.2
        return (dl * dl + da * da + db * db).squareRoot()
    }

    private mutating func lab(_ p: PremultipliedColor) -> (Double, Double, Double) {
        let key = UInt32(p.r) | UInt32(p.g) << 8 | UInt32(p.b) << 16 | UInt32(p.a) << 24
        let slot = Int((key &* 2_654_435_761) >> 22)
        if filled[slot] && keys[slot] == key { return values[slot] }
        let value = Comparison.lab(p)
        keys[slot] = key
        filled[slot] = true
        values[slot] = value
        return value
    }
}

func lab(_ p: PremultipliedColor) -> (Double, Double, Double) {
    // Over white: premultiplied + (255 − a), then linear light from a table of every value.
    let r = linearOverWhite[Int(p.r) + 255 - Int(p.a)], g = linearOverWhite[Int(p.g) + 255 - Int(p.a)]
    let b = linearOverWhite[Int(p.b) + 255 - Int(p.a)]
    let x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    let y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    let z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883
    func f(_ t: Double) -> Double { t > 216.0 / 24389 ? Foundation.cbrt(t) : (24389.0 / 27 * t + 16) / 116 }
    return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))
}

/// sRGB's decoding to linear light of a channel composited over white, `c + 255 − a` (0...510:
/// a channel above its alpha is not premultiplied, but is still looked up), as a table.
private let linearOverWhite: [Double] = (0...510).map { index in
    let v = Double(index) / 255
    return v <= 0.04045 ? v / 12.92 : Foundation.pow((v + 0.055) / 1.055, 2.4)
}
