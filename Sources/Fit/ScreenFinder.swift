import Flipbook

/// Where the screen is in a recording whose frames hold more than the screen: a simulator's
/// window with its title bar, a device frame around a screen recording.
///
/// The screen is a rect of the canvas's shape. It holds every pixel the recording changes (the
/// chrome around it stands still while the transition moves), and its picture at the start is
/// the render's first frame (or, for a recording that starts mid-motion, the storyboard's
/// moment most like it); of the rects that hold the changes, the one whose first frame matches
/// that picture best is it, found coarsely and then to the pixel.
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

    /// The screen in `recording`'s frames where they are not the canvas's shape (nil where they
    /// are); throws where it is not found for certain, naming the rect it would have taken.
    /// `render` gives the storyboard at a time within `duration`: a recording that starts
    /// mid-motion is matched against the moment its first frame shows.
    static func screen(
        of recording: FrameReader, canvas: (width: Double, height: Double), duration: Double,
        render: (Double) -> Bitmap
    ) throws -> Crop? {
        guard let (frame, _) = try recording.next(),
            !isScreenShaped(width: frame.bitmap.width, height: frame.bitmap.height, canvas: canvas)
        else { return nil }
        let first = frame.bitmap
        guard let changes = try Changes(first: first, then: recording) else {
            throw ScreenNotFound(width: first.width, height: first.height, best: nil, difference: 0)
        }
        var found = search(first: first, changes: changes, canvas: canvas, render: render(0))
        if let atStart = found, atStart.difference >= certain {
            // Not the storyboard's first picture: the moment whose picture is most like the
            // first frame there, on a grid of a twentieth of a second, then the search with it.
            let side = (width: 64, height: Int((64 * canvas.height / canvas.width).rounded()))
            let theirs = LumaImage(first, crop: atStart.crop, width: side.width, height: side.height)
            let moments = stride(from: 0.0, through: duration, by: 0.05).map { time in
                (time, LumaImage(render(time), width: side.width, height: side.height).meanDifference(theirs))
            }
            if let closest = moments.min(by: { $0.1 < $1.1 })?.0,
                let again = search(first: first, changes: changes, canvas: canvas, render: render(closest)),
                again.difference < atStart.difference
            {
                found = again
            }
        }
        guard let found, found.difference < certain else {
            throw ScreenNotFound(
                width: first.width, height: first.height, best: found?.crop, difference: found?.difference ?? 0)
        }
        return found.crop
    }

    /// Whether frames of `width` × `height` are the canvas's shape, within a pixel's rounding.
    static func isScreenShaped(width: Int, height: Int, canvas: (width: Double, height: Double)) -> Bool {
        abs(Double(height) - Double(width) * canvas.height / canvas.width) <= 2
    }

    /// The screen in `recording`'s frames, for a canvas of `canvas` whose first frame is
    /// `render`; nil when nothing in the recording changes, so nothing says where the screen is.
    static func find(_ recording: FrameSequence, canvas: (width: Double, height: Double), render: Bitmap) -> Found? {
        let reader = FrameReader(recording)
        guard let (first, _) = try? reader.next(), let changes = try? Changes(first: first.bitmap, then: reader)
        else { return nil }
        return search(first: first.bitmap, changes: changes, canvas: canvas, render: render)
    }

    /// What a recording changes: the bounds of the pixels that move, in coarse pixels (the
    /// recording reduced by a whole factor, so a coarse pixel is a box of whole recording pixels).
    struct Changes {
        let factor: Int
        let minX: Int, minY: Int, maxX: Int, maxY: Int
        /// The first frame, coarse.
        let start: LumaImage

        /// Nil when nothing changes.
        init?(first: Bitmap, then reader: FrameReader) throws {
            let factor = max(1, (max(first.width, first.height) + coarseSide - 1) / coarseSide)
            let (cw, ch) = (first.width / factor, first.height / factor)
            let crop = Crop(x: 0, y: 0, width: cw * factor, height: ch * factor)
            let start = LumaImage(first, crop: crop, width: cw, height: ch)
            var changed: LumaImage.Box?
            while let (frame, _) = try reader.next() {
                let picture = LumaImage(frame.bitmap, crop: crop, width: cw, height: ch)
                if let box = picture.changedBox(from: start, by: changeLevel) {
                    changed = LumaImage.union(changed, box)
                }
            }
            guard let changed else { return nil }
            (self.factor, self.start) = (factor, start)
            (self.minX, self.minY, self.maxX, self.maxY) = (
                changed.x.lowerBound, changed.y.lowerBound, changed.x.upperBound, changed.y.upperBound
            )
        }
    }

    /// Of the rects of the canvas's shape that hold `changes`, the one whose part of `first` is
    /// most like `render`, found coarsely and then to the pixel.
    static func search(first: Bitmap, changes: Changes, canvas: (width: Double, height: Double), render: Bitmap)
        -> Found?
    {
        let (width, height) = (first.width, first.height)
        let (factor, start) = (changes.factor, changes.start)
        let (cw, ch) = (start.width, start.height)
        let (minX, minY, maxX, maxY) = (changes.minX, changes.minY, changes.maxX, changes.maxY)
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
        // Then to the pixel: at each finer level (half the last's reduction), around the last
        // answer, a few of that level's pixels each way.
        var level = factor
        var answer = (x: coarse.x, y: coarse.y, w: coarse.w)
        var refined = Found(crop: Crop(x: 0, y: 0, width: 1, height: 1), difference: .infinity)
        repeat {
            let finer = max(1, level / 2)
            let ratio = Double(level) / Double(finer)
            let reach = Int(ratio.rounded(.up)) + 1
            let centre = (
                x: Int((Double(answer.x) * ratio).rounded()), y: Int((Double(answer.y) * ratio).rounded()),
                w: Int((Double(answer.w) * ratio).rounded())
            )
            level = finer
            let (lw, lh) = (width / level, height / level)
            let picture = LumaImage(
                first, crop: Crop(x: 0, y: 0, width: lw * level, height: lh * level), width: lw, height: lh)
            var best = (x: centre.x, y: centre.y, w: centre.w, difference: Double.infinity)
            for w in (centre.w - reach)...(centre.w + reach) where w > 1 && w <= lw {
                let h = Int((Double(w) * aspect).rounded())
                guard h <= lh, let ys = span(centre.y - reach, min(centre.y + reach, lh - h)),
                    let xs = span(centre.x - reach, min(centre.x + reach, lw - w))
                else { continue }
                let ours = LumaImage(render, width: w, height: h)
                for y in ys {
                    for x in xs {
                        let d = difference(ours, picture, x: x, y: y)
                        if d < best.difference { best = (x, y, w, d) }
                    }
                }
            }
            answer = (best.x, best.y, best.w)
            refined = Found(
                crop: Crop(
                    x: best.x * level, y: best.y * level, width: best.w * level,
                    height: Int((Double(best.w * level) * aspect).rounded())),
                difference: best.difference)
        } while level > 1
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

/// Frames of another shape than the canvas whose screen was not found for certain: the best
/// rect, and how far its picture is from the render's first frame, or none.
public struct ScreenNotFound: Error, Equatable {
    public var width: Int
    public var height: Int
    public var best: Crop?
    public var difference: Double

    /// The message, with the option that names a screen spelled `option` (`--crop`, `--screen`).
    public func message(option: String) -> String {
        let shape =
            "the recording's \(width)x\(height) frames are not the canvas's shape, so they hold more than the screen"
        guard let c = best else {
            return "\(shape), and nothing in them changes to say where the screen is: give \(option) X,Y,W,H"
        }
        return
            "\(shape); the screen is most like \(option) \(c.x),\(c.y),\(c.width),\(c.height), but its first frame differs from the render's by \(String(format: "%.1f", difference)) grey levels on average: give \(option) X,Y,W,H (that one, if it is the screen)"
    }
}

extension Crop {
    /// Says that this is the screen found in the recording, and the `option` that gives it.
    public func foundScreen(option: String) -> String {
        "the screen is the recording's \(width)x\(height) px at \(x),\(y) (found; \(option) \(x),\(y),\(width),\(height) says so)"
    }
}
