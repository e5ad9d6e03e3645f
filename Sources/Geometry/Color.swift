/// A colour with straight (not premultiplied) alpha: what users, configs and codecs speak.
public struct Color: Hashable, Sendable, CustomStringConvertible {
    public var r: UInt8
    public var g: UInt8
    public var b: UInt8
    public var a: UInt8

    public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }

    /// `0xRRGGBB` with full alpha.
    public init(rgb: UInt32, alpha: UInt8 = 255) {
        self.init(r: UInt8(rgb >> 16 & 0xFF), g: UInt8(rgb >> 8 & 0xFF), b: UInt8(rgb & 0xFF), a: alpha)
    }

    public static let black = Color(r: 0, g: 0, b: 0)
    public static let white = Color(r: 255, g: 255, b: 255)
    public static let clear = Color(r: 0, g: 0, b: 0, a: 0)

    /// "#RRGGBB" (opaque) or "#RRGGBBAA", as configs and scene files write colours; nil for
    /// anything else.
    public init?(hex text: String) {
        guard text.hasPrefix("#"), text.count == 7 || text.count == 9,
            text.dropFirst().allSatisfy(\.isHexDigit), let v = UInt64(text.dropFirst(), radix: 16)
        else { return nil }
        if text.count == 7 {
            self.init(rgb: UInt32(v))
        } else {
            self.init(rgb: UInt32(v >> 8), alpha: UInt8(v & 0xFF))
        }
    }

    /// "#RRGGBB", or "#RRGGBBAA" when not opaque: the syntax configs and scene files take.
    public var description: String {
        let opaque = a == 255
        let value = (Int(r) << 16 | Int(g) << 8 | Int(b)) << (opaque ? 0 : 8) | (opaque ? 0 : Int(a))
        let digits = String(value, radix: 16, uppercase: true)
        return "#" + String(repeating: "0", count: (opaque ? 6 : 8) - digits.count) + digits
    }
}
