import CGIF
import Geometry
import Raster

/// One displayed frame of a decoded GIF: the full canvas after it is drawn.
public struct GIFFrame: Sendable, Equatable {
    public var bitmap: Bitmap
    /// When it starts showing, in centiseconds from the start.
    public var start: Int
    /// How long it shows, in centiseconds.
    public var delay: Int
}

/// A decoded GIF: every frame composited as a viewer shows it.
public struct GIFAnimation: Sendable, Equatable {
    public var width: Int
    public var height: Int
    /// Plays: nil for forever, else the count (1 when there is no loop extension).
    public var plays: Int?
    public var frames: [GIFFrame]

    public var centiseconds: Int { frames.reduce(0) { $0 + $1.delay } }
}

/// Reads GIFs with giflib's DGif, honouring transparency and every disposal method.
public enum GIFDecoder {
    public static func read(path: String) throws -> GIFAnimation {
        _ = try readFile(path)  // a clear error for a missing or unreadable file
        var error: Int32 = 0
        guard let gif = DGifOpenFileName(path, &error) else {
            throw CodecError.gif(path: path, message: gifMessage(error))
        }
        defer { DGifCloseFile(gif, &error) }
        guard DGifSlurp(gif) == GIF_OK else {
            throw CodecError.gif(path: path, message: gifMessage(gif.pointee.Error))
        }
        let width = Int(gif.pointee.SWidth), height = Int(gif.pointee.SHeight)
        guard width > 0, height > 0 else { throw CodecError.gif(path: path, message: "empty logical screen") }
        var canvas = Bitmap(width: width, height: height)
        var frames: [GIFFrame] = []
        var plays: Int? = 1
        var clock = 0
        for index in 0..<Int(gif.pointee.ImageCount) {
            let saved = gif.pointee.SavedImages[index]
            if let found = loopCount(saved) { plays = found }
            var gcb = GraphicsControlBlock(DisposalMode: 0, UserInputFlag: false, DelayTime: 0, TransparentColor: NO_TRANSPARENT_COLOR)
            DGifSavedExtensionToGCB(gif, Int32(index), &gcb)
            let desc = saved.ImageDesc
            guard let map = desc.ColorMap ?? gif.pointee.SColorMap else {
                throw CodecError.gif(path: path, message: "frame \(index) has no colour map")
            }
            let before = gcb.DisposalMode == DISPOSE_PREVIOUS ? canvas : nil
            let (fx, fy, fw, fh) = (Int(desc.Left), Int(desc.Top), Int(desc.Width), Int(desc.Height))
            for y in 0..<fh where fy + y >= 0 && fy + y < height {
                for x in 0..<fw where fx + x >= 0 && fx + x < width {
                    let k = Int(saved.RasterBits[y * fw + x])
                    if k == Int(gcb.TransparentColor) || k >= Int(map.pointee.ColorCount) { continue }
                    let c = map.pointee.Colors[k]
                    canvas[fx + x, fy + y] = PremultipliedColor(r: c.Red, g: c.Green, b: c.Blue, a: 255)
                }
            }
            frames.append(GIFFrame(bitmap: canvas, start: clock, delay: Int(gcb.DelayTime)))
            clock += Int(gcb.DelayTime)
            switch gcb.DisposalMode {
            case DISPOSE_BACKGROUND:
                canvas.withView { $0.subview(PixelRect(x: fx, y: fy, width: fw, height: fh)).clear(to: Color.clear.premultiplied) }
            case DISPOSE_PREVIOUS:
                if let before { canvas = before }
            default:
                break
            }
        }
        return GIFAnimation(width: width, height: height, plays: plays, frames: frames)
    }

    /// The NETSCAPE2.0 loop count among a frame's extension blocks, as plays (nil: forever).
    private static func loopCount(_ saved: SavedImage) -> Int?? {
        let blocks = UnsafeBufferPointer(start: saved.ExtensionBlocks, count: Int(saved.ExtensionBlockCount))
        for (i, block) in blocks.enumerated() where block.Function == APPLICATION_EXT_FUNC_CODE && block.ByteCount == 11 {
            let name = String(decoding: UnsafeBufferPointer(start: block.Bytes, count: 11), as: UTF8.self)
            guard name == "NETSCAPE2.0" || name == "ANIMEXTS1.0", i + 1 < blocks.count else { continue }
            let sub = blocks[i + 1]
            guard sub.ByteCount >= 3, sub.Bytes[0] == 1 else { continue }
            let repeats = Int(sub.Bytes[1]) | Int(sub.Bytes[2]) << 8
            return .some(repeats == 0 ? nil : repeats + 1)
        }
        return nil
    }
}
