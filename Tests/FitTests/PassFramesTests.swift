@testable import Fit
import Flipbook
import Geometry
import Testing

/// What a scene's first pass keeps of its frames for the fits.
@Suite("PassFrames: the frames a scene's fits want, kept as the first pass reads them")
struct PassFramesTests {
    /// A 60 fps recording's frames: 40 still (a codec's noise, under the least change), 10
    /// moving, 40 still; frames 52-59 the same as 51 (told once, as a pass tells a frame the same
    /// as the one before it).
    static func passed() -> PassFrames {
        let frames = PassFrames(
            rect: PixelRect(x: 2, y: 0, width: 8, height: 8), small: (4, 4), lead: 0.2, tail: 0.4, budget: 1 << 20)
        for i in (0..<90) where !(52..<60).contains(i) {
            let level = i < 40 ? Float(i % 2) * 0.2 : i < 50 ? Float(i - 39) * 10 : 100 + Float(i % 2) * 0.2
            let picture = LumaImage(width: 2, height: 2, pixels: .init(repeating: level, count: 4))
            let frame = Bitmap(width: 10, height: 8, fill: Color(r: UInt8(i), g: 0, b: 0).premultiplied)
            frames.tell(frame, index: i, start: Double(i) / 60, picture: picture)
        }
        frames.finish()
        return frames
    }

    @Test(
        "Frames a lead before a motion and a tail after it are kept small; the frame it starts from and the last at full size"
    )
    func kept() throws {
        let frames = Self.passed()
        // The lead: 0.2 s and the margin before frame 39, the last still one.
        #expect(frames.smallFrame(22) == nil)
        #expect(frames.smallFrame(25) != nil)
        #expect((25...49).allSatisfy { frames.smallFrame($0) != nil })
        // The tail: 0.4 s and the margin after frame 49, the last moving one, up to frame 76.
        #expect((50...76).allSatisfy { frames.smallFrame($0) != nil })
        #expect(frames.smallFrame(78) == nil)
        // Made small from the rectangle: 8 x 8 to 4 x 4, the frame's own red.
        let small = try #require(frames.smallFrame(45))
        #expect((small.width, small.height) == (4, 4))
        #expect(small.pixels[0] == 45)
        // A frame never told is the one before it.
        #expect(frames.smallFrame(55)?.pixels == frames.smallFrame(51)?.pixels)
        // The screens: the frame the motion starts from, and the last, cut to the rectangle.
        let screen = try #require(frames.screen(39))
        #expect((screen.width, screen.height) == (8, 8))
        #expect(screen.pixels[0] == 39)
        #expect(frames.screen(89) != nil)
        #expect(frames.screen(20) == nil && frames.screen(45) == nil)
    }

    @Test("Past its budget, frames are left to be read again")
    func budget() {
        let frames = PassFrames(
            rect: PixelRect(x: 0, y: 0, width: 8, height: 8), small: (4, 4), lead: 0.2, tail: 0.4, budget: 3 * 64)
        for i in 0..<20 {
            let picture = LumaImage(width: 2, height: 2, pixels: .init(repeating: Float(i) * 10, count: 4))
            frames.tell(Bitmap(width: 8, height: 8), index: i, start: Double(i) / 60, picture: picture)
        }
        frames.finish()
        // Each small frame is 64 bytes: three are kept.
        #expect((0..<20).filter { frames.smallFrame($0) != nil }.count == 3)
    }
}
