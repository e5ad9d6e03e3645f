import Flipbook

/// A grey picture in floats, at a working size: what fitting compares. Each pixel is the mean
/// of R, G and B over the box of source pixels it covers, composited over white, so a
/// recording and a render of different sizes compare on the same grid.
struct LumaImage: Sendable {
    let width: Int
    let height: Int
    var pixels: [Float]

    init(width: Int, height: Int, pixels: [Float]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The part `crop` (x, y, width, height in the bitmap's pixels; all of it by default) of
    /// `bitmap`, box-filtered to `width` × `height`.
    init(_ bitmap: Bitmap, crop: Crop? = nil, width: Int, height: Int) {
        let c = crop ?? Crop(x: 0, y: 0, width: bitmap.width, height: bitmap.height)
        self.width = width
        self.height = height
        var out = [Float](repeating: 255, count: width * height)
        let sx = Double(c.width) / Double(width), sy = Double(c.height) / Double(height)
        // Each output column's box of source columns, the same for every row.
        let columns = (0..<width).map { x in
            let x0 = c.x + Int((Double(x) * sx).rounded(.down))
            let x1 = max(x0 + 1, c.x + Int((Double(x + 1) * sx).rounded(.down)))
            return max(0, x0)..<min(bitmap.width, x1)
        }
        bitmap.pixels.withUnsafeBufferPointer { p in
            for y in 0..<height {
                let y0 = c.y + Int((Double(y) * sy).rounded(.down))
                let y1 = max(y0 + 1, c.y + Int((Double(y + 1) * sy).rounded(.down)))
                let rows = max(0, y0)..<min(bitmap.height, y1)
                for x in 0..<width {
                    var sum = 0, n = 0
                    for yy in rows {
                        let row = yy * bitmap.rowBytes
                        for xx in columns[x] {
                            let i = row + xx * 4
                            // Premultiplied over white: c + (255 − a).
                            let white = 255 - Int(p[i + 3])
                            sum += Int(p[i]) + Int(p[i + 1]) + Int(p[i + 2]) + 3 * white
                            n += 3
                        }
                    }
                    if n > 0 { out[y * width + x] = Float(sum) / Float(n) }
                }
            }
        }
        pixels = out
    }

    /// The mean absolute difference from `other` (the same size), in levels 0...255.
    func meanDifference(_ other: LumaImage) -> Double {
        var sum: Float = 0
        for i in pixels.indices { sum += abs(pixels[i] - other.pixels[i]) }
        return Double(sum) / Double(max(1, pixels.count))
    }

    /// The value at (x, y), bilinear; outside the picture, the nearest edge pixel.
    @inline(__always)
    func sample(_ x: Double, _ y: Double) -> Float {
        let cx = min(max(x, 0), Double(width - 1)), cy = min(max(y, 0), Double(height - 1))
        let x0 = Int(cx), y0 = Int(cy)
        let x1 = min(x0 + 1, width - 1), y1 = min(y0 + 1, height - 1)
        let fx = Float(cx - Double(x0)), fy = Float(cy - Double(y0))
        let a = pixels[y0 * width + x0], b = pixels[y0 * width + x1]
        let c = pixels[y1 * width + x0], d = pixels[y1 * width + x1]
        return (a + (b - a) * fx) + ((c + (d - c) * fx) - (a + (b - a) * fx)) * fy
    }
}

/// A rectangle of a recording's pixels: what `--crop` keeps (the screen, without a
/// simulator's title bar).
public struct Crop: Sendable, Hashable, Codable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}
