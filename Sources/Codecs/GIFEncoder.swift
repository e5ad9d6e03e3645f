import CImageQuant
import Foundation
import Geometry
import GIFCore
import Raster

/// How a GIF is quantized and written.
public struct GIFOptions: Sendable, Equatable {
    /// How many times the animation plays: nil forever, 1 once, N that many times.
    public var plays: Int? = nil
    /// At most this many palette entries per frame (2...256).
    public var colors: Int = 256
    /// libimagequant's target quality, 1...100: lower gives smaller files.
    public var quality: Int = 100
    /// Floyd–Steinberg dithering, 0 (none) to 1 (full).
    public var dithering: Double = 0
    /// libimagequant's speed, 1 (slowest, best) to 10 (fastest).
    public var speed: Int = 6
    /// K-means steps over every changed pixel after libimagequant's palette, 0...100: each
    /// fits the palette closer to the frame, for a small share of the job's CPU; the gains
    /// shrink after the first few steps.
    public var refineSteps: Int = 6
    /// Lossy LZW: how far (RGB levels, Euclidean) a changed pixel may be written from its
    /// source when that lengthens an LZW string; 0 is off. Needs dithering off.
    public var lossy: Int = 0
    /// Translucent pixels are composited over this colour (GIF pixels are opaque or clear).
    public var matte: Color = .white

    public init() {}

    /// The values each setting takes, declared once for the encoder and the tool's flags.
    public static let validPlays = 1...65536
    public static let validColors = 2...256
    public static let validQuality = 1...100
    public static let validDithering = 0.0...1.0
    public static let validLossy = 0...64
    public static let validSpeed = 1...10
    public static let validRefineSteps = 0...100

    /// Throws on the first value out of range, naming it.
    public func validate() throws {
        if let plays, !Self.validPlays.contains(plays) {
            throw EncodeError.invalidSetting(
                name: "loop", value: "\(plays)", expected: "forever, or \(Self.validPlays) plays")
        }
        if !Self.validColors.contains(colors) {
            throw EncodeError.invalidSetting(name: "colors", value: "\(colors)", expected: "\(Self.validColors)")
        }
        if !Self.validQuality.contains(quality) {
            throw EncodeError.invalidSetting(name: "quality", value: "\(quality)", expected: "\(Self.validQuality)")
        }
        if !Self.validDithering.contains(dithering) {
            throw EncodeError.invalidSetting(name: "dither", value: "\(dithering)", expected: "a number in 0...1")
        }
        if !Self.validLossy.contains(lossy) {
            throw EncodeError.invalidSetting(name: "lossy", value: "\(lossy)", expected: "\(Self.validLossy) levels")
        }
        if lossy > 0 && dithering > 0 {
            throw EncodeError.invalidSetting(name: "lossy", value: "\(lossy)", expected: "0 when dithering is on")
        }
        if !Self.validSpeed.contains(speed) {
            throw EncodeError.invalidSetting(name: "speed", value: "\(speed)", expected: "\(Self.validSpeed)")
        }
        if !Self.validRefineSteps.contains(refineSteps) {
            throw EncodeError.invalidSetting(
                name: "palette-steps", value: "\(refineSteps)", expected: "\(Self.validRefineSteps)")
        }
    }
}

/// What an encoder wrote.
public struct GIFSummary: Sendable, Equatable {
    public var path: String
    public var bytes: Int
    /// Frames in the file.
    public var frames: Int
    /// Input frames folded into the one before because they were identical.
    public var merged: Int
    /// Input frames left out to keep every delay at 2 cs or more.
    public var dropped: Int
    /// Total play time in centiseconds.
    public var centiseconds: Int
    /// Frames remapped with an earlier frame's palette instead of building their own.
    public var reusedPalettes = 0
    /// Seconds spent per stage (palette time is summed over worker threads).
    public var stages = GIFStageTimes()
}

