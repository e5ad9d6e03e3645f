import struct Flipbook.Bitmap

/// Making a picture smaller by averaging each output pixel's box of source pixels: what a
/// camera or a screen recorder's scaler does, and what the fit compares at.
enum BoxFilter {
    /// Output column or row `i`'s box of source ones at `scale` source pixels each, from
    /// `origin`, clipped to `0..<limit`.
    static func box(_ i: Int, _ scale: Double, _ origin: Int, _ limit: Int) -> (Int, Int) {
        let a = origin + Int((Double(i) * scale).rounded(.down))
        let b = max(a + 1, origin + Int((Double(i + 1) * scale).rounded(.down)))
        return (max(0, a), min(limit, b))
    }
}

extension Bitmap {
    /// The bitmap box-filtered to `width` × `height`, each channel rounded to nearest: the
    /// boxes a `LumaImage` of it at that size averages.
    func boxFiltered(width: Int, height: Int) -> Bitmap {
        guard width != self.width || height != self.height else { return self }
        let sx = Double(self.width) / Double(width), sy = Double(self.height) / Double(height)
        let columns = (0..<width).map { BoxFilter.box($0, sx, 0, self.width) }
        var out = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            let (y0, y1) = BoxFilter.box(y, sy, 0, self.height)
            for (x, (x0, x1)) in columns.enumerated() {
                var sums = (0, 0, 0, 0)
                for yy in y0..<y1 {
                    for xx in x0..<x1 {
                        let i = yy * rowBytes + xx * 4
                        sums.0 += Int(pixels[i])
                        sums.1 += Int(pixels[i + 1])
                        sums.2 += Int(pixels[i + 2])
                        sums.3 += Int(pixels[i + 3])
                    }
                }
                let n = max(1, (y1 - y0) * (x1 - x0)), o = (y * width + x) * 4
                (out[o], out[o + 1], out[o + 2], out[o + 3]) = (
                    UInt8((sums.0 + n / 2) / n), UInt8((sums.1 + n / 2) / n), UInt8((sums.2 + n / 2) / n),
                    UInt8((sums.3 + n / 2) / n)
                )
            }
        }
        return Bitmap(width: width, height: height, premultipliedPixels: out)
    }
}
