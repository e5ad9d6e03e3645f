import Dispatch

/// Turns one frame's changed rect into palette indices against what the screen shows, and
/// updates the screen to match.
///
/// A pixel becomes the transparent index when it did not change since the previous frame, or
/// when the screen already shows a colour at least as close to it as the best palette entry
/// (gifski's technique: the screen acts as one more palette entry per pixel, so still pixels
/// never flicker and runs of the transparent index compress well). Everything else takes the
/// nearest entry, with Floyd–Steinberg dithering scaled by the dithering level, serpentine.
///
/// Then, row by row, a transparent pixel whose screen colour is exactly the colour of the index
/// next to it takes that index, rightwards from each coded pixel and then leftwards: it shows
/// the same pixel, and a run of one colour stays one LZW run instead of the colour, a
/// transparent stretch and the colour again (a growing circle: the ring that changed around
/// the centre that did not). The decoded frames are the same; the files are smaller, most of
/// all where flat shapes grow.
///
/// The rect is cut into bands of `bandRows` rows that run in parallel; each band starts with
/// no carried error. The cut does not depend on the thread count, so neither do the bytes.
/// All arithmetic is integer. Unchecked `Sendable`: the bands share the pointers, but each
/// writes only its own rows of `screen` and its own output.
package struct ScreenRemap: @unchecked Sendable {
    static let bandRows = 128

    /// The changed rect's pixels, opaque RGBA, `width·height·4` bytes.
    let crop: UnsafePointer<UInt8>
    /// 0 where a pixel did not change; nil on the first frame (nothing is shown yet).
    let importance: UnsafePointer<UInt8>?
    /// The whole screen, opaque RGBA, `frameWidth` pixels a row.
    let screen: UnsafeMutablePointer<UInt8>
    let frameWidth: Int
    /// The rect's origin in the frame.
    let x0: Int, y0: Int
    let width: Int, height: Int
    /// RGB triples.
    let palette: [UInt8]
    /// Entries libimagequant left clear (only ever used as the transparent index).
    let clear: [Bool]
    /// The transparent index, or -1 when the frame has none (the first frame).
    let transparent: Int
    /// 0 (none) ... 1 (full Floyd–Steinberg).
    let dithering: Double
    /// Output: `width·height` indices.
    let indices: UnsafeMutablePointer<UInt8>
    /// False when a lossy LZW pass chooses the final colours and paints the screen itself.
    package var updatesScreen = true

    package init(
        crop: UnsafePointer<UInt8>, importance: UnsafePointer<UInt8>?, screen: UnsafeMutablePointer<UInt8>,
        frameWidth: Int, x0: Int, y0: Int, width: Int, height: Int, palette: [UInt8], clear: [Bool],
        transparent: Int, dithering: Double, indices: UnsafeMutablePointer<UInt8>
    ) {
        self.crop = crop
        self.importance = importance
        self.screen = screen
        self.frameWidth = frameWidth
        self.x0 = x0
        self.y0 = y0
        self.width = width
        self.height = height
        self.palette = palette
        self.clear = clear
        self.transparent = transparent
        self.dithering = dithering
        self.indices = indices
    }

    /// Remaps every band; returns the box of pixels that are not transparent, in rect pixels
    /// (x, y, w, h), or a 1x1 box at the origin when every pixel is.
    package func run() -> (x: Int, y: Int, w: Int, h: Int) {
        let bands = (height + Self.bandRows - 1) / Self.bandRows
        let boxes = UnsafeMutableBufferPointer<(Int, Int, Int, Int)>.allocate(capacity: bands)
        defer { boxes.deallocate() }
        let out = SendableBoxes(pointer: boxes.baseAddress!)
        DispatchQueue.concurrentPerform(iterations: bands) { band in
            let rows = (band * Self.bandRows)..<min(height, (band + 1) * Self.bandRows)
            out.pointer[band] = remap(rows: rows)
        }
        var box = (x0: width, y0: height, x1: -1, y1: -1)
        for b in boxes where b.2 >= 0 {
            box = (min(box.x0, b.0), min(box.y0, b.1), max(box.x1, b.2), max(box.y1, b.3))
        }
        if box.x1 < 0 { return (0, 0, 1, 1) }
        return (box.x0, box.y0, box.x1 - box.x0 + 1, box.y1 - box.y0 + 1)
    }

    /// One band; returns its opaque box as (x0, y0, x1, y1), x1 = -1 when empty.
    private func remap(rows: Range<Int>) -> (Int, Int, Int, Int) {
        let nearest = NearestColour(palette: palette, usable: clear.map { !$0 })
        let level = Int32((dithering * 256).rounded())
        let stride = (width + 2) * 3
        // Carried error in 1/4096 of a level: weight/16 · level/256.
        var thisRow = UnsafeMutablePointer<Int32>.allocate(capacity: stride)
        var nextRow = UnsafeMutablePointer<Int32>.allocate(capacity: stride)
        thisRow.initialize(repeating: 0, count: stride)
        nextRow.initialize(repeating: 0, count: stride)
        defer {
            thisRow.deallocate()
            nextRow.deallocate()
        }
        var box = (x0: width, y0: height, x1: -1, y1: -1)
        let pal = UnsafeMutablePointer<Int32>.allocate(capacity: max(3, palette.count))
        defer { pal.deallocate() }
        for (i, v) in palette.enumerated() { pal[i] = Int32(v) }
        let transparentIndex = UInt8(truncatingIfNeeded: max(transparent, 0))
        for y in rows {
            let forward = y & 1 == 0
            let step = forward ? 1 : -1
            var x = forward ? 0 : width - 1
            if level != 0 { nextRow.update(repeating: 0, count: stride) }
            let screenRow = screen + ((y0 + y) * frameWidth + x0) * 4
            for _ in 0..<width {
                defer { x += step }
                let i = y * width + x
                if let importance, importance[i] == 0 {
                    indices[i] = transparentIndex
                    continue
                }
                let p = crop + i * 4
                var tr = Int32(p[0]), tg = Int32(p[1]), tb = Int32(p[2])
                let e = (x + 1) * 3
                if level != 0 {
                    tr = clamp(tr + ((thisRow[e] + 2048) >> 12))
                    tg = clamp(tg + ((thisRow[e + 1] + 2048) >> 12))
                    tb = clamp(tb + ((thisRow[e + 2] + 2048) >> 12))
                }
                // Always through the memo: a compare with the previous pixel's colour first
                // is a coin toss on photos, and the processor mispredicts it.
                var (index, distance) = nearest.isEmpty ? (transparentIndex, Int32.max) : nearest.nearest(tr, tg, tb)
                var cr = tr, cg = tg, cb = tb
                if distance != Int32.max {
                    cr = pal[Int(index) * 3]
                    cg = pal[Int(index) * 3 + 1]
                    cb = pal[Int(index) * 3 + 2]
                }
                let s = screenRow + x * 4
                if importance != nil {
                    let sr = Int32(s[0]), sg = Int32(s[1]), sb = Int32(s[2])
                    let d = (tr - sr) * (tr - sr) + (tg - sg) * (tg - sg) + (tb - sb) * (tb - sb)
                    if d <= distance {
                        (index, distance) = (transparentIndex, d)
                        (cr, cg, cb) = (sr, sg, sb)
                    }
                }
                indices[i] = index
                if index != transparentIndex || importance == nil {
                    if updatesScreen {
                        s[0] = UInt8(truncatingIfNeeded: cr)
                        s[1] = UInt8(truncatingIfNeeded: cg)
                        s[2] = UInt8(truncatingIfNeeded: cb)
                        s[3] = 255
                    }
                    if x < box.x0 { box.x0 = x }
                    if x > box.x1 { box.x1 = x }
                    if y < box.y0 { box.y0 = y }
                    box.y1 = y
                }
                if level != 0 {
                    let er = (tr - cr) * level, eg = (tg - cg) * level, eb = (tb - cb) * level
                    let ahead = e + step * 3, behind = e - step * 3
                    thisRow[ahead] += er * 7
                    thisRow[ahead + 1] += eg * 7
                    thisRow[ahead + 2] += eb * 7
                    nextRow[behind] += er * 3
                    nextRow[behind + 1] += eg * 3
                    nextRow[behind + 2] += eb * 3
                    nextRow[e] += er * 5
                    nextRow[e + 1] += eg * 5
                    nextRow[e + 2] += eb * 5
                    nextRow[ahead] += er
                    nextRow[ahead + 1] += eg
                    nextRow[ahead + 2] += eb
                }
            }
            if importance != nil && updatesScreen {
                // A lossy match (which paints the screen itself) keeps still pixels transparent.
                let row = indices + y * width
                @inline(__always) func shows(_ x: Int, _ index: UInt8) -> Bool {
                    let s = screenRow + x * 4, c = Int(index) * 3
                    return Int32(s[0]) == pal[c] && Int32(s[1]) == pal[c + 1] && Int32(s[2]) == pal[c + 2]
                }
                // Each recoded pixel has a coded one in its row, so the box only widens.
                var beside = transparentIndex
                for x in 0..<width {
                    if row[x] == transparentIndex && beside != transparentIndex && shows(x, beside) {
                        row[x] = beside
                        box.x1 = max(box.x1, x)
                    } else {
                        beside = row[x]
                    }
                }
                beside = transparentIndex
                for x in (0..<width).reversed() {
                    if row[x] == transparentIndex && beside != transparentIndex && shows(x, beside) {
                        row[x] = beside
                        box.x0 = min(box.x0, x)
                    } else {
                        beside = row[x]
                    }
                }
            }
            swap(&thisRow, &nextRow)
        }
        return box.x1 < 0 ? (0, 0, -1, -1) : (box.x0, box.y0, box.x1, box.y1)
    }

    @inline(__always)
    private func clamp(_ v: Int32) -> Int32 { min(255, max(0, v)) }
}

/// Per-band results, each written by exactly one band.
private struct SendableBoxes: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<(Int, Int, Int, Int)>
}