/// Where an encoder's time went, in seconds.
public struct GIFStageTimes: Sendable, Equatable {
    /// Building palettes (libimagequant), summed over worker threads.
    public var palette = 0.0
    /// Remapping against the screen and updating it, frame by frame in order (bands in parallel).
    public var remap = 0.0
    /// Lossy matching (`LZWCoder` with a `LossyMatch`), frame by frame in order; 0 without
    /// `--lossy`.
    public var lossyMatch = 0.0
    /// Compacting palettes, LZW coding and writing through giflib, on its own thread beside
    /// remapping.
    public var write = 0.0
    /// Waiting for a palette that was not ready yet.
    public var waiting = 0.0
}

/// A streaming GIF writer: frames come in as bitmaps with timestamps and go out as soon as
/// they are final, so memory does not grow with the frame count.
///
/// Each frame is cropped to what changed since the last one, and pixels that did not change
/// are transparent, so static pixels never flicker. The changed rect gets a libimagequant
/// palette (built on worker threads, several frames at once), or reuses the last one when its
/// colours are covered, then is remapped in order against what is on screen (`ScreenRemap`),
/// so pixels the screen already shows well enough also become transparent (gifski's
/// technique), optionally matched lossily to longer LZW strings, and
/// handed to the writer thread, which drops unused palette entries, LZW-codes the frame
/// (`LZWCoder`, the shorter of giflib's eager clear and a deferred one) and writes it through
/// giflib. The output is the same whatever the thread count.
/// The file appears at `path` only when `finish` succeeds.
public final class GIFEncoder {
    public let path: String
    public let width: Int
    public let height: Int
    public let options: GIFOptions
    private let output: AtomicOutput
    private let stream: GIFStream
    private let writer: FrameWriter
    private var scheduler = FrameScheduler<Bitmap>()
    private let attr: OpaquePointer
    /// Frames whose palettes are being built, oldest first.
    private var inFlight: [FramePalette] = []
    private let maxInFlight = ProcessInfo.processInfo.activeProcessorCount + 1
    /// The last frame handed to a palette builder, flattened.
    private var lastQueued: [UInt8]?
    /// The frame queued before `lastQueued`, kept when lossy: where it differs from
    /// `lastQueued`, pixels are settling.
    private var beforeLastQueued: [UInt8]?
    /// A frame shown this long (centiseconds) is looked at: it is written as remapped, with no
    /// lossy match.
    static let restingDelay = 20
    /// When lossy: 1 where the screen shows what a lossy match let through rather than what
    /// remapping chose, for the next frame to mend where the pixel settles.
    private var owed: [UInt8] = []
    /// The least error (Euclidean, in RGB levels) a lossy match lets through that is mended
    /// where the pixel settles: below it, an error on a flat patch does not show.
    static let visibleError = 6
    /// The latest frame that built its own palette, and the colours it was built for.
    private var paletteKey: (job: FramePalette, colours: PaletteColours)?
    private var reusedPalettes = 0
    /// What a viewer shows after the frames written so far (opaque RGBA).
    private var screen: [UInt8]
    private var finished = false
    private var stages = GIFStageTimes()

    public init(path: String, width: Int, height: Int, options: GIFOptions = GIFOptions()) throws {
        try options.validate()
        guard width > 0, height > 0, width <= 65535, height <= 65535 else {
            throw EncodeError.invalidSetting(
                name: "GIF size", value: "\(width)x\(height)", expected: "1...65535 on each side")
        }
        self.path = path
        self.width = width
        self.height = height
        self.options = options
        output = try AtomicOutput(path: path)
        stream = try GIFStream(output: output, width: width, height: height, plays: options.plays)
        writer = FrameWriter(stream: stream)
        guard let attr = liq_attr_create() else {
            throw EncodeError.library(.libimagequant, path: path, message: "cannot create attributes")
        }
        self.attr = attr
        liq_set_max_colors(attr, Int32(options.colors))
        liq_set_quality(attr, 0, Int32(options.quality))
        liq_set_speed(attr, Int32(options.speed))
        screen = [UInt8](repeating: 0, count: width * height * 4)
    }

