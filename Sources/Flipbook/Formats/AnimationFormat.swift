import Raster

/// An animated file format an export writes, declared once in its own file and registered in
/// `AnimationFormat.all`: its names, its extensions, the options it takes, its size-budget
/// ladder, what encoding it costs a build, and the encoder it opens. `ExportFormat`, the size
/// budget, a manifest's output kinds, the studio's export buttons and every list of formats in
/// help and messages are read from the registry.
public struct AnimationFormat: Sendable, Hashable, CustomStringConvertible {
    /// Its name: a manifest output's kind, the studio's `format=`, a build key's word (`gif`).
    public let name: String
    /// How a button or a table names it (`WebP`).
    public let label: String
    /// How a sentence names one (`a WebP`).
    public let noun: String
    /// The extensions a path of it ends with, lowercase; it is written with the first.
    public let extensions: [String]
    /// Its media type, for a download.
    public let mediaType: String
    /// What help says of it after its example path (`animated WebP`), if anything.
    public let summary: String?
    /// The frame rates it can play; nil for any an export makes.
    public let frameRates: ClosedRange<Double>?
    /// Whether a frame equal to the one before is merged into it rather than encoded again.
    public let mergesIdenticalFrames: Bool
    /// What encoding costs a build, per frame it encodes: a fixed share, and per megapixel,
    /// with and without a `quality` (lossy or lossless, where the format has both).
    public let encodeCost: @Sendable (_ qualityGiven: Bool) -> (perFrame: Double, perMegapixel: Double)
    /// Refuses, naming it, a setting of `EncodingOptions` this format would not use or hold.
    let checkOptions: @Sendable (EncodingOptions) throws -> Void
    /// A note on frames at `fps` that this format cannot time exactly, or nil.
    public let frameRateNote: @Sendable (_ fps: Double) -> ExportText?
    /// A size budget's settings before fewer frames and pixels, best-looking first, from the
    /// request's `quality`: each a quality (nil: lossless) and a GIF lossy LZW level.
    let budgetQualities: @Sendable (_ quality: Int?) -> [(quality: Int?, lossy: Int)]
    /// The quality most budgets land near, which a budget tries second; nil for none.
    let budgetGuess: Int?
    /// Opens the encoder of a file of `width` x `height` frames played at `fps`.
    let open:
        @Sendable (_ path: String, _ width: Int, _ height: Int, _ fps: Double, _ encoding: EncodingOptions) throws ->
            AnimationWriter

    public static func == (a: AnimationFormat, b: AnimationFormat) -> Bool { a.name == b.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
    public var description: String { name }

    /// The file name help shows for it: `out.webp`.
    public var example: String { "out" + extensions[0] }

    /// The format a path's extension names, if it names an animated one.
    public static func named(by path: String) -> AnimationFormat? {
        let lower = path.lowercased()
        return all.first { $0.extensions.contains(where: lower.hasSuffix) }
    }

    /// The format named `name`, if one is.
    public static func named(_ name: String) -> AnimationFormat? { all.first { $0.name == name } }

    /// Every format's `part`, joined as a sentence lists them: `a GIF, a WebP or an MP4`.
    public static func listed(_ part: (AnimationFormat) -> String, _ conjunction: String = "or") -> String {
        sentence(all.map(part), conjunction)
    }

    /// `parts` as a sentence lists them: `a, b or c`.
    public static func sentence(_ parts: [String], _ conjunction: String = "or") -> String {
        parts.count < 2 ? parts.joined() : parts.dropLast().joined(separator: ", ") + " \(conjunction) " + parts.last!
    }

    /// Every format's example path with its summary: `out.gif, out.webp (animated WebP)`.
    public static var examples: String {
        all.map { $0.example + ($0.summary.map { " (\($0))" } ?? "") }.joined(separator: ", ")
    }
}

/// An encoder a format opened: frames in, one by one, with the time each starts; then the end
/// time, and the file is written.
public struct AnimationWriter {
    let add: (Bitmap, Double) throws -> Void
    let finish: (_ end: Double, _ inputFrames: Int) throws -> AnimatedOutput.Written

    public init(
        add: @escaping (Bitmap, Double) throws -> Void,
        finish: @escaping (_ end: Double, _ inputFrames: Int) throws -> AnimatedOutput.Written
    ) {
        self.add = add
        self.finish = finish
    }
}
