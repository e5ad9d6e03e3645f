import Flipbook

/// Where the screen is in a recording whose frames hold more than the screen: a simulator's
/// window with its title bar, a device frame around a screen recording.
///
/// The screen is a rect of the canvas's shape. It holds every pixel the recording changes (the
/// chrome around it stands still while the transition moves), and its picture at the start is
/// the render's first frame; of the rects that hold the changes, the one whose first frame
/// matches the render's best is it, found coarsely and then to the pixel.
enum ScreenFinder {
    /// What the search found: the rect, and how far its first frame is from the render's.
    struct Found: Equatable {
        var crop: Crop
        /// The mean difference of grey levels (0...255) between the two pictures there.
        var difference: Double
    }

    /// Below this mean difference the rect's picture is the render's: the screen is certain.
    static let certain = 12.0
    /// A pixel has changed when its grey level moves by more than this during the recording.
    static let changeLevel: Float = 12
    /// The long side of the coarse search's pictures.
    static let coarseSide = 120

    /// Whether frames of `width` × `height` are the canvas's shape, within a pixel's rounding.
    static func isScreenShaped(width: Int, height: Int, canvas: (width: Double, height: Double)) -> Bool {
        abs(Double(height) - Double(width) * canvas.height / canvas.width) <= 2
    }

    /// The screen in `recording`'s frames, for a canvas of `canvas` whose first frame is
    /// `render`; nil when nothing in the recording changes, so nothing says where the screen is.
    static func find(_ recording: FrameSequence, canvas: (width: Double, height: Double), render: Bitmap) -> Found? {
        let first = recording.frames[0].bitmap
        let (width, height) = (first.width, first.height)
        // The coarse pictures: the recording reduced by a whole factor, so a coarse pixel is a
        // box of whole recording pixels.
        let factor = max(1, (max(width, height) + coarseSide - 1) / coarseSide)
        let (cw, ch) = (width / factor, height / factor)
        let crop = Crop(x: 0, y: 0, width: cw * factor, height: ch * factor)
        let start = LumaImage(first, crop: crop, width: cw, height: ch)
        // The changed pixels' bounds, in coarse pixels.
        var minX = cw, minY = ch, maxX = -1, maxY = -1
        for frame in recording.frames.dropFirst() {
            let picture = LumaImage(frame.bitmap, crop: crop, width: cw, height: ch)
            for y in 0..<ch {
                for x in 0..<cw where abs(picture.pixels[y * cw + x] - start.pixels[y * cw + x]) > changeLevel {
                    minX = min(minX, x)
                    maxX = max(maxX, x)
                    minY = min(minY, y)
                    maxY = max(maxY, y)
                }
            }
        }
        guard maxX >= minX else { return nil }
        let aspect = canvas.height / canvas.width
        // Every rect of the canvas's shape that holds the changes, from the smallest to the
        // frame's largest.
        let smallest = max(maxX - minX + 1, Int((Double(maxY - minY + 1) / aspect).rounded(.up)))
        let largest = min(cw, Int(Double(ch) / aspect))
        var best: (x: Int, y: Int, w: Int, difference: Double)?
        if smallest <= largest {
            for w in smallest...largest {
                let h = Int((Double(w) * aspect).rounded())
                guard h <= ch else { continue }
                guard let ys = span(maxY - h + 1, min(minY, ch - h)), let xs = span(maxX - w + 1, min(minX, cw - w))
                else { continue }
                let ours = LumaImage(render, width: w, height: h)
                for y in ys {
                    for x in xs {
                        let d = difference(ours, start, x: x, y: y)
                        if best == nil || d < best!.difference { best = (x, y, w, d) }
                    }
                }
            }
        }
        guard let coarse = best else { return nil }
        // To the pixel, around the coarse answer.
        let full = LumaImage(first, width: width, height: height)
        var refined = Found(crop: Crop(x: 0, y: 0, width: 1, height: 1), difference: .infinity)
        let (x0, y0, w0) = (coarse.x * factor, coarse.y * factor, coarse.w * factor)
        for w in (w0 - factor)...(w0 + factor) where w > 1 && w <= width {
            let h = Int((Double(w) * aspect).rounded())
            guard h <= height else { continue }
            guard let ys = span(y0 - factor, min(y0 + factor, height - h)),
                let xs = span(x0 - factor, min(x0 + factor, width - w))
            else { continue }
            let ours = LumaImage(render, width: w, height: h)
            for y in ys {
                for x in xs {
                    let d = difference(ours, full, x: x, y: y)
                    if d < refined.difference {
                        refined = Found(crop: Crop(x: x, y: y, width: w, height: h), difference: d)
                    }
                }
            }
        }
        return refined
    }

    /// `low...high` from no less than 0, or nil where that is empty.
    static func span(_ low: Int, _ high: Int) -> ClosedRange<Int>? {
        max(0, low) <= high ? max(0, low)...high : nil
    }

    /// The mean difference of grey levels between `picture` and the part of `frame` it would
    /// cover at (`x`, `y`).
    static func difference(_ picture: LumaImage, _ frame: LumaImage, x: Int, y: Int) -> Double {
        var sum: Float = 0
        picture.pixels.withUnsafeBufferPointer { p in
            frame.pixels.withUnsafeBufferPointer { f in
                for row in 0..<picture.height {
                    let a = row * picture.width, b = (y + row) * frame.width + x
                    for column in 0..<picture.width { sum += abs(p[a + column] - f[b + column]) }
                }
            }
        }
        return Double(sum) / Double(max(1, picture.width * picture.height))
    }
}