    deinit {
        for job in inFlight { job.wait() }
        _ = try? writer.drain()
        stream.discard()
        liq_attr_destroy(attr)
        output.abandon()
    }

    /// Adds the frame that starts showing at `time` seconds.
    public func add(_ frame: Bitmap, at time: Double) throws {
        guard !finished else { throw EncodeError.usage("\(path): frame added after finish") }
        try EncodeError.checkSize(of: frame, width: width, height: height, path: path)
        for item in scheduler.add(frame, at: time, sameAsShowing: { $0 == $1 }) {
            try queue(item.frame, delay: item.delay)
        }
    }

    /// Writes the remaining frames, the last one showing until `endTime`, and moves the file
    /// into place.
    @discardableResult
    public func finish(at endTime: Double) throws -> GIFSummary {
        guard !finished else { throw EncodeError.usage("\(path): finished twice") }
        finished = true
        do {
            let last = scheduler.finish(at: endTime)
            for (k, item) in last.enumerated() {
                try queue(item.frame, delay: item.delay, isLast: k == last.count - 1)
            }
            while !inFlight.isEmpty { try write(inFlight.removeFirst()) }
            stages.write = try writer.drain()
            guard stream.frames > 0 else { throw EncodeError.usage("\(path): no frames to write") }
            try stream.close()
            try output.commit()
        } catch {
            abandon()
            throw error
        }
        return GIFSummary(
            path: path, bytes: output.byteCount, frames: stream.frames, merged: scheduler.merged,
            dropped: scheduler.dropped, centiseconds: scheduler.duration(to: endTime),
            reusedPalettes: reusedPalettes, stages: stages)
    }

    /// Stops without writing anything (the destination keeps what it had).
    public func abandon() {
        finished = true
        for job in inFlight { job.wait() }
        inFlight.removeAll()
        _ = try? writer.drain()
        stream.discard()
        output.abandon()
    }

    /// Starts the palette of a frame whose delay is final; writes the oldest when enough wait.
    private func queue(_ frame: Bitmap, delay: Int, isLast: Bool = false) throws {
        let current = flattened(frame)
        var box = lastQueued.map { changedBox(current, $0, width: width, height: height) } ?? (0, 0, width, height)
        // A lossy frame's pixels that stop changing are mended in the frame after: its rect
        // takes in the pixels that changed in the frame before.
        let settling = options.lossy > 0 ? beforeLastQueued : nil
        if let settling, let last = lastQueued {
            box = union(box, changedBox(last, settling, width: width, height: height))
        }
        // A frame whose changed pixels use the colours the last palette was built for (all
        // but 1 in 5000 of them, in bins of 8 levels) remaps with that palette: no quantizing.
        // Looser limits reuse more palettes but cost PSNR, for no time saved.
        var colours = PaletteColours()
        let (uncovered, sampled) = colours.collect(
            current, previous: lastQueued, box: box, width: width, against: paletteKey?.colours)
        let reuse = paletteKey != nil && sampled > 0 && uncovered * 5000 <= sampled ? paletteKey?.job : nil
        let job = FramePalette(
            current: current, delay: delay, isFirst: lastQueued == nil, frameWidth: width, box: box, reuse: reuse)
        job.isResting = isLast || delay >= Self.restingDelay
        if reuse != nil {
            reusedPalettes += 1
        } else if lastQueued != nil && sampled > 0 {
            // The first frame has no transparent entry, so later frames never reuse it.
            paletteKey = (job, colours)
        }
        job.start(previous: lastQueued, settling: settling, attr: attr, refineSteps: options.refineSteps, path: path)
        // Before the first frame nothing was shown: every pixel of it changed, as in its negative.
        beforeLastQueued = options.lossy > 0 ? (lastQueued ?? current.map { ~$0 }) : nil
        lastQueued = current
        inFlight.append(job)
        while inFlight.count > maxInFlight { try write(inFlight.removeFirst()) }
    }

