import Flipbook
import Foundation
import Geometry

extension FitResult {
    /// A contact sheet of eight moments of the recording, row above row: its frames (cropped
    /// as the fit read them, at the render's size), the render before the fit and the render
    /// after it, each at the moment the fit matched to that frame, each cell labelled with its
    /// row ("rec", "before", "fitted") and the recording's time. The moments are spread over
    /// the frames in which the recording moves, so that a short spring in a long recording
    /// gets most of the cells, not one or two.
    public func sheet(for request: FitRequest, recording frames: FrameSequence, images: ImageCache) throws -> Bitmap {
        try sheet(for: request, source: RecordingSource(frames), images: images)
    }

    /// The sheet, its frames read again from `source` (the recording fitted).
    public func sheet(for request: FitRequest, source: RecordingSource, images: ImageCache) throws -> Bitmap {
        let before = try Transition(
            request.scene, storyboard: request.storyboard, config: request.config, set: request.assignments,
            images: images)
        let after = try Transition(
            request.scene, storyboard: request.storyboard, config: request.config,
            set: request.assignments + assignments, images: images)
        let crop = request.crop ?? foundScreen
        let picks = sheetFrames
        let n = picks.count
        var sheet = ContactSheet(columns: n, cellWidth: 150)
        let size = before.frame(at: 0).bitmap
        let reader = RecordingRereader(try source.open())
        for i in picks {
            let frame = try reader.frame(i)
            let c = crop.map { PixelRect(x: $0.x, y: $0.y, width: $0.width, height: $0.height) } ?? frame.bounds
            sheet.add(
                frame.cropped(to: c).resized(width: size.width, height: size.height),
                label: Self.sheetLabel("rec", frameTimes[i]))
        }
        for i in picks {
            sheet.add(
                before.frame(at: max(0, frameTimes[i] + offsetBefore)).bitmap,
                label: Self.sheetLabel("before", frameTimes[i]))
        }
        for i in picks {
            sheet.add(
                after.frame(at: max(0, frameTimes[i] + offsetAfter)).bitmap,
                label: Self.sheetLabel("fitted", frameTimes[i]))
        }
        return sheet.render()
    }

    /// A cell's label: its row and the recording's time.
    static func sheetLabel(_ row: String, _ t: Double) -> String { String(format: "%@ %.2fS", row, t) }

    /// Up to eight frames of `recording`, evenly spread over those in which it moves (and the
    /// frame before each stretch of motion); over all its frames when fewer than eight move.
    static func sheetMoments(_ pictures: [LumaImage], count: Int = 8) -> [Int] {
        var moving = Set<Int>()
        for i in pictures.indices.dropFirst() where pictures[i].meanDifference(pictures[i - 1]) > Fitter.motionLevel {
            moving.insert(i - 1)
            moving.insert(i)
        }
        let pool = moving.count >= count ? moving.sorted() : Array(pictures.indices)
        let n = min(count, pool.count)
        return (0..<n).map { pool[$0 * (pool.count - 1) / max(1, n - 1)] }
    }
}
