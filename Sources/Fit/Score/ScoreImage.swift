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
    /// The frame's size.
    public let width: Int
    public let height: Int
    /// The part of the frame held: all of it, or the part a feature reads (``part(_:)``), so
    /// that a recording's frames are kept at the size of what is measured in them.
    let region: PixelRect
    /// R, G, B per pixel of `region`, row after row.
    public var rgb: [UInt8]

    public init(width: Int, height: Int, rgb: [UInt8]) {
        self.init(width: width, height: height, region: PixelRect(x: 0, y: 0, width: width, height: height), rgb: rgb)
    }

    init(width: Int, height: Int, region: PixelRect, rgb: [UInt8]) {
        precondition(rgb.count == region.width * region.height * 3)
        self.width = width
        self.height = height
        self.region = region
        self.rgb = rgb
    }

    /// A frame's colours, un-premultiplied; its alpha is dropped. With `region`, only that part
    /// of it is held.
    public init(_ bitmap: Bitmap, region: PixelRect? = nil) {
        let r = region ?? PixelRect(x: 0, y: 0, width: bitmap.width, height: bitmap.height)
        var out = [UInt8](repeating: 0, count: r.width * r.height * 3)
        let rowBytes = bitmap.rowBytes
        bitmap.pixels.withUnsafeBufferPointer { p in
            out.withUnsafeMutableBufferPointer { out in
                for y in 0..<r.height {
                    var i = (r.y &+ y) &* rowBytes &+ r.x &* 4, o = y &* r.width &* 3
                    for _ in 0..<r.width {
                        let a = Int(p[i &+ 3])
                        for c in 0..<3 {
                            let v = Int(p[i &+ c])
                            out[o &+ c] = a == 255 || a == 0 ? UInt8(v) : UInt8(min(255, (v * 255 + a / 2) / a))
                        }
                        i &+= 4
                        o &+= 3
                    }
                }
            }
        }
        self.init(width: bitmap.width, height: bitmap.height, region: r, rgb: out)
    }

    /// Whether the whole frame is held.
    var isWhole: Bool { region == PixelRect(x: 0, y: 0, width: width, height: height) }

    /// Only `part` of this frame (which must hold it), as a feature reads it.
    func part(_ part: PixelRect) -> ScoreImage {
        precondition(region.intersection(part) == part)
        var out = [UInt8](repeating: 0, count: part.width * part.height * 3)
        for y in 0..<part.height {
            let from = ((part.y - region.y + y) * region.width + part.x - region.x) * 3
            out[y * part.width * 3..<(y + 1) * part.width * 3] = rgb[from..<from + part.width * 3]
        }
        return ScoreImage(width: width, height: height, region: part, rgb: out)
    }

    /// The colour a score's pictures mark a difference in.
    public static let markColour = Color(rgb: 0xFF2D55).premultiplied

    /// As an opaque bitmap, with `marks` (rects in its pixels) filled in `markColour`.
    public func bitmap(marks: [PixelRect] = []) -> Bitmap {
        precondition(isWhole)
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
        let i = ((y &- region.y) &* region.width &+ x &- region.x) &* 3
        return (Int(rgb[i]), Int(rgb[i + 1]), Int(rgb[i + 2]))
    }

    /// The luma plane.
    func luma() -> LumaPlane {
        var out = [UInt8](repeating: 0, count: region.width * region.height)
        for i in out.indices {
            let r = Int(rgb[3 * i]), g = Int(rgb[3 * i + 1]), b = Int(rgb[3 * i + 2])
            out[i] = UInt8((r * 19595 + g * 38470 + b * 7471 + 0x8000) >> 16)
        }
        return LumaPlane(width: width, height: height, region: region, values: out)
    }

    /// This render as the recording shows its screen: resized to `size`, or into `screen` (x,
    /// y, width, height) of a frame of that size with the rest grey. With `within`, only the
    /// pixels there are made (the parts features read); the rest are left black.
    public func placed(in size: (width: Int, height: Int), screen: Crop?, within: PixelRect? = nil) -> ScoreImage {
        precondition(isWhole)
        guard let screen else { return resized(width: size.width, height: size.height, within: within) }
        let inner = resized(
            width: screen.width, height: screen.height,
            within: within.map { PixelRect(x: $0.x - screen.x, y: $0.y - screen.y, width: $0.width, height: $0.height) }
        )
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

    /// Lanczos-3 to `width` × `height`: the horizontal pass, then the vertical. With `within`,
    /// only the pixels there are made, the same as in the whole; the rest are left black.
    public func resized(width w: Int, height h: Int, within: PixelRect? = nil) -> ScoreImage {
        precondition(isWhole)
        if w == width && h == height { return self }
        let wanted = (within ?? PixelRect(x: 0, y: 0, width: w, height: h)).intersection(
            PixelRect(x: 0, y: 0, width: w, height: h))
        guard !wanted.isEmpty else {
            return ScoreImage(width: w, height: h, rgb: [UInt8](repeating: 0, count: w * h * 3))
        }
        let vertical = h != height ? LanczosTaps(from: height, to: h) : nil
        // The source rows the wanted rows are made of.
        let rows =
            vertical.map { $0.sources(of: wanted.y..<wanted.maxY) } ?? (wanted.y..<wanted.maxY)
        var image = self
        if w != width {
            let taps = LanczosTaps(from: width, to: w)
            var out = [UInt8](repeating: 0, count: w * height * 3)
            image.rgb.withUnsafeBufferPointer { source in
                out.withUnsafeMutableBufferPointer { out in
                    for y in rows {
                        // Along a row: a source pixel's channels are 3 apart.
                        taps.apply(
                            source, from: y * width * 3, step: 3, into: out, at: y * w * 3, outStep: 3, channels: 3,
                            outputs: wanted.x..<wanted.maxX)
                    }
                }
            }
            image = ScoreImage(width: w, height: height, rgb: out)
        }
        if let vertical {
            var out = [UInt8](repeating: 0, count: w * h * 3)
            image.rgb.withUnsafeBufferPointer { source in
                out.withUnsafeMutableBufferPointer { out in
                    // Down a column: a row's worth apart; every wanted column's channels at once.
                    vertical.apply(
                        source, from: wanted.x * 3, step: w * 3, into: out, at: wanted.x * 3, outStep: w * 3,
                        channels: wanted.width * 3, outputs: wanted.y..<wanted.maxY)
                }
            }
            image = ScoreImage(width: w, height: h, rgb: out)
        }
        return image
    }
}

