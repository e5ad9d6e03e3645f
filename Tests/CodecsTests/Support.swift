import Foundation
import Geometry
import Raster
import TestSupport

/// A bitmap of random colours; `alpha` picks how alpha is drawn.
func randomBitmap(width: Int, height: Int, seed: UInt64, opaque: Bool, grey: Bool = false) -> Bitmap {
    var rng = SeededRandom(seed: seed)
    var b = Bitmap(width: width, height: height)
    for y in 0..<height {
        for x in 0..<width {
            let r = UInt8.random(in: 0...255, using: &rng)
            let c =
                grey
                ? Color(r: r, g: r, b: r)
                : Color(r: r, g: .random(in: 0...255, using: &rng), b: .random(in: 0...255, using: &rng))
            var straight = c
            straight.a = opaque ? 255 : .random(in: 0...255, using: &rng)
            b[x, y] = straight.premultiplied
        }
    }
    return b
}

/// A smooth scene frame: a gradient with a moving card, like the renderer's output.
func sceneFrame(width: Int, height: Int, t: Double) -> Bitmap {
    var b = Bitmap(width: width, height: height)
    b.withView { view in
        for y in 0..<height {
            let g = UInt8(40 + 180 * y / max(1, height - 1))
            view.subview(PixelRect(x: 0, y: y, width: width, height: 1)).clear(
                to: Color(r: 20, g: g, b: 200).premultiplied)
        }
        view.fill(
            .roundedRect(Rect(x: 4 + t * 30, y: 10, width: 40, height: 30), radius: 8),
            color: Color(rgb: 0xFF6534).premultiplied)
        view.fill(
            .ellipse(Rect(x: 50, y: 40 + t * 10, width: 20, height: 20)), color: Color.white.premultiplied, opacity: 200
        )
    }
    return b
}

/// Peak signal-to-noise ratio of `b` against `a`, over RGB.
func psnr(_ a: Bitmap, _ b: Bitmap) -> Double {
    var sum = 0.0
    var n = 0
    for i in stride(from: 0, to: a.pixels.count, by: 4) {
        for c in 0..<3 {
            let d = Double(a.pixels[i + c]) - Double(b.pixels[i + c])
            sum += d * d
            n += 1
        }
    }
    let mse = sum / Double(n)
    return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
}
