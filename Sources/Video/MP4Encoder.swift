import CFFmpeg
import Codecs
import Foundation
import Raster

/// How an MP4 is written.
public struct MP4Options: Sendable, Equatable {
    /// x264's constant rate factor, 0 (lossless) to 51; 23 is x264's own default.
    public var crf = 23
    /// x264's speed preset: slower presets give fewer bytes at the same quality.
    public var preset = "medium"
    /// The codec: H.264, or HEVC as the iOS Simulator and recent iPhones record.
    package var codec = VideoCodec.h264
    /// Ticks per second of a variable frame rate: each frame is stamped at its own time, and
    /// none is repeated, as a screen capture stamps the refreshes that changed the picture.
    /// Nil: a constant rate, every slot filled.
    package var variableTimescale: Int?

    public init() {}

    /// The CRF for a quality of 1...100, the same scale as the GIF and WebP quality:
    /// 51·(1 − q/100), so 55 is x264's default 23 and 100 is lossless.
    public static func crf(quality: Int) -> Int { Int((51 * (1 - Double(quality) / 100)).rounded()) }
}

/// A video codec FFmpeg's libraries encode through, by its encoder's name.
package enum VideoCodec: String, Sendable {
    case h264 = "libx264"
    case hevc = "libx265"
}

/// What an MP4 encode wrote.
public struct MP4Summary: Sendable, Equatable {
    public var bytes: Int
    public var frames: Int
    public var seconds: Double
}

/// Writes an H.264 MP4 through FFmpeg's libraries (libx264): constant frame rate, YUV 4:2:0
/// in BT.709 for players, the size padded to even numbers by repeating the last column and
/// row (the true size is kept in the file's comment and read back by `MP4Reader`), and the
/// index at the front (`+faststart`) so a browser starts playing before the whole file
/// arrives. The file appears only when complete. A path ending `.mov` is written as a
/// QuickTime movie, the container the iOS Simulator records to.
public final class MP4Encoder {
    public let path: String
    let width: Int, height: Int, paddedWidth: Int, paddedHeight: Int
    let fps: Double
    private let temporaryPath: String
    /// Where the finished file lands: renamed over a file, copied through into a stream.
    private let destination: OutputDestination
    private var format: UnsafeMutablePointer<AVFormatContext>?
    private var codec: UnsafeMutablePointer<AVCodecContext>?
    private var stream: UnsafeMutablePointer<AVStream>?
    private var scaler: OpaquePointer?
    private var picture: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var rgba: [UInt8]
    /// The last frame added, repeated into any frame slot the caller skipped.
    private var last: Bitmap?
    private var nextSlot: Int64 = 0
    /// A variable frame rate's ticks per second, and the last frame's stamp in them: that frame
    /// is encoded when the next one (or the end) says how long it shows.
    private let timescale: Int?
    private var lastStamp: Int64 = -1
    /// Each variable-rate frame's duration in ticks, by its stamp, for its packet.
    private var durations: [Int64: Int64] = [:]
    private var finished = false
    private var encodedFrames = 0

    /// The comment that records the picture's true size when it was padded.
    static let sizeComment = "flipbook-size="

