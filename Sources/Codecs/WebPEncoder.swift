import CWebP
import Dispatch
import Foundation
import Raster
import Synchronization

/// How an animated WebP is written.
public struct WebPOptions: Sendable, Equatable {
    /// nil: lossless, every frame exact. A number 0...100: lossy at that quality (each frame
    /// coded lossy or lossless, whichever is smaller).
    public var quality: Int? = nil
    /// Plays: nil forever, else the count.
    public var plays: Int? = nil
    /// libwebp's effort, 0 (fast) to 6 (smallest).
    public var method: Int = 4

    public init() {}
}

/// What a WebP encode wrote.
public struct WebPSummary: Sendable, Equatable {
    public var bytes: Int
    public var frames: Int
    /// The animation's length in milliseconds.
    public var milliseconds: Int
}

/// Writes an animated WebP as `GIFEncoder` writes a GIF: a frame equal to the one before only
/// lengthens it; any other is coded as the rectangle that changed (`WebPSubframe`: libwebp's
/// own encoder, the smallest of its ways), the frames coded side by side on every core while
/// later ones arrive, and the animation assembled in order with libwebp's mux API, each frame
/// with its offset, blending and exact millisecond duration. The file appears only when
/// complete.
public final class WebPEncoder {
    public let path: String
    let width: Int, height: Int
    let options: WebPOptions
    /// The last distinct frame, straight RGBA: what the next one is compared with.
    private var previous: [UInt8]?
    /// Each coded frame's start, in milliseconds.
    private var starts: [Int] = []
    private var lastTimestamp = -1
    private var finished = false
    /// In a lossy animation, the part of the canvas coded lossy since the last refresh.
    private var lossyPart: WebPSubframe.Rect?
    private let results = CodedFrames()
    private let queue = DispatchQueue(label: "flipbook.webp", attributes: .concurrent)
    private let group = DispatchGroup()
    /// At most this many frames are being coded (and held) at once.
    private let slots: DispatchSemaphore

    public init(
        path: String, width: Int, height: Int, options: WebPOptions = WebPOptions(),
        threads: Int = ProcessInfo.processInfo.activeProcessorCount
    ) throws {
        guard width > 0, height > 0, width <= 16383, height <= 16383 else {
            throw EncodeError.invalidSetting(
                name: "WebP size", value: "\(width)x\(height)", expected: "1...16383 pixels a side (the format's limit)"
            )
        }
        if let q = options.quality, !(0...100).contains(q) {
            throw EncodeError.invalidSetting(name: "WebP quality", value: "\(q)", expected: "0...100")
        }
        self.path = path
        self.width = width
        self.height = height
        self.options = options
        slots = DispatchSemaphore(value: max(1, threads) + 1)
    }

    deinit { group.wait() }

    /// Adds the frame that starts showing at `time` seconds.
    public func add(_ frame: Bitmap, at time: Double) throws {
        try EncodeError.checkSize(of: frame, width: width, height: height, path: path)
        if let error = results.failure.withLock({ $0 }) { throw error }
        let timestamp = Int((time * 1000).rounded())
        guard timestamp > lastTimestamp else { return }  // two frames in one millisecond: the first shows
        var straight = tightlyPacked(frame)
        straight.withUnsafeMutableBufferPointer { unpremultiplyRGBA($0) }
        var rect: WebPSubframe.Rect
        if let previous {
            guard let changed = WebPSubframe.changedRect(previous, straight, width: width, height: height) else {
                return  // the same picture: the frame before shows longer
            }
            rect = changed
        } else {
            rect = WebPSubframe.Rect(x: 0, y: 0, width: width, height: height)
        }
        var refresh = false
        // The changed rectangle's colours, counted once: they decide here and in the coding.
        var colours: Int?
        if options.quality != nil {
            // Few colours predict a lossless coding; many, a lossy one that leaves the canvas
            // inexact there until a flat frame covers it again.
            let count = WebPSubframe.colourCount(WebPSubframe.crop(straight, rect, width))
            colours = count
            if count > WebPSubframe.fewColours {
                lossyPart = lossyPart.map { $0.union(rect) } ?? rect
            } else if let lossy = lossyPart, !rect.contains(lossy) {
                let grown = rect.union(lossy)
                if WebPSubframe.colourCount(WebPSubframe.crop(straight, grown, width)) <= WebPSubframe.fewColours {
                    rect = grown
                    refresh = true
                    lossyPart = nil
                }
            } else {
                lossyPart = nil
            }
        }
        let index = starts.count
        starts.append(timestamp)
        lastTimestamp = timestamp
        let before = previous, current = straight, coded = rect, isRefresh = refresh, counted = refresh ? nil : colours
        previous = straight
        slots.wait()
        queue.async(group: group) { [options, width, results, slots] in
            defer { slots.signal() }
            do {
                let frame = try WebPSubframe.code(
                    current, over: before, rect: coded, canvasWidth: width, options: options, refresh: isRefresh,
                    colours: counted)
                results.frames.withLock { $0[index] = frame }
            } catch {
                results.failure.withLock { if $0 == nil { $0 = error } }
            }
        }
    }

