import Geometry
import Flipbook
import Foundation

/// A frame as a score reads it: 8-bit RGB, no alpha, the recording's pixels. Features are
/// measured on each side's own pixels, so a render is first placed as the recording shows its
/// screen (``placed(in:screen:)``), resized with a Lanczos filter.
///
/// The rules are those of the imaging library the promo table was first measured with, so a
/// figure means the same here as it did there: luma is (19595 R + 38470 G + 7471 B + 2¹⁵) >> 16,
/// a reduction is a rounded box mean, and a resize is Lanczos-3 in 22-bit fixed point,
/// horizontal pass first, each pass rounded to 8 bits.
public struct ScoreImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// R, G, B per pixel, row after row.
    public var rgb: [UInt8]

    public init(width: Int, height: Int, rgb: [UInt8]) {
        precondition(rgb.count == width * height * 3)
        self.width = width
        self.height = height
        self.rgb = rgb
    }

    /// A frame's colours, un-premultiplied; its alpha is dropped.
    public init(_ bitmap: Bitmap) {
        var out = [UInt8](repeating: 0, count: bitmap.width * bitmap.height * 3)
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width {
                let i = y * bitmap.rowBytes + x * 4, o = (y * bitmap.width + x) * 3
                let a = Int(bitmap.pixels[i + 3])
                for c in 0..<3 {
                    let v = Int(bitmap.pixels[i + c])
                    out[o + c] = a == 255 || a == 0 ? UInt8(v) : UInt8(min(255, (v * 255 + a / 2) / a))
                }
            }
        }
        self.init(width: bitmap.width, height: bitmap.height, rgb: out)
    }

    /// The colour a score's pictures mark a difference in.
    public static let markColour = Color(rgb: 0xFF2D55).premultiplied

    /// As an opaque bitmap, with `marks` (rects in its pixels) filled in `markColour`.
    public func bitmap(marks: [PixelRect] = []) -> Bitmap {
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for i in 0..<width * height {
            (pixels[4 * i], pixels[4 * i + 1], pixels[4 * i + 2]) = (rgb[3 * i], rgb[3 * i + 1], rgb[3 * i + 2])
        }
        var out = Bitmap(width: width, height: height, premultipliedPixels: pixels)
        for m in marks {
            for y in max(0, m.y)..<min(height, m.y + m.height) {
                for x in max(0, m.x)..<min(width, m.x + m.width) { out[x, y] = Self.markColour }
            }
        }
        return out
    }

    /// The colour at (x, y).
    @inline(__always)
    public func pixel(_ x: Int, _ y: Int) -> (r: Int, g: Int, b: Int) {
        let i = (y * width + x) * 3
        return (Int(rgb[i]), Int(rgb[i + 1]), Int(rgb[i + 2]))
    }

    /// The luma plane.
    func luma() -> LumaPlane {
        var out = [UInt8](repeating: 0, count: width * height)
        for i in out.indices {
            let r = Int(rgb[3 * i]), g = Int(rgb[3 * i + 1]), b = Int(rgb[3 * i + 2])
            out[i] = UInt8((r * 19595 + g * 38470 + b * 7471 + 0x8000) >> 16)
        }
        return LumaPlane(width: width, height: height, values: out)
    }

    /// This render as the recording shows its screen: resized to `size`, or into `screen` (x,
    /// y, width, height) of a frame of that size with the rest grey.
    public func placed(in size: (width: Int, height: Int), screen: Crop?) -> ScoreImage {
        guard let screen else { return resized(width: size.width, height: size.height) }
        let inner = resized(width: screen.width, height: screen.height)
        var out = ScoreImage(
            width: size.width, height: size.height,
            rgb: [UInt8](repeating: 128, count: size.width * size.height * 3))
        for y in 0..<screen.height where (0..<size.height).contains(screen.y + y) {
            for x in 0..<screen.width where (0..<size.width).contains(screen.x + x) {
                let o = ((screen.y + y) * size.width + screen.x + x) * 3, i = (y * screen.width + x) * 3
                out.rgb[o..<o + 3] = inner.rgb[i..<i + 3]
            }
        }
        return out
    }

    /// Lanczos-3 to `width` × `height`: the horizontal pass, then the vertical.
    public func resized(width w: Int, height h: Int) -> ScoreImage {
        if w == width && h == height { return self }
        var image = self
        if w != width {
            let taps = LanczosTaps(from: width, to: w)
            var out = [UInt8](repeating: 0, count: w * height * 3)
            for y in 0..<height {
                for x in 0..<w {
                    for c in 0..<3 {
                        out[(y * w + x) * 3 + c] = taps.apply(x) { image.rgb[(y * width + $0) * 3 + c] }
                    }
                }
            }
            image = ScoreImage(width: w, height: height, rgb: out)
        }
        if h != height {
            let taps = LanczosTaps(from: height, to: h)
            var out = [UInt8](repeating: 0, count: w * h * 3)
            for y in 0..<h {
                for x in 0..<w {
                    for c in 0..<3 { out[(y * w + x) * 3 + c] = taps.apply(y) { image.rgb[($0 * w + x) * 3 + c] } }
                }
            }
            image = ScoreImage(width: w, height: h, rgb: out)
        }
        return image
    }
}