    public init(path: String, width: Int, height: Int, fps: Double, options: MP4Options = MP4Options()) throws {
        guard width > 0, height > 0, width <= 8192, height <= 8192 else {
            throw EncodeError.invalidSetting(
                name: "MP4 size", value: "\(width)x\(height)", expected: "1...8192 pixels a side")
        }
        guard fps >= 1, fps <= 120 else {
            throw EncodeError.invalidSetting(name: "MP4 frame rate", value: "\(fps)", expected: "1...120")
        }
        // x265 damages its own heap on pictures smaller than its largest block.
        guard options.codec != .hevc || min(width, height) >= 64 else {
            throw EncodeError.invalidSetting(
                name: "HEVC size", value: "\(width)x\(height)", expected: "at least 64 pixels a side")
        }
        if let t = options.variableTimescale, !(1...1_000_000).contains(t) {
            throw EncodeError.invalidSetting(
                name: "MP4 timescale", value: "\(t)", expected: "1...1000000 ticks a second")
        }
        guard (0...51).contains(options.crf) else {
            throw EncodeError.invalidSetting(name: "CRF", value: "\(options.crf)", expected: "0...51")
        }
        self.path = path
        self.width = width
        self.height = height
        self.paddedWidth = (width + 1) & ~1
        self.paddedHeight = (height + 1) & ~1
        self.fps = fps
        self.timescale = options.variableTimescale
        self.rgba = [UInt8](repeating: 255, count: paddedWidth * paddedHeight * 4)
        self.destination = try OutputDestination(path)
        self.temporaryPath = try AtomicOutput.siblingPath(of: path, tag: "partial")
        // FFmpeg's own progress lines are not ours to print; its errors come back as codes.
        av_log_set_level(AV_LOG_ERROR)
        do {
            try open(options)
        } catch {
            release()
            try? FileManager.default.removeItem(atPath: temporaryPath)
            throw error
        }
    }

    private func check(_ code: Int32, _ what: String) throws {
        guard code >= 0 else {
            throw EncodeError.library(.ffmpeg, path: path, message: "\(what): \(Self.message(code))")
        }
    }

    static func message(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        return String(cString: flipbook_av_error(code, &buffer, buffer.count))
    }

    private func open(_ options: MP4Options) throws {
        let container = path.lowercased().hasSuffix(".mov") ? "mov" : "mp4"
        try check(avformat_alloc_output_context2(&format, nil, container, temporaryPath), "the \(container) muxer")
        guard let format else { throw EncodeError.library(.ffmpeg, path: path, message: "no \(container) muxer") }
        guard let encoder = avcodec_find_encoder_by_name(options.codec.rawValue) else {
            throw EncodeError.library(
                .ffmpeg, path: path,
                message: "no \(options.codec.rawValue) encoder in this libavcodec (Debian's has libx264 and libx265)")
        }
        guard let stream = avformat_new_stream(format, nil), let codec = avcodec_alloc_context3(encoder) else {
            throw EncodeError.library(.ffmpeg, path: path, message: "out of memory")
        }
        self.stream = stream
        self.codec = codec
        let rate = av_d2q(fps, 100_000)
        codec.pointee.width = Int32(paddedWidth)
        codec.pointee.height = Int32(paddedHeight)
        codec.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        codec.pointee.time_base = timescale.map { AVRational(num: 1, den: Int32($0)) } ?? av_inv_q(rate)
        codec.pointee.framerate = rate
        // A variable rate's frames go out in the order they show, as a capture's do: the last
        // one's duration then ends the file where the capture ended.
        if timescale != nil { codec.pointee.max_b_frames = 0 }
        codec.pointee.color_range = AVCOL_RANGE_MPEG
        codec.pointee.colorspace = AVCOL_SPC_BT709
        codec.pointee.color_primaries = AVCOL_PRI_BT709
        codec.pointee.color_trc = AVCOL_TRC_BT709
        if format.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 {
            codec.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER
        }
        av_opt_set(codec.pointee.priv_data, "crf", "\(options.crf)", 0)
        av_opt_set(codec.pointee.priv_data, "preset", options.preset, 0)
        if options.codec == .h264 && av_get_cpu_flags() & AV_CPU_FLAG_AVX512 != 0 {
            // x264's AVX-512 code reads memory it never wrote, so its bytes would follow what the
            // heap held before. Its AVX2 code, which every AVX-512 processor has, reads none.
            av_opt_set(codec.pointee.priv_data, "x264-params", "asm=AVX2", 0)
        }
        if options.codec == .hevc {
            // x265 prints its settings to stderr itself; its errors come back as codes.
            av_opt_set(codec.pointee.priv_data, "x265-params", "log-level=error", 0)
        }
        try check(avcodec_open2(codec, encoder, nil), "opening \(options.codec.rawValue)")
        try check(avcodec_parameters_from_context(stream.pointee.codecpar, codec), "the stream's parameters")
        if options.codec == .hevc {
            // Tagged as Apple's players and the Simulator tag HEVC: its parameters in the header.
            stream.pointee.codecpar.pointee.codec_tag = flipbook_tag_hvc1()
        }
        stream.pointee.time_base = codec.pointee.time_base
        if timescale == nil { stream.pointee.avg_frame_rate = rate }
        if paddedWidth != width || paddedHeight != height {
            av_dict_set(&format.pointee.metadata, "comment", "\(Self.sizeComment)\(width)x\(height)", 0)
        }
        try check(avio_open(&format.pointee.pb, temporaryPath, AVIO_FLAG_WRITE), "creating the file")
        var header: OpaquePointer? = nil
        av_dict_set(&header, "movflags", "+faststart", 0)
        defer { av_dict_free(&header) }
        try check(avformat_write_header(format, &header), "writing the header")

        scaler = sws_getContext(
            Int32(paddedWidth), Int32(paddedHeight), AV_PIX_FMT_RGBA, Int32(paddedWidth), Int32(paddedHeight),
            AV_PIX_FMT_YUV420P, SWS_BILINEAR | SWS_ACCURATE_RND, nil, nil, nil)
        guard let scaler else {
            throw EncodeError.library(.ffmpeg, path: path, message: "no RGBA to YUV 4:2:0 converter")
        }
        // Full-range RGB in, limited-range BT.709 YUV out, as the stream's tags say.
        let bt709 = sws_getCoefficients(SWS_CS_ITU709)
        sws_setColorspaceDetails(scaler, bt709, 1, bt709, 0, 0, 1 << 16, 1 << 16)
        guard let picture = av_frame_alloc(), let packet = av_packet_alloc() else {
            throw EncodeError.library(.ffmpeg, path: path, message: "out of memory")
        }
        self.picture = picture
        self.packet = packet
        picture.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        picture.pointee.width = Int32(paddedWidth)
        picture.pointee.height = Int32(paddedHeight)
        try check(av_frame_get_buffer(picture, 0), "a frame buffer")
    }

