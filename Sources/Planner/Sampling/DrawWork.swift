import Geometry

/// How much compositing a run of frames asks for, told from the draw lists alone: the share of
/// frames that differ from the frame before (a repeated frame is not drawn again) and the
/// pixels drawn into such a frame (each draw's area on the canvas, overdraw counted).
public struct DrawWork: Sendable, Equatable {
    /// Frames in the run.
    public let frames: Int
    /// The share of frames that differ from the frame before, 0...1.
    public let changing: Double
    /// Pixels drawn into a changing frame, on average.
    public let drawnPixels: Double

    /// Pixels composited over the whole run.
    public var totalPixels: Double { Double(frames) * changing * drawnPixels }
}

extension Plan {
    /// The work of drawing the frames at `times`, estimated from at most `samples` of them,
    /// evenly spaced, each against the frame before it.
    public func drawWork(times: [Double], scale: Double, samples: Int = 60) -> DrawWork {
        guard times.count > 1 else {
            return DrawWork(
                frames: times.count, changing: 1, drawnPixels: Self.drawn(sample(at: times.first ?? 0, scale: scale)))
        }
        var changing = 0, pixels = 0.0, count = 0
        // With every frame sampled, each list is the next one's frame before: sampled once.
        var last: (index: Int, list: DrawList)?
        func drawList(_ k: Int) -> DrawList {
            if let last, last.index == k { return last.list }
            return sample(at: times[k], scale: scale)
        }
        for i in stride(from: 1, to: times.count, by: max(1, times.count / max(1, samples))) {
            count += 1
            let before = drawList(i - 1), current = drawList(i)
            last = (i, current)
            guard current.commands != before.commands else { continue }
            changing += 1
            pixels += Self.drawn(current)
        }
        // A run that never changes still draws its first frame.
        guard changing > 0 else {
            return DrawWork(
                frames: times.count, changing: 1 / Double(times.count),
                drawnPixels: Self.drawn(sample(at: times[0], scale: scale)))
        }
        return DrawWork(
            frames: times.count, changing: Double(changing) / Double(count), drawnPixels: pixels / Double(changing))
    }

    /// The most pixels `frames` frames at `scale` can composite, whatever their times: each
    /// layer's fill and content (a draw list's two draws a layer at most) over the whole
    /// canvas in every frame. `drawWork(times:scale:samples:)` is never more.
    public func mostWork(frames: Int, scale: Double) -> Double {
        Double(frames) * 2 * Double(layers.count) * (canvas.width * scale) * (canvas.height * scale)
    }

    /// The pixels a draw list covers, each draw clipped to the canvas (and its clip), overdraw
    /// counted.
    static func drawn(_ list: DrawList) -> Double {
        let canvas = Rect(x: 0, y: 0, width: list.size.width, height: list.size.height)
        return list.commands.reduce(0) { sum, draw in
            var r = draw.rect.intersection(canvas)
            if let clip = draw.clip { r = r.intersection(clip.rect) }
            return sum + r.width * r.height
        }
    }
}
