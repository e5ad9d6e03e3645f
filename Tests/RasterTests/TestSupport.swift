import Geometry
import Raster
import TestSupport

extension SeededRandom {
    mutating func byte() -> UInt8 { UInt8.random(in: 0...255, using: &self) }
    mutating func double(_ r: ClosedRange<Double>) -> Double { Double.random(in: r, using: &self) }
    /// Mostly fractional, sometimes whole-pixel values, so both kinds of edge are exercised.
    mutating func coordinate(_ r: ClosedRange<Double>) -> Double {
        let v = double(r)
        return Bool.random(using: &self) ? v.rounded() : v
    }

    mutating func premultipliedColor(opaque: Bool = false) -> PremultipliedColor {
        Color(r: byte(), g: byte(), b: byte(), a: opaque ? 255 : (Bool.random(using: &self) ? 255 : byte()))
            .premultiplied
    }

    /// A bitmap of random premultiplied pixels.
    mutating func bitmap(width: Int, height: Int, opaque: Bool) -> Bitmap {
        var b = Bitmap(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                b[x, y] = premultipliedColor(opaque: opaque)
            }
        }
        return b
    }

    mutating func rect(in w: Double, _ h: Double) -> Rect {
        let x = coordinate(-10...w), y = coordinate(-10...h)
        return Rect(x: x, y: y, width: coordinate(0.3...w), height: coordinate(0.3...h))
    }

    mutating func clip(in w: Double, _ h: Double) -> Clip {
        switch Int.random(in: 0...2, using: &self) {
        case 0: return .none
        case 1: return .rect(rect(in: w, h))
        default: return .roundedRect(rect(in: w, h), radius: double(0...20))
        }
    }
}

/// Counts the bytes that differ between two bitmaps of the same size.
func differingBytes(_ a: Bitmap, _ b: Bitmap) -> Int {
    zip(a.pixels, b.pixels).reduce(0) { $0 + ($1.0 != $1.1 ? 1 : 0) }
}
