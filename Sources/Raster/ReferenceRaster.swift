import Geometry

/// The plain, per-pixel definition of every raster operation. The fast paths in `fill` and
/// `draw` must give byte-identical results; the tests hold them to it on random cases.
public enum ReferenceRaster {
    /// Fills a shape, pixel by pixel over the whole view.
    public static func fill(
        _ view: BitmapView, _ shape: Shape, color: PremultipliedColor, opacity: UInt8 = 255, clip: Clip = .none
    ) {
        let cover = ShapeCoverage(shape)
        let clipCover = clip.coverage
        for y in 0..<view.height {
            for x in 0..<view.width {
                let f = factor(cover, clipCover, x, y, Int(opacity))
                if f == 0 { continue }
                composite(view, x, y, [Int(color.r), Int(color.g), Int(color.b), Int(color.a)].map { mul255($0, f) })
            }
        }
    }

    /// Draws a snapshot, pixel by pixel over the whole view.
    public static func draw(
        _ view: BitmapView, _ texture: Texture, from source: Rect, to destination: Rect, opacity: UInt8 = 255,
        clip: Clip = .none
    ) {
        guard !source.isEmpty, !destination.isEmpty else { return }
        let cover = ShapeCoverage(destination, radiusX: 0, radiusY: 0)
        let clipCover = clip.coverage
        let map = SampleMapping(texture: texture, source: source, destination: destination)
        let level = texture.levels[map.level]
        for y in 0..<view.height {
            for x in 0..<view.width {
                let f = factor(cover, clipCover, x, y, Int(opacity))
                if f == 0 { continue }
                let tx = map.x.tap(x), ty = map.y.tap(y)
                let (fx, fy) = (Int(tx.f), Int(ty.f))
                let p00 = level[Int(tx.i0), Int(ty.i0)], p01 = level[Int(tx.i1), Int(ty.i0)]
                let p10 = level[Int(tx.i0), Int(ty.i1)], p11 = level[Int(tx.i1), Int(ty.i1)]
                func channel(_ k: KeyPath<PremultipliedColor, UInt8>) -> Int {
                    let sum =
                        Int(p00[keyPath: k]) * (256 - fx) * (256 - fy) + Int(p01[keyPath: k]) * fx * (256 - fy)
                        + Int(p10[keyPath: k]) * (256 - fx) * fy + Int(p11[keyPath: k]) * fx * fy
                    return (sum + 32768) >> 16
                }
                let s = [channel(\.r), channel(\.g), channel(\.b), channel(\.a)]
                composite(view, x, y, s.map { mul255($0, f) })
            }
        }
    }

    /// Coverage times clip times opacity, 0...255.
    static func factor(_ cover: ShapeCoverage, _ clip: ShapeCoverage?, _ x: Int, _ y: Int, _ opacity: Int) -> Int {
        var cov = cover.coverage(x, y)
        if let c = clip { cov = mul255(cov, c.coverage(x, y)) }
        return mul255(cov, opacity)
    }

    /// Source-over: d = s + d·(255 − sa)/255.
    static func composite(_ view: BitmapView, _ x: Int, _ y: Int, _ s: [Int]) {
        let p = view.base + y * view.rowBytes + x * 4
        let inv = 255 - s[3]
        for c in 0..<4 {
            p[c] = UInt8(min(255, s[c] + mul255(Int(p[c]), inv)))
        }
    }
}
