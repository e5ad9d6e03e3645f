import struct Flipbook.Bitmap
import struct Geometry.Color

/// The strip at the top of a recording's frames that no frame of a change moves, where it
/// shows something: iOS draws the status bar over every screen, and it stays while the screens
/// slide under it. A made scene draws it on top through the change, and each sliding screen
/// shows its own colour there.
enum StatusBar {
    /// When a row has changed from the first frame's: where its mean difference passes `noise`
    /// levels (a codec's or a palette's noise, far under a line of text moving over it), or more
    /// than one pixel in `share` passes `level` in a channel (the tips of a line of text passing
    /// under it), whatever the mean.
    static let changed = (noise: 2.5, level: 48, share: 200)
    /// The tallest it is taken to be, in points (a status bar is 20 to 59), the shortest, and how
    /// far a pixel of the strip must be from its colour for the strip to show something.
    static let (tallest, shortest, ink) = (60.0, 8.0, 64)

    /// The height in points of the status bar of `frames` (one change's, of one size, `canvasWidth`
    /// points across); nil where the top row changes, or the unchanged strip is under
    /// `shortest` or shows nothing but one colour.
    static func height(in frames: [Bitmap], canvasWidth: Double) -> Double? {
        guard let first = frames.first else { return nil }
        let pointsPerRow = canvasWidth / Double(first.width)
        let limit = min(first.height, Int(tallest / pointsPerRow))
        let rows = frames.dropFirst().reduce(limit) { min($0, unchangedRows(of: $1, from: first, limit: $0)) }
        let height = Double(rows) * pointsPerRow
        return height >= shortest && showsSomething(first, rows: rows) ? height : nil
    }

    /// How many rows at the top of `frame`, up to `limit`, are unchanged from `first`'s.
    static func unchangedRows(of frame: Bitmap, from first: Bitmap, limit: Int) -> Int {
        guard (frame.width, frame.height) == (first.width, first.height) else { return 0 }
        let most = max(1, frame.width / Self.changed.share)
        for y in 0..<limit {
            var (sum, moved) = (0, 0)
            let row = y * frame.rowBytes
            for x in 0..<frame.width {
                var far = false
                for c in 0..<3 {
                    let d = abs(Int(frame.pixels[row + x * 4 + c]) - Int(first.pixels[row + x * 4 + c]))
                    sum += d
                    far = far || d > Self.changed.level
                }
                if far { moved += 1 }
            }
            if Double(sum) / Double(frame.width * 3) > Self.changed.noise || moved > most { return y }
        }
        return limit
    }

    /// Whether the top `rows` of `bitmap` hold a pixel far from their colour (text, icons).
    static func showsSomething(_ bitmap: Bitmap, rows: Int) -> Bool {
        let background = median(bitmap, rows: rows)
        for y in 0..<rows {
            for x in 0..<bitmap.width {
                let i = y * bitmap.rowBytes + x * 4
                if (0..<3).contains(where: { abs(Int(bitmap.pixels[i + $0]) - background[$0]) >= ink }) { return true }
            }
        }
        return false
    }

    /// The colour most of `bitmap`'s strip `height` points tall (of `canvasWidth` across) shows:
    /// each channel's median, as a scene file writes it.
    static func color(of bitmap: Bitmap, height: Double, canvasWidth: Double) -> String {
        let rows = min(bitmap.height, max(1, Int(height * Double(bitmap.width) / canvasWidth)))
        let m = median(bitmap, rows: rows)
        return Color(r: UInt8(m[0]), g: UInt8(m[1]), b: UInt8(m[2])).description
    }

    /// Each of R, G and B's median over the top `rows` of `bitmap`.
    private static func median(_ bitmap: Bitmap, rows: Int) -> [Int] {
        (0..<3).map { c in
            var counts = [Int](repeating: 0, count: 256)
            for y in 0..<rows {
                for x in 0..<bitmap.width { counts[Int(bitmap.pixels[y * bitmap.rowBytes + x * 4 + c])] += 1 }
            }
            var seen = 0
            let half = (rows * bitmap.width + 1) / 2
            return counts.indices.first {
                seen += counts[$0]
                return seen >= half
            } ?? 255
        }
    }
}
