import struct Flipbook.Bitmap
import struct Flipbook.PremultipliedColor

/// The screen inside a recording's larger frames (a padded capture, a window's flat margin): the
/// part inside a border of one flat colour that the first and the last frame both have.
enum ScreenBorder {
    /// A pixel belongs to the border within this many levels of its colour, in each channel.
    static let tolerance = 24

    /// The screen, where all four sides have a flat border at least a fiftieth of the frame wide
    /// (an app's own margin, or a flat background around its content, stops at its status bar);
    /// nil where the frame is the screen.
    static func screen(first: Bitmap, last: Bitmap) -> Crop? {
        guard first.width == last.width, first.height == last.height, first.width > 4, first.height > 4 else {
            return nil
        }
        let (w, h) = (first.width, first.height)
        let colour = first[0, 0]
        /// Within the tolerance of the border's colour in each channel, as opaque as it.
        func near(_ p: PremultipliedColor) -> Bool {
            let dr = abs(Int(p.r) - Int(colour.r)), dg = abs(Int(p.g) - Int(colour.g))
            let db = abs(Int(p.b) - Int(colour.b))
            return max(dr, dg, db) <= tolerance && p.a == colour.a
        }
        func flat(_ x: Int, _ y: Int) -> Bool { near(first[x, y]) && near(last[x, y]) }
        func flatRow(_ y: Int) -> Bool { stride(from: 0, to: w, by: 2).allSatisfy { flat($0, y) } }
        func flatColumn(_ x: Int) -> Bool { stride(from: 0, to: h, by: 2).allSatisfy { flat(x, $0) } }
        var (top, bottom, left, right) = (0, h - 1, 0, w - 1)
        while top < h / 2 && flatRow(top) { top += 1 }
        while bottom > h / 2 && flatRow(bottom) { bottom -= 1 }
        while left < w / 2 && flatColumn(left) { left += 1 }
        while right > w / 2 && flatColumn(right) { right -= 1 }
        let sides = [top, h - 1 - bottom, left, w - 1 - right]
        let wide = zip(sides, [h, h, w, w]).filter { side, size in side * 50 >= size }.count
        guard wide == 4, right - left + 1 >= w * 3 / 10, bottom - top + 1 >= h * 3 / 10 else { return nil }
        return Crop(x: left, y: top, width: right - left + 1, height: bottom - top + 1)
    }
}
