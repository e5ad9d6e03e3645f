import Geometry

/// An immutable snapshot image ready to be drawn, with its mip chain built once.
///
/// Level 0 is the image; each next level halves it with a 2x2 box (rounded to nearest),
/// down to 1x1. Downscales beyond 2x sample a level where the remaining factor is at most 2,
/// so that text in a scaled card does not alias.
public final class Texture: Sendable {
    public let levels: [Bitmap]
    /// True when every pixel of the image is opaque, so opaque draws can become copies.
    public let isOpaque: Bool

    public var width: Int { levels[0].width }
    public var height: Int { levels[0].height }
    public var bounds: Rect { Rect(x: 0, y: 0, width: Double(width), height: Double(height)) }

    /// The image and its mip chain; `shrunkAtMost`, the most its draws shrink it (source pixels
    /// per destination pixel on the axis that shrinks least, as `SampleMapping` reckons it),
    /// leaves out the levels no such draw samples.
    public init(_ bitmap: Bitmap, shrunkAtMost factor: Double = .infinity) {
        var levels = [bitmap]
        var current = bitmap
        // `SampleMapping`'s own steps, so that it picks a level built here.
        var k = factor
        while (current.width > 1 || current.height > 1) && k > 2 {
            current = Texture.halved(current)
            levels.append(current)
            k /= 2
        }
        self.levels = levels
        self.isOpaque = bitmap.isOpaque
    }

    /// The 2x2 box average of `b`, repeating the last row and column for odd sizes: each
    /// channel's four samples summed, plus 2, over 4.
    static func halved(_ b: Bitmap) -> Bitmap {
        let w = (b.width + 1) / 2, h = (b.height + 1) / 2
        // Output columns whose two source columns are both in the bitmap.
        let pairs = b.width / 2
        let out = [UInt8](unsafeUninitializedCapacity: w * h * 4) { dst, count in
            b.pixels.withUnsafeBufferPointer { src in
                guard let base = src.baseAddress else { return }
                let raw = UnsafeRawPointer(base)
                let m: UInt64 = 0x00FF_00FF_00FF_00FF
                for y in 0..<h {
                    let r0 = min(2 * y, b.height - 1) * b.rowBytes
                    let r1 = min(2 * y + 1, b.height - 1) * b.rowBytes
                    let o = y * w * 4
                    // Two pixels of each row as one word: R and B in one word's 16-bit lanes, G
                    // and A in another's, the two rows added, then the two pixels; a lane holds
                    // at most 4 x 255 + 2, so none carries into the next, and the mask drops what
                    // the shift brings down from the lane above.
                    for x in 0..<pairs {
                        let a = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: r0 &+ 8 &* x, as: UInt64.self))
                        let c = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: r1 &+ 8 &* x, as: UInt64.self))
                        let rb = (a & m) &+ (c & m), ga = ((a >> 8) & m) &+ ((c >> 8) & m)
                        let rbSum = (rb & 0xFFFF_FFFF) &+ (rb >> 32), gaSum = (ga & 0xFFFF_FFFF) &+ (ga >> 32)
                        let pixel =
                            ((rbSum &+ 0x0002_0002) >> 2) & 0x00FF_00FF
                            | (((gaSum &+ 0x0002_0002) >> 2) & 0x00FF_00FF) << 8
                        UnsafeMutableRawPointer(dst.baseAddress! + (o &+ 4 &* x)).storeBytes(
                            of: UInt32(truncatingIfNeeded: pixel).littleEndian, as: UInt32.self)
                    }
                    // An odd width's last column, repeated.
                    for x in pairs..<w {
                        let c0 = min(2 * x, b.width - 1) * 4, c1 = min(2 * x + 1, b.width - 1) * 4
                        for ch in 0..<4 {
                            let sum =
                                Int(src[r0 + c0 + ch]) + Int(src[r0 + c1 + ch])
                                + Int(src[r1 + c0 + ch]) + Int(src[r1 + c1 + ch])
                            dst[o + x * 4 + ch] = UInt8((sum + 2) >> 2)
                        }
                    }
                }
            }
            count = w * h * 4
        }
        return Bitmap(width: w, height: h, premultipliedPixels: out)
    }
}

/// One destination column's (or row's) bilinear taps in the source: two indices and the weight
/// of the second, in 1/256.
struct SampleTap {
    var i0: Int32
    var i1: Int32
    var f: Int32
}

/// How a draw maps destination pixels to source samples: which mip level, and the taps on
/// each axis. Sample centres map exactly: destination pixel centre x + ½ goes to
/// `s0 + (x + ½ − d0)·k`, and samples outside the source rect clamp to its edge pixels, so a
/// slice never bleeds its neighbours in.
struct SampleMapping {
    let level: Int
    let x: AxisMapping
    let y: AxisMapping

    init(texture: Texture, source: Rect, destination: Rect) {
        let kx = source.width / destination.width, ky = source.height / destination.height
        var k = min(kx, ky)
        var level = 0
        while k > 2 && level + 1 < texture.levels.count {
            k /= 2
            level += 1
        }
        let scale = Double(1 << level)
        let bitmap = texture.levels[level]
        self.level = level
        x = AxisMapping(
            sourceOrigin: source.minX / scale, sourceLength: source.width / scale,
            destinationOrigin: destination.minX, destinationLength: destination.width, limit: bitmap.width)
        y = AxisMapping(
            sourceOrigin: source.minY / scale, sourceLength: source.height / scale,
            destinationOrigin: destination.minY, destinationLength: destination.height, limit: bitmap.height)
    }
}

/// The taps along one axis.
struct AxisMapping {
    let s0: Double
    let k: Double
    let d0: Double
    let lo: Int
    let hi: Int

    init(sourceOrigin: Double, sourceLength: Double, destinationOrigin: Double, destinationLength: Double, limit: Int) {
        s0 = sourceOrigin
        k = sourceLength / destinationLength
        d0 = destinationOrigin
        let first = Int(max(0, min(Double(limit - 1), sourceOrigin.rounded(.down))))
        let last = Int(max(0, min(Double(limit - 1), (sourceOrigin + sourceLength).rounded(.up) - 1)))
        lo = first
        hi = max(first, last)
    }

    /// The taps for destination pixel `i`.
    @inline(__always)
    func tap(_ i: Int) -> SampleTap {
        let u = s0 + (Double(i) + 0.5 - d0) * k - 0.5
        let q = fixed(u)
        let i0 = q >> 8
        if i0 < lo { return SampleTap(i0: Int32(lo), i1: Int32(lo), f: 0) }
        if i0 >= hi { return SampleTap(i0: Int32(hi), i1: Int32(hi), f: 0) }
        return SampleTap(i0: Int32(i0), i1: Int32(i0 + 1), f: Int32(q & 255))
    }
}
