import Flipbook

/// How much rendering an output takes, estimated from its outline without rendering: what
/// orders a build (the costliest first) and balances its shards.
///
/// A render decodes the scene's images, then for each frame composites its draws and encodes
/// it. A frame equal to the one before (a hold) is neither composited nor, except in an MP4,
/// encoded again. The unit is a second of one core of the machine the constants were fitted
/// on (`Scripts/bench --build` measures how well the shares balance); it is a guide for
/// ordering, not a promise of time.
public struct RenderEstimate: Sendable {
    /// Frames the render makes.
    public let frames: Int
    /// Megapixels of one output frame.
    public let frameMegapixels: Double
    /// The share of frames that differ from the frame before.
    public let changing: Double
    /// Megapixels composited into a changing frame.
    public let drawnMegapixels: Double
    /// Megapixels of the images loading decodes.
    public let imageMegapixels: Double
    let kind: Encoding
    /// Encodes the whole render takes (a `max-size` bisection runs several).
    let encodes: Double

    init(_ output: BuildOutput, _ outline: TransitionOutline) {
        var frames = outline.frameCount(speed: output.option("speed").flatMap(Double.init) ?? 1)
        if output.kind == .still {
            frames = 1
        } else if let range = output.option("frames") {
            let ends = range.split(separator: "-").compactMap { Int($0) }
            if ends.count == 2 { frames = max(1, ends[1] - ends[0] + 1) } else if ends.count == 1 { frames = 1 }
        }
        self.frames = frames
        frameMegapixels = Double(outline.pixelSize.width * outline.pixelSize.height) / 1_000_000
        changing = output.kind == .still ? 1 : outline.motion.changing
        drawnMegapixels = outline.motion.drawnPixels / 1_000_000
        imageMegapixels = Double(outline.imagePixels) / 1_000_000
        switch output.kind {
        case .animation(let format):
            let cost = format.encodeCost(output.option("quality") != nil)
            kind = .animation(
                perFrame: cost.perFrame, perMegapixel: cost.perMegapixel, merges: format.mergesIdenticalFrames)
        case .sheet: kind = .sheet
        case .still: kind = .still
        }
        encodes = output.option("max-size") != nil ? 3 : 1
    }

    /// The estimate as one number.
    public var cost: Double {
        let changingFrames = Double(frames) * changing
        let raster = changingFrames * Self.rasterPerMegapixel * drawnMegapixels
        let encoded = kind.mergesIdenticalFrames ? changingFrames : Double(frames)
        let encode = encodes * encoded * (kind.perFrame + kind.perMegapixel * frameMegapixels)
        return Self.loadingPerMegapixel * imageMegapixels + raster + encode + kind.fixed
    }

    /// Decoding a megapixel of image.
    static let loadingPerMegapixel = 0.05
    /// Compositing a megapixel of draws.
    static let rasterPerMegapixel = 0.0025

    /// What each kind of output costs to encode, per frame it encodes: an animation's as its
    /// format declares (`AnimationFormat.encodeCost`).
    enum Encoding: Sendable, Equatable {
        case animation(perFrame: Double, perMegapixel: Double, merges: Bool)
        case sheet, still

        /// A frame's fixed share (palette, bookkeeping).
        var perFrame: Double {
            switch self {
            case .animation(let perFrame, _, _): return perFrame
            case .sheet: return 0.001
            case .still: return 0
            }
        }

        /// A megapixel of frame.
        var perMegapixel: Double {
            switch self {
            case .animation(_, let perMegapixel, _): return perMegapixel
            case .sheet: return 0
            case .still: return 0.05
            }
        }

        /// Whether a frame equal to the one before is encoded again or merged.
        var mergesIdenticalFrames: Bool {
            if case .animation(_, _, let merges) = self { return merges }
            return true
        }

        /// Once per render (a contact sheet's own picture).
        var fixed: Double { self == .sheet ? 0.05 : 0 }
    }
}
