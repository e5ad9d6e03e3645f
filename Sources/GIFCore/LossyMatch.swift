/// What a lossy match may do: the source pixels, what the screen shows under them, and how
/// far from its source a pixel may be written.
///
/// A changed pixel may take any usable palette entry, or the transparent index (showing the
/// screen), whose colour is no farther from the source than `tolerance` levels (Euclidean, in
/// RGB), or than the colour remapping chose, whichever is farther. Pixels that did not change
/// keep the transparent index, so still pixels never flicker. A pixel that has just stopped
/// changing (`settling`) takes the colour remapping chose: what a lossy frame let through is
/// mended in the frame after, rather than shown for as long as the pixel stays still (a faded
/// text's ghost on a white page).
package struct LossyMatch {
    /// The frame's pixels under the indices, opaque RGBA, `cropStride` pixels a row.
    let crop: UnsafePointer<UInt8>
    let cropStride: Int
    /// 0 where a pixel did not change; nil on the first frame.
    let importance: UnsafePointer<UInt8>?
    /// The screen under the indices' first pixel, `frameWidth` pixels a row; read for the
    /// transparent index's colour, then written with the colours chosen.
    let screen: UnsafeMutablePointer<UInt8>
    let frameWidth: Int
    /// RGB as Int32 triples, one per index.
    let palette: UnsafePointer<Int32>
    /// Per index: `unusable`, `colour`, or `showsScreen` (the transparent index).
    let kinds: UnsafePointer<UInt8>
    /// Squared distance any pixel may have from its source.
    let tolerance: Int32

    /// An importance: the pixel did not change since the previous frame, but did in the one
    /// before; it is coded as remapping chose, with no slack.
    package static let settling: UInt8 = 1

    /// An index's kind: an entry libimagequant left clear, which no pixel may take.
    package static let unusable: UInt8 = 0
    /// An index's kind: a palette colour.
    package static let colour: UInt8 = 1
    /// An index's kind: the transparent index, which shows what is on the screen.
    package static let showsScreen: UInt8 = 2

    package init(
        crop: UnsafePointer<UInt8>, cropStride: Int, importance: UnsafePointer<UInt8>?,
        screen: UnsafeMutablePointer<UInt8>, frameWidth: Int, palette: UnsafePointer<Int32>,
        kinds: UnsafePointer<UInt8>, tolerance: Int32
    ) {
        self.crop = crop
        self.cropStride = cropStride
        self.importance = importance
        self.screen = screen
        self.frameWidth = frameWidth
        self.palette = palette
        self.kinds = kinds
        self.tolerance = tolerance
    }
}

extension LossyMatch {
    /// Squared RGB distance from the source at (x, y) to index `i`'s colour.
    @inline(__always)
    func distance(_ i: Int, x: Int, y: Int) -> Int32 {
        let s = crop + (y * cropStride + x) * 4
        let c: (Int32, Int32, Int32)
        if kinds[i] == Self.showsScreen {
            let v = screen + (y * frameWidth + x) * 4
            c = (Int32(v[0]), Int32(v[1]), Int32(v[2]))
        } else {
            c = (palette[i * 3], palette[i * 3 + 1], palette[i * 3 + 2])
        }
        let dr = Int32(s[0]) - c.0, dg = Int32(s[1]) - c.1, db = Int32(s[2]) - c.2
        return dr * dr + dg * dg + db * db
    }

    /// Puts the chosen colours on the screen (transparent pixels leave it as it is).
    func paint(indices: UnsafeMutablePointer<UInt8>, rowStride: Int, width: Int, rows: Range<Int>) {
        for y in rows {
            let row = indices + y * rowStride
            let out = screen + y * frameWidth * 4
            for x in 0..<width {
                let i = Int(row[x])
                if kinds[i] == Self.showsScreen { continue }
                out[x * 4] = UInt8(truncatingIfNeeded: palette[i * 3])
                out[x * 4 + 1] = UInt8(truncatingIfNeeded: palette[i * 3 + 1])
                out[x * 4 + 2] = UInt8(truncatingIfNeeded: palette[i * 3 + 2])
                out[x * 4 + 3] = 255
            }
        }
    }
}