/// One grey plane, 8 bits a pixel.
struct LumaPlane: Sendable {
    let width: Int
    let height: Int
    var values: [UInt8]

    /// `factor` × `factor` boxes averaged and rounded; a box cut by the edge averages what it has.
    func reduced(by factor: Int) -> LumaPlane {
        let w = (width + factor - 1) / factor, h = (height + factor - 1) / factor
        var out = [UInt8](repeating: 0, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                var sum = 0, n = 0
                for yy in y * factor..<min(height, (y + 1) * factor) {
                    for xx in x * factor..<min(width, (x + 1) * factor) {
                        sum += Int(values[yy * width + xx])
                        n += 1
                    }
                }
                out[y * w + x] = UInt8((sum + n / 2) / n)
            }
        }
        return LumaPlane(width: w, height: h, values: out)
    }

    /// The part at (x, y), `w` × `h`, inside the plane.
    func cropped(x: Int, y: Int, width w: Int, height h: Int) -> LumaPlane {
        var out = [UInt8](repeating: 0, count: w * h)
        for row in 0..<h where (0..<height).contains(y + row) {
            for col in 0..<w where (0..<width).contains(x + col) {
                out[row * w + col] = values[(y + row) * width + x + col]
            }
        }
        return LumaPlane(width: w, height: h, values: out)
    }

    /// The RMS difference, in levels, of `template` laid at (x, y); nil where it does not fit.
    func rmsDifference(_ template: LumaPlane, x: Int, y: Int) -> Double? {
        squaredDifference(template, x: x, y: y).map { rms($0, of: template) }
    }

    /// The sum of squared differences of `template` laid at (x, y); nil where it does not fit.
    /// Rows stop being read once the sum passes `bound`: the sum is then only known to be larger.
    func squaredDifference(_ template: LumaPlane, x: Int, y: Int, bound: Int = .max) -> Int? {
        guard x >= 0, y >= 0, x + template.width <= width, y + template.height <= height else { return nil }
        var sum = 0
        for row in 0..<template.height where sum <= bound {
            let a = (y + row) * width + x, b = row * template.width
            for col in 0..<template.width {
                let d = Int(values[a + col]) - Int(template.values[b + col])
                sum += d * d
            }
        }
        return sum
    }

    /// A sum of squared differences over `template`'s pixels as an RMS difference, in levels.
    func rms(_ sum: Int, of template: LumaPlane) -> Double {
        (Double(sum) / Double(template.width * template.height)).squareRoot()
    }
}

/// The taps of a Lanczos-3 resize along one axis, in 22-bit fixed point.
private struct LanczosTaps {
    static let precision = 22
    var first: [Int] = []
    var weights: [[Int]] = []

    init(from source: Int, to size: Int) {
        let scale = Double(source) / Double(size)
        let filterScale = max(scale, 1)
        let support = 3 * filterScale
        func lanczos(_ x: Double) -> Double {
            func sinc(_ x: Double) -> Double { x == 0 ? 1 : sin(x * .pi) / (x * .pi) }
            return -3 < x && x < 3 ? sinc(x) * sinc(x / 3) : 0
        }
        for i in 0..<size {
            let center = (Double(i) + 0.5) * scale
            let lo = max(Int(center - support + 0.5), 0)
            let hi = min(Int(center + support + 0.5), source)
            var k = (lo..<hi).map { lanczos((Double($0) - center + 0.5) / filterScale) }
            let total = k.reduce(0, +)
            if total != 0 { k = k.map { $0 / total } }
            first.append(lo)
            weights.append(
                k.map { v in
                    let f = v * Double(1 << Self.precision)
                    return Int(v < 0 ? f - 0.5 : f + 0.5)
                })
        }
    }

    func apply(_ i: Int, _ value: (Int) -> UInt8) -> UInt8 {
        var sum = 1 << (Self.precision - 1)
        for (j, w) in weights[i].enumerated() { sum += w * Int(value(first[i] + j)) }
        return UInt8(min(255, max(0, sum >> Self.precision)))
    }
}