/// One grey plane, 8 bits a pixel: of a whole frame, or of the part of it `region` says (its
/// coordinates stay the frame's).
struct LumaPlane: Sendable {
    let width: Int
    let height: Int
    let region: PixelRect
    var values: [UInt8]

    init(width: Int, height: Int, values: [UInt8]) {
        self.init(
            width: width, height: height, region: PixelRect(x: 0, y: 0, width: width, height: height), values: values)
    }

    init(width: Int, height: Int, region: PixelRect, values: [UInt8]) {
        self.width = width
        self.height = height
        self.region = region
        self.values = values
    }

    /// The value at (x, y) of the frame, which must be in `region`.
    @inline(__always)
    func value(_ x: Int, _ y: Int) -> UInt8 { values[(y &- region.y) &* region.width &+ x &- region.x] }

    /// `factor` × `factor` boxes averaged and rounded; a box cut by the edge averages what it has.
    /// A part must start on the boxes' grid and end on it or at the frame's edge, so that its
    /// boxes are the whole frame's.
    func reduced(by factor: Int) -> LumaPlane {
        precondition(region.x % factor == 0 && region.y % factor == 0)
        precondition(
            (region.maxX % factor == 0 || region.maxX == width) && (region.maxY % factor == 0 || region.maxY == height))
        let w = (width + factor - 1) / factor, h = (height + factor - 1) / factor
        let part = PixelRect(
            x: region.x / factor, y: region.y / factor, width: (region.maxX + factor - 1) / factor - region.x / factor,
            height: (region.maxY + factor - 1) / factor - region.y / factor)
        var out = [UInt8](repeating: 0, count: part.width * part.height)
        for y in part.y..<part.maxY {
            for x in part.x..<part.maxX {
                var sum = 0, n = 0
                for yy in y * factor..<min(height, (y + 1) * factor) {
                    for xx in x * factor..<min(width, (x + 1) * factor) {
                        sum += Int(value(xx, yy))
                        n += 1
                    }
                }
                out[(y - part.y) * part.width + x - part.x] = UInt8((sum + n / 2) / n)
            }
        }
        return LumaPlane(width: w, height: h, region: part, values: out)
    }

    /// The part at (x, y), `w` × `h`, inside the plane, as a plane of its own.
    func cropped(x: Int, y: Int, width w: Int, height h: Int) -> LumaPlane {
        var out = [UInt8](repeating: 0, count: w * h)
        for row in 0..<h where (0..<height).contains(y + row) {
            for col in 0..<w where (0..<width).contains(x + col) {
                out[row * w + col] = value(x + col, y + row)
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
        precondition(
            x >= region.x && y >= region.y && x + template.width <= region.maxX && y + template.height <= region.maxY)
        var sum = 0
        for row in 0..<template.height where sum <= bound {
            let a = (y - region.y + row) * region.width + x - region.x, b = row * template.width
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

    /// The source samples outputs `outputs` are made of.
    func sources(of outputs: Range<Int>) -> Range<Int> {
        guard !outputs.isEmpty else { return 0..<0 }
        let low = outputs.map { first[$0] }.min()!, high = outputs.map { first[$0] + weights[$0].count }.max()!
        return low..<max(low, high)
    }

    /// Output samples `outputs` of each of `channels` lines: line `c`'s source samples start at
    /// `from + c` and are `step` apart; its outputs start at `at + c`, `outStep` apart.
    func apply(
        _ source: UnsafeBufferPointer<UInt8>, from: Int, step: Int, into out: UnsafeMutableBufferPointer<UInt8>,
        at: Int, outStep: Int, channels: Int, outputs: Range<Int>
    ) {
        let half = 1 << (Self.precision - 1)
        var sums = [Int](repeating: 0, count: channels)
        sums.withUnsafeMutableBufferPointer { sums in
            for i in outputs {
                for c in 0..<channels { sums[c] = half }
                var s = from &+ first[i] &* step
                for w in weights[i] {
                    for c in 0..<channels { sums[c] &+= w &* Int(source[s &+ c]) }
                    s &+= step
                }
                let o = at &+ i &* outStep
                for c in 0..<channels { out[o &+ c] = UInt8(min(255, max(0, sums[c] >> Self.precision))) }
            }
        }
    }
}
