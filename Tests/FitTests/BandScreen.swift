import Flipbook

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