    /// Remaps a frame against the screen and writes it.
    private func write(_ job: FramePalette) throws {
        let waitStarted = monotonicSeconds()
        job.wait()
        let remapStarted = monotonicSeconds()
        stages.waiting += remapStarted - waitStarted
        stages.palette += job.seconds
        if let error = job.error { throw error }
        guard let palette = job.palette else {
            // Nothing changed after flattening: a 1x1 transparent frame carries the delay.
            writer.write(
                .init(
                    canvasX: 0, canvasY: 0, w: 1, h: 1, indices: [0], rowStride: 1, column: 0, row: 0,
                    palette: [0, 0, 0, 0, 0, 0], transparent: 0, delay: job.delay))
            return
        }
        if !job.isFirst && palette.transparent < 0 {
            throw EncodeError.library(.libimagequant, path: path, message: "the palette has no transparent entry")
        }
        var indices = [UInt8](repeating: 0, count: job.width * job.height)
        // A frame that is looked at (held, or last) is written as remapped: whatever a lossy
        // match let through would show for all of its time, and in the frames after.
        let lossy = options.lossy > 0 && !job.isResting
        if options.lossy > 0 {
            if owed.isEmpty { owed = [UInt8](repeating: 0, count: width * height) }
            job.mendOnly(owed: owed)
            if job.isResting {
                for y in job.y0..<job.y1 {
                    let row: Int = y * width
                    for x in job.x0..<job.x1 { owed[row + x] = 0 }
                }
            }
        }
        // A lossy match decides what goes on screen, so the remap leaves the screen to it.
        job.paintedBox = remap(job, palette, into: &indices, updatingScreen: !lossy)
        let lossyStarted = monotonicSeconds()
        if lossy { matchLossily(job, palette, indices: &indices) }
        job.releasePixels()
        let t = job.paintedBox
        let done = monotonicSeconds()
        stages.remap += lossyStarted - remapStarted
        stages.lossyMatch += done - lossyStarted
        writer.write(
            .init(
                canvasX: job.x0 + t.x, canvasY: job.y0 + t.y, w: t.w, h: t.h, indices: indices,
                rowStride: job.width, column: t.x, row: t.y,
                palette: palette.colours, transparent: palette.transparent, delay: job.delay))
    }

    /// Remaps the job's changed box against the screen into `indices`; returns the box of
    /// pixels that are not transparent.
    private func remap(
        _ job: FramePalette, _ palette: FramePalette.Palette, into indices: inout [UInt8],
        updatingScreen: Bool
    ) -> (x: Int, y: Int, w: Int, h: Int) {
        screen.withUnsafeMutableBufferPointer { screen in
            indices.withUnsafeMutableBufferPointer { indices in
                job.importance.withUnsafeBufferPointer { importance in
                    var remap = ScreenRemap(
                        crop: UnsafePointer(job.crop.baseAddress!),
                        importance: job.isFirst ? nil : importance.baseAddress,
                        screen: screen.baseAddress!, frameWidth: width, x0: job.x0, y0: job.y0, width: job.width,
                        height: job.height,
                        palette: palette.colours, clear: palette.clear, transparent: palette.transparent,
                        dithering: options.dithering, indices: indices.baseAddress!)
                    remap.updatesScreen = updatingScreen
                    return remap.run()
                }
            }
        }
    }