    /// Ends the last frame at `endTime` seconds and writes the file.
    public func finish(at endTime: Double) throws -> WebPSummary {
        precondition(!finished, "WebPEncoder finished twice")
        finished = true
        group.wait()
        if let error = results.failure.withLock({ $0 }) { throw error }
        guard !starts.isEmpty else { throw EncodeError.usage("\(path): no frames to write") }
        let end = max(lastTimestamp + 1, Int((endTime * 1000).rounded()))
        let frames = results.frames.withLock { frames in starts.indices.map { frames[$0]! } }
        let bytes = try assemble(frames, ends: Array(starts.dropFirst()) + [end])
        try AtomicOutput.write(bytes, to: path)
        return WebPSummary(bytes: bytes.count, frames: frames.count, milliseconds: end)
    }

    /// The animation: the canvas, the loop count, and each frame in order with its duration.
    private func assemble(_ frames: [WebPSubframe], ends: [Int]) throws -> [UInt8] {
        guard let mux = WebPMuxNew() else { throw EncodeError.library(.libwebp, path: path, message: "out of memory") }
        defer { WebPMuxDelete(mux) }
        func check(_ error: WebPMuxError, _ what: String) throws {
            guard error == WEBP_MUX_OK else {
                throw EncodeError.library(.libwebp, path: path, message: "\(what) (mux error \(error.rawValue))")
            }
        }
        for (k, frame) in frames.enumerated() {
            // The format's longest frame is 2^24 - 1 ms (4.6 hours).
            let duration = min(ends[k] - starts[k], (1 << 24) - 1)
            let error = frame.bitstream.withUnsafeBufferPointer { bytes -> WebPMuxError in
                var info = WebPMuxFrameInfo()
                info.bitstream = WebPData(bytes: bytes.baseAddress, size: bytes.count)
                info.x_offset = Int32(frame.x)
                info.y_offset = Int32(frame.y)
                info.duration = Int32(duration)
                info.id = WEBP_CHUNK_ANMF
                info.dispose_method = WEBP_MUX_DISPOSE_NONE
                info.blend_method = frame.blends ? WEBP_MUX_BLEND : WEBP_MUX_NO_BLEND
                return WebPMuxPushFrame(mux, &info, 1)
            }
            try check(error, "adding frame \(k)")
        }
        var params = WebPMuxAnimParams(bgcolor: 0xFFFF_FFFF, loop_count: Int32(options.plays ?? 0))
        try check(WebPMuxSetAnimationParams(mux, &params), "setting the loop")
        try check(WebPMuxSetCanvasSize(mux, Int32(width), Int32(height)), "setting the canvas size")
        var data = WebPData()
        try check(WebPMuxAssemble(mux, &data), "assembling the animation")
        defer { WebPDataClear(&data) }
        return Array(UnsafeBufferPointer(start: data.bytes, count: data.size))
    }
}

/// The frames coded so far, by their place in the animation, and the first failure: shared by
/// the threads that code them.
private final class CodedFrames: Sendable {
    let frames = Mutex<[Int: WebPSubframe]>([:])
    let failure = Mutex<(any Error)?>(nil)
}
