import Geometry

/// The one rounding rule of Flipbook's pixel math: every integer quotient rounds to the nearest
/// integer. For channel products that is the exact `a·b/255`; a tie never occurs there, because
/// `2ab` is even and `255·(2k+1)` is odd.
@inline(__always)
package func mul255(_ a: Int, _ b: Int) -> Int {
    let t = a * b + 128
    return (t + (t >> 8)) >> 8
}

/// `mul255` on 32-bit lanes, for the hot loops (the same exact result for a, b in 0...255).
@inline(__always)
package func mul255(_ a: UInt32, _ b: UInt32) -> UInt32 {
    let t = a &* b &+ 128
    return (t &+ (t >> 8)) >> 8
}

extension Color {
    /// The colour with its channels multiplied by its alpha (exact a·b/255).
    public var premultiplied: PremultipliedColor {
        let a = Int(self.a)
        return PremultipliedColor(
            r: UInt8(mul255(Int(r), a)), g: UInt8(mul255(Int(g), a)), b: UInt8(mul255(Int(b), a)),
            a: self.a)
    }
}

/// A colour whose channels are already multiplied by its alpha: the raster's only pixel format.
public struct PremultipliedColor: Hashable, Sendable {
    public var r: UInt8
    public var g: UInt8
    public var b: UInt8
    public var a: UInt8

    public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        precondition(r <= a && g <= a && b <= a, "premultiplied channels cannot exceed alpha")
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }

    /// The colour scaled by a factor in 0...255 (opacity times coverage), channel by channel.
    @inline(__always)
    public func scaled(by f: Int) -> PremultipliedColor {
        PremultipliedColor(
            unchecked: UInt8(mul255(Int(r), f)), UInt8(mul255(Int(g), f)),
            UInt8(mul255(Int(b), f)), UInt8(mul255(Int(a), f)))
    }

    @inline(__always)
    init(unchecked r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }

    /// Back to straight alpha, rounding each quotient to nearest; fully transparent becomes black.
    public var unpremultiplied: Color {
        let a = Int(self.a)
        if a == 0 { return .clear }
        if a == 255 { return Color(r: r, g: g, b: b, a: 255) }
        func un(_ c: UInt8) -> UInt8 { UInt8(min(255, (Int(c) * 255 + a / 2) / a)) }
        return Color(r: un(r), g: un(g), b: un(b), a: self.a)
    }

    /// The pixel as it sits in memory (R, G, B, A bytes) read as a little-endian word.
    @inline(__always)
    public var packed: UInt32 {
        UInt32(r) | UInt32(g) << 8 | UInt32(b) << 16 | UInt32(a) << 24
    }
}

/// Converts straight-alpha RGBA8 bytes to premultiplied, in place.
package func premultiplyRGBA(_ bytes: UnsafeMutableBufferPointer<UInt8>) {
    var i = 0
    let n = bytes.count
    while i + 3 < n {
        let a = Int(bytes[i + 3])
        if a != 255 {
            bytes[i] = UInt8(mul255(Int(bytes[i]), a))
            bytes[i + 1] = UInt8(mul255(Int(bytes[i + 1]), a))
            bytes[i + 2] = UInt8(mul255(Int(bytes[i + 2]), a))
        }
        i += 4
    }
}

/// Converts premultiplied RGBA8 bytes to straight alpha, in place.
package func unpremultiplyRGBA(_ bytes: UnsafeMutableBufferPointer<UInt8>) {
    var i = 0
    let n = bytes.count
    while i + 3 < n {
        let a = Int(bytes[i + 3])
        if a == 0 {
            bytes[i] = 0
            bytes[i + 1] = 0
            bytes[i + 2] = 0
        } else if a != 255 {
            bytes[i] = UInt8(min(255, (Int(bytes[i]) * 255 + a / 2) / a))
            bytes[i + 1] = UInt8(min(255, (Int(bytes[i + 1]) * 255 + a / 2) / a))
            bytes[i + 2] = UInt8(min(255, (Int(bytes[i + 2]) * 255 + a / 2) / a))
        }
        i += 4
    }
}
