import Flipbook
import Foundation
import Geometry

extension FitResult {
    /// A contact sheet of eight moments of the recording, row above row: its frames (cropped
    /// as the fit read them, at the render's size), the render before the fit and the render
    /// after it, each at the moment the fit matched to that frame.
    public func sheet(for request: FitRequest, recording frames: FrameSequence, images: ImageCache) throws -> Bitmap {
        let before = try Transition(
            request.scene, storyboard: request.storyboard, config: request.config, set: request.assignments,
            images: images)
        let after = try Transition(
            request.scene, storyboard: request.storyboard, config: request.config,
            set: request.assignments + assignments, images: images)
        let n = min(8, frames.frames.count)
        let picks = (0..<n).map { $0 * (frames.frames.count - 1) / max(1, n - 1) }
        var sheet = ContactSheet(columns: n, cellWidth: 150)
        let size = before.frame(at: 0).bitmap
        for i in picks {
            let frame = frames.frames[i].bitmap
            let c = request.crop.map { PixelRect(x: $0.x, y: $0.y, width: $0.width, height: $0.height) } ?? frame.bounds
            sheet.add(frame.cropped(to: c).resized(width: size.width, height: size.height), at: frameTimes[i])
        }
        for i in picks { sheet.add(before.frame(at: max(0, frameTimes[i] + offsetBefore)).bitmap, at: frameTimes[i]) }
        for i in picks { sheet.add(after.frame(at: max(0, frameTimes[i] + offsetAfter)).bitmap, at: frameTimes[i]) }
        return sheet.render()
    }
}
