import Geometry
import Flipbook
import Foundation
import Synchronization

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
    /// y, width, height) of a frame of that size with the rest grey. With `part`, only that part
    /// of it is made, the same bytes as there in the whole.
    public func placed(in size: (width: Int, height: Int), screen: Crop?, part: PixelRect? = nil) -> ScoreImage {
        precondition(isWhole)
        let frame = PixelRect(x: 0, y: 0, width: size.width, height: size.height)
        let part = (part ?? frame).intersection(frame)
        guard let screen else { return resized(width: size.width, height: size.height, part: part) }
        var out = ScoreImage(
            width: size.width, height: size.height, region: part,
            rgb: [UInt8](repeating: 128, count: part.width * part.height * 3))
        let shown = part.intersection(PixelRect(x: screen.x, y: screen.y, width: screen.width, height: screen.height))
        guard !shown.isEmpty else { return out }
        let inner = resized(
            width: screen.width, height: screen.height,
            part: PixelRect(x: shown.x - screen.x, y: shown.y - screen.y, width: shown.width, height: shown.height))
        for y in 0..<shown.height {
            let o = ((shown.y - part.y + y) * part.width + shown.x - part.x) * 3, i = y * shown.width * 3
            out.rgb[o..<o + shown.width * 3] = inner.rgb[i..<i + shown.width * 3]
        }
        return out
    }

    /// Lanczos-3 to `width` × `height`: the horizontal pass, then the vertical. With `part`,
    /// only that part of it is made, the same bytes as there in the whole.
    public func resized(width w: Int, height h: Int, part: PixelRect? = nil) -> ScoreImage {
        precondition(isWhole)
        let part = part ?? PixelRect(x: 0, y: 0, width: w, height: h)
        if w == width && h == height { return self.part(part) }
        let vertical = h != height ? LanczosTaps.taps(from: height, to: h) : nil
        // The source rows the part's rows are made of, each resized along the part's columns.
        let rows = vertical.map { $0.sources(of: part.y..<part.maxY) } ?? (part.y..<part.maxY)
        var across = [UInt8](repeating: 0, count: rows.count * part.width * 3)
        rgb.withUnsafeBufferPointer { source in
            across.withUnsafeMutableBufferPointer { out in
                if w == width {
                    for (r, y) in rows.enumerated() {
                        let from = (y * width + part.x) * 3
                        for k in 0..<part.width * 3 { out[r * part.width * 3 + k] = source[from + k] }
                    }
                    return
                }
                let taps = LanczosTaps.taps(from: width, to: w)
                for (r, y) in rows.enumerated() {
                    // Along a row: a source pixel's channels are 3 apart.
                    taps.apply(
                        source, from: y * width * 3, step: 3, into: out, at: (r * part.width - part.x) * 3, outStep: 3,
                        channels: 3, outputs: part.x..<part.maxX)
                }
            }
        }
        guard let vertical else { return ScoreImage(width: w, height: h, region: part, rgb: across) }
        var out = [UInt8](repeating: 0, count: part.width * part.height * 3)
        across.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { out in
                // Down a column: a row's worth apart; every column's channels at once.
                vertical.apply(
                    source, from: -rows.lowerBound * part.width * 3, step: part.width * 3, into: out,
                    at: -part.y * part.width * 3, outStep: part.width * 3, channels: part.width * 3,
                    outputs: part.y..<part.maxY)
            }
        }
        return ScoreImage(width: w, height: h, region: part, rgb: out)
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
private final class LanczosTaps: Sendable {
    static let precision = 22
    /// Each output sample's first source sample, and its weights' place and count in `flat`.
    let first: [Int]
    let offsets: [Int]
    let counts: [Int]
    let flat: [Int]

    /// The taps from `source` samples to `size`, made once for each pair.
    private struct Pair: Hashable { var source, size: Int }
    private static let made = Mutex([Pair: LanczosTaps]())

    static func taps(from source: Int, to size: Int) -> LanczosTaps {
        made.withLock { cache in
            if let taps = cache[Pair(source: source, size: size)] { return taps }
            let taps = LanczosTaps(from: source, to: size)
            cache[Pair(source: source, size: size)] = taps
            return taps
        }
    }

    private init(from source: Int, to size: Int) {
        let scale = Double(source) / Double(size)
        let filterScale = max(scale, 1)
        let support = 3 * filterScale
        func lanczos(_ x: Double) -> Double {
            func sinc(_ x: Double) -> Double { x == 0 ? 1 : sin(x * .pi) / (x * .pi) }
            return -3 < x && x < 3 ? sinc(x) * sinc(x / 3) : 0
        }
        var first: [Int] = [], offsets: [Int] = [], counts: [Int] = [], flat: [Int] = []
        for i in 0..<size {
            let center = (Double(i) + 0.5) * scale
            let lo = max(Int(center - support + 0.5), 0)
            let hi = min(Int(center + support + 0.5), source)
            var k = (lo..<hi).map { lanczos((Double($0) - center + 0.5) / filterScale) }
            let total = k.reduce(0, +)
            if total != 0 { k = k.map { $0 / total } }
            first.append(lo)
            offsets.append(flat.count)
            counts.append(k.count)
            flat += k.map { v in
                let f = v * Double(1 << Self.precision)
                return Int(v < 0 ? f - 0.5 : f + 0.5)
            }
        }
        (self.first, self.offsets, self.counts, self.flat) = (first, offsets, counts, flat)
    }

    /// The source samples outputs `outputs` are made of.
    func sources(of outputs: Range<Int>) -> Range<Int> {
        guard !outputs.isEmpty else { return 0..<0 }
        let low = outputs.map { first[$0] }.min()!, high = outputs.map { first[$0] + counts[$0] }.max()!
        return low..<max(low, high)
    }

    /// Output samples `outputs` of each of `channels` lines: line `c`'s source samples start at
    /// `from + c` and are `step` apart; its outputs start at `at + c`, `outStep` apart.
    func apply(
        _ source: UnsafeBufferPointer<UInt8>, from: Int, step: Int, into out: UnsafeMutableBufferPointer<UInt8>,
        at: Int, outStep: Int, channels: Int, outputs: Range<Int>
    ) {
        let half = 1 << (Self.precision - 1)
        func clamped(_ sum: Int) -> UInt8 { UInt8(min(255, max(0, sum >> Self.precision))) }
        flat.withUnsafeBufferPointer { flat in
            if channels == 3 {
                // A row's pixels: the three sums in registers.
                for i in outputs {
                    var (r, g, b) = (half, half, half)
                    var s = from &+ first[i] &* step, k = offsets[i]
                    for _ in 0..<counts[i] {
                        let w = flat[k]
                        r &+= w &* Int(source[s])
                        g &+= w &* Int(source[s &+ 1])
                        b &+= w &* Int(source[s &+ 2])
                        s &+= step
                        k &+= 1
                    }
                    let o = at &+ i &* outStep
                    (out[o], out[o &+ 1], out[o &+ 2]) = (clamped(r), clamped(g), clamped(b))
                }
                return
            }
            var sums = [Int](repeating: 0, count: channels)
            sums.withUnsafeMutableBufferPointer { sums in
                for i in outputs {
                    for c in 0..<channels { sums[c] = half }
                    var s = from &+ first[i] &* step
                    for k in offsets[i]..<offsets[i] &+ counts[i] {
                        let w = flat[k]
                        for c in 0..<channels { sums[c] &+= w &* Int(source[s &+ c]) }
                        s &+= step
                    }
                    let o = at &+ i &* outStep
                    for c in 0..<channels { out[o &+ c] = clamped(sums[c]) }
                }
            }
        }
    }
}
