import Foundation
import Geometry
import Planner
import Raster

/// Draws a timing curve as a labelled plot: progress against time, the 0 and 1 lines, a grid,
/// the curve, and a dot at each sampled frame.
public enum CurvePlot {
    public static func render(_ curve: Curve, title: String, duration: Double, fps: Double) -> Bitmap {
        let (w, h) = (960.0, 600.0)
        let plot = Rect(x: 110, y: 70, width: 800, height: 440)
        let samples = stride(from: 0.0, through: duration, by: duration / 2000).map { ($0, curve.progress(at: $0)) }
        let lo = min(0, samples.map(\.1).min()!), hi = max(1, samples.map(\.1).max()!)
        let span = hi - lo
        let yMin = lo - span * 0.05, yMax = hi + span * 0.05
        func px(_ t: Double) -> Double { plot.minX + t / duration * plot.width }
        func py(_ p: Double) -> Double { plot.maxY - (p - yMin) / (yMax - yMin) * plot.height }

        let ink = Color(rgb: 0x1C1C1E), grid = Color(rgb: 0xE5E5EA), accent = Color(rgb: 0x3067F4),
            muted = Color(rgb: 0x8E8E93)
        var bitmap = Bitmap(width: Int(w), height: Int(h), fill: Color.white.premultiplied)
        bitmap.withView { view in
            // Grid: every tenth of progress, and a time step that gives 5 to 12 lines.
            for k in Int((yMin * 10).rounded(.up))...Int((yMax * 10).rounded(.down)) {
                let p = Double(k) / 10
                let strong = k == 0 || k == 10
                view.fill(
                    .rect(Rect(x: plot.minX, y: py(p) - (strong ? 1 : 0.5), width: plot.width, height: strong ? 2 : 1)),
                    color: (strong ? muted : grid).premultiplied)
                if k % 5 == 0 || strong {
                    let label = number(p, decimals: 1)
                    LabelFont.drawCapitals(
                        label, at: plot.minX - 14 - LabelFont.capitalsWidth(label, size: 2), py(p) - 7, size: 2,
                        color: ink,
                        on: view)
                }
            }
            let step = [0.01, 0.02, 0.05, 0.1, 0.2, 0.25, 0.5, 1, 2, 5].first { duration / $0 <= 12 } ?? 10
            var t = 0.0
            while t <= duration + 1e-9 {
                view.fill(
                    .rect(Rect(x: px(t) - 0.5, y: plot.minY, width: 1, height: plot.height)), color: grid.premultiplied)
                let label = number(t, decimals: step < 0.1 ? 2 : (step < 1 ? 1 : 0))
                LabelFont.drawCapitals(
                    label, at: px(t) - LabelFont.capitalsWidth(label, size: 2) / 2, plot.maxY + 14, size: 2, color: ink,
                    on: view)
                t += step
            }
            view.fill(
                .rect(Rect(x: plot.minX - 1, y: plot.minY, width: 2, height: plot.height)), color: ink.premultiplied)
            view.fill(
                .rect(Rect(x: plot.minX, y: plot.maxY - 1, width: plot.width, height: 2)), color: ink.premultiplied)

            // The curve: overlapping anti-aliased discs every half pixel make a smooth stroke.
            for (i, (t, p)) in samples.enumerated() where i > 0 {
                let (t0, p0) = samples[i - 1]
                let (x0, y0, x1, y1) = (px(t0), py(p0), px(t), py(p))
                let length = ((x1 - x0) * (x1 - x0) + (y1 - y0) * (y1 - y0)).squareRoot()
                let n = max(1, Int(length * 2))
                for k in 0..<n {
                    let f = Double(k) / Double(n)
                    let (x, y) = (x0 + (x1 - x0) * f, y0 + (y1 - y0) * f)
                    view.fill(
                        .ellipse(Rect(x: x - 1.75, y: y - 1.75, width: 3.5, height: 3.5)), color: accent.premultiplied)
                }
            }
            for t in frameTimes(fps: fps, duration: duration) + [duration] {
                view.fill(
                    .ellipse(Rect(x: px(t) - 3.5, y: py(curve.progress(at: t)) - 3.5, width: 7, height: 7)),
                    color: ink.premultiplied)
            }
            LabelFont.drawCapitals(title, at: plot.minX, 8, size: 3, color: ink, on: view)
            LabelFont.drawCapitals(
                "TIME (S)", at: plot.midX - LabelFont.capitalsWidth("TIME (S)", size: 2) / 2, plot.maxY + 44, size: 2,
                color: muted, on: view)
            LabelFont.drawCapitals("PROGRESS", at: 12, plot.minY - 24, size: 2, color: muted, on: view)
            let dots = "DOTS: FRAMES AT \(number(fps, decimals: 0)) FPS"
            LabelFont.drawCapitals(
                dots, at: plot.maxX - LabelFont.capitalsWidth(dots, size: 2), plot.minY - 24, size: 2, color: muted,
                on: view)
        }
        return bitmap
    }

    /// A number with a fixed count of decimals, and no minus on a zero.
    public static func number(_ v: Double, decimals: Int) -> String {
        var s = String(format: "%.\(decimals)f", v)
        if s == "-0" || s.hasPrefix("-0.") && Double(s) == 0 { s.removeFirst() }
        return s
    }

    /// The moments a render at `fps` shows over `duration` seconds.
    public static func frameTimes(fps: Double, duration: Double) -> [Double] {
        Planner.frameTimes(fps: fps, duration: duration)
    }
}