    /// Adds the frame shown from `time` seconds; frame slots it skips repeat the frame before.
    public func add(_ frame: Bitmap, at time: Double) throws {
        guard !finished else { throw EncodeError.usage("\(path): a frame after the MP4 was finished") }
        try EncodeError.checkSize(of: frame, width: width, height: height, path: path)
        if let timescale {
            let stamp = Int64((time * Double(timescale)).rounded())
            guard stamp > lastStamp else {
                throw EncodeError.usage("\(path): a frame at \(time) s, not after the one before")
            }
            if let last { try encode(last, stamp: lastStamp, until: stamp) }
            lastStamp = stamp
            last = frame
            return
        }
        let slot = Int64((time * fps).rounded())
        if let last { while nextSlot < slot { try encode(last) } }
        nextSlot = max(nextSlot, slot)
        try encode(frame)
        last = frame
    }

    /// Repeats the last frame up to `end` seconds, flushes the encoder and moves the file into place.
    public func finish(at end: Double) throws -> MP4Summary {
        guard !finished else { throw EncodeError.usage("\(path): finished twice") }
        guard let last else { throw EncodeError.usage("\(path): no frames to write") }
        if let timescale {
            let endStamp = max(lastStamp + 1, Int64((end * Double(timescale)).rounded()))
            try encode(last, stamp: lastStamp, until: endStamp)
            lastStamp = endStamp
        } else {
            let endSlot = Int64((end * fps).rounded())
            while nextSlot < endSlot { try encode(last) }
        }
        finished = true
        var bytes = 0
        do {
            try drain(flushing: true)
            try check(av_write_trailer(format), "writing the index")
            avio_closep(&format!.pointee.pb)
            release()
            bytes = (try? FileManager.default.attributesOfItem(atPath: temporaryPath)[.size] as? Int) ?? 0
            try destination.land(temporary: temporaryPath)
        } catch {
            release()
            try? FileManager.default.removeItem(atPath: temporaryPath)
            throw error
        }
        if let timescale {
            return MP4Summary(bytes: bytes, frames: encodedFrames, seconds: Double(lastStamp) / Double(timescale))
        }
        return MP4Summary(bytes: bytes, frames: Int(nextSlot), seconds: Double(nextSlot) / fps)
    }

