import Geometry

/// The plain, per-pixel definition of every raster operation. The fast paths in `fill` and
/// `draw` must give byte-identical results; the tests hold them to it on random cases.
///
/// It shares no coverage or sampling code with them: each pixel's coverage and bilinear taps
/// are worked out here from the definitions, so a mistake in `ShapeCoverage` or
/// `SampleMapping` shows up as a difference rather than being repeated on both sides.
public enum ReferenceRaster {
    /// Fills a shape, pixel by pixel over the whole view.
    public static func fill(
        _ view: BitmapView, _ shape: Shape, color: PremultipliedColor, opacity: UInt8 = 255, clip: Clip = .none
    ) {
        let cover = PlainShape(shape)
        let clipCover = PlainShape(clip)
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
        let cover = PlainShape(Shape.rect(destination))
        let clipCover = PlainShape(clip)
        // The level: the largest halving that leaves the remaining downscale at most 2.
        var level = 0
        var downscale = min(source.width / destination.width, source.height / destination.height)
        while downscale > 2 && level + 1 < texture.levels.count {
            downscale /= 2
            level += 1
        }
        let image = texture.levels[level]
        let halvings = Double(1 << level)
        for y in 0..<view.height {
            for x in 0..<view.width {
                let f = factor(cover, clipCover, x, y, Int(opacity))
                if f == 0 { continue }
                let (x0, x1, fx) = taps(
                    pixel: x, source: source.minX / halvings, sourceLength: source.width / halvings,
                    destination: destination.minX, destinationLength: destination.width, size: image.width)
                let (y0, y1, fy) = taps(
                    pixel: y, source: source.minY / halvings, sourceLength: source.height / halvings,
                    destination: destination.minY, destinationLength: destination.height, size: image.height)
                let p00 = image[x0, y0], p01 = image[x1, y0]
                let p10 = image[x0, y1], p11 = image[x1, y1]
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
    static func factor(_ cover: PlainShape, _ clip: PlainShape?, _ x: Int, _ y: Int, _ opacity: Int) -> Int {
        var cov = cover.coverage(x, y)
        if let c = clip { cov = mul255(cov, c.coverage(x, y)) }
        return mul255(cov, opacity)
    }

    /// The two source pixels a destination pixel's centre falls between along one axis, and
    /// the second one's weight in 1/256. The centre maps linearly from the destination span
    /// onto the source span (pixel centres at +½); outside the source span's pixels it takes
    /// the edge pixel alone.
    static func taps(
        pixel: Int, source: Double, sourceLength: Double, destination: Double, destinationLength: Double, size: Int
    ) -> (Int, Int, Int) {
        let centre = source + (Double(pixel) + 0.5 - destination) * (sourceLength / destinationLength) - 0.5
        let fixedCentre = fixed(centre)
        let below = fixedCentre >> 8
        // The source span's first and last pixels, within the image.
        let first = Int(max(0, min(Double(size - 1), source.rounded(.down))))
        let last = max(first, Int(max(0, min(Double(size - 1), (source + sourceLength).rounded(.up) - 1))))
        if below < first { return (first, first, 0) }
        if below >= last { return (last, last, 0) }
        return (below, below + 1, fixedCentre & 255)
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

/// A shape's coverage worked out pixel by pixel from the definition: the area of the pixel
/// inside the shape's rect, in 1/256 px on each side, and in a corner the distance from the
/// pixel's centre to the corner's arc, `radius − distance + ½ px`, whichever is less.
struct PlainShape {
    /// The rect's edges and the corners' radii in 1/256 px.
    let left: Int, top: Int, right: Int, bottom: Int
    let radiusX: Int, radiusY: Int

    init(_ shape: Shape) {
        let rect: Rect
        var rx = 0.0, ry = 0.0
        switch shape {
        case .rect(let r): rect = r
        case .roundedRect(let r, let radius): (rect, rx, ry) = (r, radius, radius)
        case .ellipse(let r): (rect, rx, ry) = (r, r.width / 2, r.height / 2)
        }
        left = fixed(rect.minX)
        top = fixed(rect.minY)
        right = max(left, fixed(rect.maxX))
        bottom = max(top, fixed(rect.maxY))
        // A radius is at most half the side it rounds; a corner needs both radii.
        let cx = min(max(0, fixed(rx)), (right - left) / 2), cy = min(max(0, fixed(ry)), (bottom - top) / 2)
        (radiusX, radiusY) = cx > 0 && cy > 0 ? (cx, cy) : (0, 0)
    }

    init?(_ clip: Clip) {
        switch clip {
        case .none: return nil
        case .rect(let r): self.init(Shape.rect(r))
        case .roundedRect(let r, let radius): self.init(Shape.roundedRect(r, radius: radius))
        }
    }

    /// Pixel (x, y)'s covered fraction, 0...255.
    func coverage(_ x: Int, _ y: Int) -> Int {
        let width = min(max(min(right, (x + 1) * 256) - max(left, x * 256), 0), 256)
        let height = min(max(min(bottom, (y + 1) * 256) - max(top, y * 256), 0), 256)
        var area = width * height
        if area > 0 && radiusX > 0 {
            let (centreX, centreY) = (x * 256 + 128, y * 256 + 128)
            // The four arcs' centres, each with the way out of the rect from it; a pixel centre
            // beyond one on both axes is in that corner.
            for (arcX, outX) in [(left + radiusX, -1), (right - radiusX, 1)] {
                for (arcY, outY) in [(top + radiusY, -1), (bottom - radiusY, 1)] {
                    let (dx, dy) = ((centreX - arcX) * outX, (centreY - arcY) * outY)
                    if dx > 0 && dy > 0 { area = min(area, cornerCoverage(dx, dy) * 256) }
                }
            }
        }
        return (area * 255 + 32768) >> 16
    }

    /// How much of a pixel whose centre is (dx, dy) from a corner's arc centre lies inside the
    /// arc, 0...256. A circle's distance is exact (integer square root); an ellipse's is the
    /// first-order distance `F / |∇F|` of `F = (dx/rx)² + (dy/ry)² − 1`.
    func cornerCoverage(_ dx: Int, _ dy: Int) -> Int {
        let inside: Int
        if radiusX == radiusY {
            inside = radiusX - Self.squareRoot(dx * dx + dy * dy) + 128
        } else {
            let (a, b) = (Double(radiusX), Double(radiusY))
            let (nx, ny) = (Double(dx) / a, Double(dy) / b)
            let (gx, gy) = (nx / a, ny / b)
            let distance = (nx * nx + ny * ny - 1) / (2 * (gx * gx + gy * gy).squareRoot())
            inside = Int((128 - distance).rounded(.down))
        }
        return min(max(inside, 0), 256)
    }

    /// floor(√n), by bisection over the integers.
    static func squareRoot(_ n: Int) -> Int {
        var (low, high) = (0, 1)
        while high * high <= n { high *= 2 }
        while high - low > 1 {
            let middle = (low + high) / 2
            if middle * middle <= n { low = middle } else { high = middle }
        }
        return low
    }
}
