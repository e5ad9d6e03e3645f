import Foundation
import Geometry
import Raster

/// A recording and a render next to each other, frame for frame, each under its label: what a
/// person grades motion by.
public enum SideBySide {
    /// The label row's height and the gap between the two, in pixels.
    static let labelHeight = 20, gap = 8

    /// `left` and `right` (each drawn at its own size, top-aligned) with `labels` above them.
    public static func frame(_ left: Bitmap, _ right: Bitmap?, labels: (String, String)) -> Bitmap {
        let width = left.width + gap + (right?.width ?? left.width)
        let height = labelHeight + max(left.height, right?.height ?? 0)
        var out = Bitmap(width: width, height: height, fill: Color.white.premultiplied)
        for (frame, x0) in [(left, 0)] + (right.map { [($0, left.width + gap)] } ?? []) {
            for y in 0..<frame.height {
                for x in 0..<frame.width { out[x0 + x, labelHeight + y] = frame[x, y] }
            }
        }
        let ink = Color(rgb: 0x1C1C1E).premultiplied
        LabelFont.draw(labels.0, into: &out, x: 4, y: 3, scale: 2, color: ink)
        LabelFont.draw(labels.1, into: &out, x: left.width + gap + 4, y: 3, scale: 2, color: ink)
        return out
    }

    /// Writes `count` frames (`frame(i)` each, made as it is written), each shown `interval`
    /// seconds, as a looping GIF, WebP or MP4 at `path` (by its extension), through a
    /// temporary file.
    public static func write(count: Int, interval: Double, to path: String, frame: (Int) throws -> Bitmap) throws
        -> AnimatedOutput.Written
    {
        let first = try frame(0)
        let output = try AnimatedOutput(
            path: path, width: first.width, height: first.height, fps: 1 / interval, encoding: EncodingOptions())
        try output.add(first, at: 0)
        for i in 1..<max(1, count) { try output.add(try frame(i), at: Double(i) * interval) }
        return try output.finish(at: Double(count) * interval, inputFrames: count)
    }
}