    /// Hands a variable-rate frame to the encoder at its stamp, showing until `end`.
    private func encode(_ frame: Bitmap, stamp: Int64, until end: Int64) throws {
        nextSlot = stamp
        durations[stamp] = end - stamp
        try encode(frame)
    }

    /// Converts one frame to YUV and hands it to the encoder at the next slot.
    private func encode(_ frame: Bitmap) throws {
        // Premultiplied pixels over black are the opaque frames' own colours; the padding
        // repeats the last column and row.
        rgba.withUnsafeMutableBytes { out in
            frame.pixels.withUnsafeBytes { src in
                for y in 0..<paddedHeight {
                    let row = src.baseAddress! + min(y, height - 1) * frame.rowBytes
                    let dst = out.baseAddress! + y * paddedWidth * 4
                    dst.copyMemory(from: row, byteCount: width * 4)
                    if paddedWidth > width { (dst + width * 4).copyMemory(from: row + (width - 1) * 4, byteCount: 4) }
                }
            }
        }
        try check(av_frame_make_writable(picture), "a writable frame")
        let converted = rgba.withUnsafeBufferPointer { buffer -> Int32 in
            var planes: [UnsafePointer<UInt8>?] = [buffer.baseAddress, nil, nil, nil]
            var strides: [Int32] = [Int32(paddedWidth * 4), 0, 0, 0]
            return withUnsafeMutablePointer(to: &picture!.pointee.data) { data in
                withUnsafeMutablePointer(to: &picture!.pointee.linesize) { sizes in
                    data.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 8) { d in
                        sizes.withMemoryRebound(to: Int32.self, capacity: 8) { l in
                            sws_scale(scaler, &planes, &strides, 0, Int32(paddedHeight), d, l)
                        }
                    }
                }
            }
        }
        guard converted == Int32(paddedHeight) else {
            throw EncodeError.library(.ffmpeg, path: path, message: "converting a frame to YUV")
        }
        picture!.pointee.pts = nextSlot
        nextSlot += 1
        encodedFrames += 1
        try check(avcodec_send_frame(codec, picture), "encoding a frame")
        try drain(flushing: false)
    }

    /// Writes every packet the encoder has ready (all of them when flushing).
    private func drain(flushing: Bool) throws {
        if flushing { try check(avcodec_send_frame(codec, nil), "flushing the encoder") }
        while true {
            let got = avcodec_receive_packet(codec, packet)
            if got == flipbook_averror_again() || got == flipbook_averror_eof() { return }
            try check(got, "encoding")
            if let duration = durations.removeValue(forKey: packet!.pointee.pts) { packet!.pointee.duration = duration }
            av_packet_rescale_ts(packet, codec!.pointee.time_base, stream!.pointee.time_base)
            packet!.pointee.stream_index = stream!.pointee.index
            try check(av_interleaved_write_frame(format, packet), "writing a frame")
        }
    }

    private func release() {
        if let scaler { sws_freeContext(scaler) }
        scaler = nil
        av_frame_free(&picture)
        av_packet_free(&packet)
        avcodec_free_context(&codec)
        if let format {
            if format.pointee.pb != nil { avio_closep(&format.pointee.pb) }
            avformat_free_context(format)
        }
        format = nil
    }

    deinit {
        if !finished {
            release()
            try? FileManager.default.removeItem(atPath: temporaryPath)
        }
    }
}
