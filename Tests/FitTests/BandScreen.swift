import Flipbook

@testable import Fit

/// A 100 x 200 point screen for a made scene's tests: white, with a band 20 points tall.
enum BandScreen {
    /// White, with rows `y` to `y + 19` in `color`.
    static func bitmap(band y: Int, _ color: (UInt8, UInt8, UInt8)) -> Bitmap {
        var bytes = [UInt8](repeating: 255, count: 100 * 200 * 4)
        for row in y..<(y + 20) {
            for x in 0..<100 {
                (bytes[(row * 100 + x) * 4], bytes[(row * 100 + x) * 4 + 1], bytes[(row * 100 + x) * 4 + 2]) = color
            }
        }
        return Bitmap(width: 100, height: 200, premultipliedPixels: bytes)
    }
}

extension BandScreen {
    /// A made scene of two band screens, 100 x 200 points at 60 fps (screen 1's band red at y
    /// 40, screen 2's blue at 120): a sheet dismissed linearly from `start` over `duration`,
    /// undimmed, then a cut back to screen 1 at `cut`. Where `folder` is given, its screens'
    /// images are written there.
    static func dismissedThenBack(
        start: Double, duration: Double, cut: Double, length: Double, name: String, in folder: String? = nil
    ) throws -> MadeSceneText {
        if let folder {
            try bitmap(band: 40, (255, 0, 0)).writePNG(to: folder + "/screen-1.png")
            try bitmap(band: 120, (0, 0, 255)).writePNG(to: folder + "/screen-2.png")
        }
        var dismiss = MadeChange(
            kind: .dismiss, from: 1, to: 2, start: start, curve: .bezier("linear", duration: duration),
            seconds: 0...1)
        dismiss.numbers["Dim"] = 0
        let back = MadeChange(kind: .cut, from: 2, to: 1, start: cut, curve: .system, seconds: cut...cut)
        return MadeSceneText(
            name: name, summary: "a sheet dismissed, then the screen back", canvas: (100, 200), scale: 1,
            fps: 60, screens: [("screen-1.png", 0), ("screen-2.png", 1)], changes: [dismiss, back], length: length,
            header: [])
    }
}
