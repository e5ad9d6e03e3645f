import Flipbook
import Foundation
import Testing

/// A lossy GIF of a real transition keeps no error a viewer can see once the picture is still:
/// on white that has stayed white for two frames, it is as close as the same GIF without the
/// lossy match.
@Suite("Lossy GIFs: no ghost once the picture is still")
struct LossyGhostTests {
    /// Pixels of the render that are white and were white in the two frames before, that
    /// `gif` shows more than 8 levels darker, over every frame.
    static func lingering(in gif: String, source: [Frame]) throws -> Int {
        let decoded = try FrameSequence.load(gif)
        var count = 0
        for k in 2..<source.count {
            let (now, one, two) = (source[k].bitmap, source[k - 1].bitmap, source[k - 2].bitmap)
            guard let shown = decoded.frame(atMoment: source[k].time)?.bitmap else { continue }
            for y in 0..<now.height {
                for x in 0..<now.width {
                    let c = now[x, y]
                    guard c.r == 255 && c.g == 255 && c.b == 255, one[x, y] == c, two[x, y] == c else { continue }
                    let s = shown[x, y]
                    if 255 - Int(min(s.r, s.g, s.b)) > 8 { count += 1 }
                }
            }
        }
        return count
    }

    @Test(
        "app-store-card at 240 px, 20 fps, quality 25: lossy 32 leaves on still white what lossless leaves, within 10 %"
    )
    func appStoreCard() throws {
        let folder = temporaryFolder()
        let source = try Transition("app-store-card", fps: 20, width: 240).frames()
        var counts: [Int] = []
        for lossy in [0, 32] {
            var request = ExportRequest(scene: "app-store-card")
            (request.fps, request.width) = (20, 240)
            request.encoding.quality = 25
            request.encoding.lossy = lossy
            request.output = folder + "/lossy\(lossy).gif"
            _ = try request.run()
            counts.append(try Self.lingering(in: request.output!, source: source))
        }
        #expect(counts[0] > 0)
        #expect(Double(counts[1]) <= Double(counts[0]) * 1.1, "lossless \(counts[0]), lossy \(counts[1])")
    }
}