    /// Lets the painted box's pixels take colours close enough to their source that lengthen
    /// LZW strings, and puts what they show on the screen. It runs in frame order, and codes
    /// the whole box with giflib's clears, so the writer's coding of the indices it settles on
    /// finds the same strings (with narrower codes once the palette is compacted): choices
    /// made under any other table fit that table, not the writer's, and cost bytes.
    private func matchLossily(_ job: FramePalette, _ palette: FramePalette.Palette, indices: inout [UInt8]) {
        let t = job.paintedBox
        let origin = t.y * job.width + t.x
        let rgb = UnsafeMutablePointer<Int32>.allocate(capacity: 256 * 3)
        let kinds = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
        defer {
            rgb.deallocate()
            kinds.deallocate()
        }
        rgb.initialize(repeating: 0, count: 256 * 3)
        kinds.initialize(repeating: LossyMatch.unusable, count: 256)
        for i in 0..<(palette.colours.count / 3) {
            for c in 0..<3 { rgb[i * 3 + c] = Int32(palette.colours[i * 3 + c]) }
            if !palette.clear[i] { kinds[i] = LossyMatch.colour }
        }
        if palette.transparent >= 0 { kinds[palette.transparent] = LossyMatch.showsScreen }
        let screenOrigin = ((job.y0 + t.y) * width + job.x0 + t.x) * 4
        screen.withUnsafeMutableBufferPointer { screen in
            indices.withUnsafeMutableBufferPointer { indices in
                job.importance.withUnsafeBufferPointer { importance in
                    let match = LossyMatch(
                        crop: UnsafePointer(job.crop.baseAddress! + origin * 4), cropStride: job.width,
                        importance: job.isFirst ? nil : importance.baseAddress! + origin,
                        screen: screen.baseAddress! + screenOrigin, frameWidth: width,
                        palette: rgb, kinds: kinds, tolerance: Int32(options.lossy * options.lossy))
                    let exact = Array(indices)
                    _ = LZWCoder.encode(
                        indices: indices.baseAddress! + origin, rowStride: job.width, width: t.w, height: t.h,
                        minCodeSize: GIFStream.minCodeSize(entries: palette.colours.count / 3), lossy: match)
                    let crop = job.crop.baseAddress!
                    for y in t.y..<(t.y + t.h) {
                        let row = y * job.width, frameRow = (job.y0 + y) * width + job.x0
                        for x in t.x..<(t.x + t.w) where job.isFirst || importance[row + x] != 0 {
                            var owes: UInt8 = 0
                            if indices[row + x] != exact[row + x] {
                                let s = screen.baseAddress! + (frameRow + x) * 4, c = crop + (row + x) * 4
                                let dr = Int(s[0]) - Int(c[0]), dg = Int(s[1]) - Int(c[1]), db = Int(s[2]) - Int(c[2])
                                owes = dr * dr + dg * dg + db * db > Self.visibleError * Self.visibleError ? 1 : 0
                            }
                            owed[frameRow + x] = owes
                        }
                    }
                }
            }
        }
    }

    /// The frame composited over the matte: premultiplied over opaque is straight and opaque.
    private func flattened(_ frame: Bitmap) -> [UInt8] {
        var out = tightlyPacked(frame)
        let m = options.matte
        let (mr, mg, mb) = (Int(m.r), Int(m.g), Int(m.b))
        out.withUnsafeMutableBufferPointer { p in
            var i = 0
            while i < p.count {
                let inv = 255 - Int(p[i + 3])
                if inv != 0 {
                    p[i] = UInt8(Int(p[i]) + mul255(mr, inv))
                    p[i + 1] = UInt8(Int(p[i + 1]) + mul255(mg, inv))
                    p[i + 2] = UInt8(Int(p[i + 2]) + mul255(mb, inv))
                    p[i + 3] = 255
                }
                i += 4
            }
        }
        return out
    }
}

/// The smallest rect holding both (x0, y0, x1, y1) rects; an empty one adds nothing.
private func union(_ a: (Int, Int, Int, Int), _ b: (Int, Int, Int, Int)) -> (Int, Int, Int, Int) {
    if b.2 <= b.0 { return a }
    if a.2 <= a.0 { return b }
    return (min(a.0, b.0), min(a.1, b.1), max(a.2, b.2), max(a.3, b.3))
}
