import CFFmpeg
import Codecs
import Foundation
import Raster

/// Reads a video's frames one at a time through FFmpeg (any container and codec it knows, an
/// animated PNG too), as RGBA bitmaps with their start and end in seconds, as players show
/// them: turned as the stream's display matrix says, from 0 at the first frame whatever its
/// timestamp, and on through a clock that restarts (a fragmented MP4's). A picture that
/// `MP4Encoder` padded to even sizes comes back at its true size.
public final class MP4Reader {
    public let path: String
    /// The size frames come back at: the picture's, turned as players turn it.
    public private(set) var width = 0, height = 0
    /// The picture's size as stored, before the turn.
    private var pictureWidth = 0, pictureHeight = 0
    /// The turn players give each picture, in degrees clockwise.
    private var rotation = 0
    /// The first frame's timestamp (seconds), which plays at 0.
    private var origin: Double?
    /// Seconds added to timestamps after a clock restart, so that time goes on.
    private var restartOffset = 0.0
    /// The last frame's start as returned (seconds), for restarts.
    private var lastStart: Double?
    private var format: UnsafeMutablePointer<AVFormatContext>?
    private var codec: UnsafeMutablePointer<AVCodecContext>?
    private var scaler: OpaquePointer?
    /// The pixel format `scaler` converts from.
    private var scalerFormat: Int32 = -1
    /// Threads converting each picture to RGBA (0: one a core); any count gives the same bytes.
    private let threads: Int
    private var decoded: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var streamIndex: Int32 = 0
    private var timeBase = AVRational(num: 1, den: 1)
    private var frameDuration = 0.0
    private var draining = false
    private var ended = false
    /// The descriptor of a FIFO or pipe read through FFmpeg's pipe protocol, closed on release.
    private var stream: Int32?
    /// Decoded but not yet returned: each frame's end is the next one's start.
    private var pending: (Bitmap, Double)?
    /// How long the last decoded picture's packet says it shows, in seconds (0: it does not say).
    private var lastDuration = 0.0
    /// Where the stream says it ends, in seconds, when it says.
    private var streamEnd: Double?
    private let maximumPixels: Int
    /// The size the stream says its pictures are, padding included: every frame must be it.
    private var codedWidth = 0, codedHeight = 0
    /// Frames converted so far, for errors.
    private var decodedFrames = 0

    public init(path: String, maximumPixels: Int = 36_000_000, threads: Int = 0) throws {
        self.path = path
        self.maximumPixels = maximumPixels
        self.threads = max(0, threads)
        av_log_set_level(AV_LOG_ERROR)
        do {
            try open()
        } catch {
            release()
            throw error
        }
    }

    private func check(_ code: Int32, _ what: String) throws {
        guard code >= 0 else {
            throw DecodeError.library(.ffmpeg, path: path, message: "\(what): \(MP4Encoder.message(code))")
        }
    }

    /// A frame of `width`x`height` is within the pixel budget, or an error that names both.
    private func checkSize(_ width: Int, _ height: Int) throws {
        guard width > 0, height > 0 else {
            throw DecodeError.library(.ffmpeg, path: path, message: "its video has no size (\(width)x\(height))")
        }
        guard width * height <= maximumPixels else {
            throw DecodeError.library(
                .ffmpeg, path: path,
                message:
                    "frames of \(width)x\(height) (\(String(format: "%.1f", Double(width * height) / 1e6)) Mpx), past the \(String(format: "%g", Double(maximumPixels) / 1e6)) Mpx a frame may have; scale it down (ffmpeg -vf scale=iw/2:-2)"
            )
        }
    }

    private func open() throws {
        guard FileManager.default.fileExists(atPath: path) else { throw DecodeError.fileNotFound(path: path) }
        // A FIFO, a device or a pipe is read through FFmpeg's pipe protocol on a descriptor
        // opened without waiting: with no writer it is an empty stream, an error at once.
        var info = stat()
        if stat(path, &info) == 0 && info.st_mode & S_IFMT != S_IFREG {
            let fd = try openWithoutWaiting(path)
            stream = fd
            try check(avformat_open_input(&format, "pipe:\(fd)", nil, nil), "not a video FFmpeg can read")
        } else {
            try check(avformat_open_input(&format, path, nil, nil), "not a video FFmpeg can read")
        }
        try check(avformat_find_stream_info(format, nil), "reading the streams")
        var decoder: UnsafePointer<AVCodec>? = nil
        let index = av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, &decoder, 0)
        try check(index, "no video stream")
        guard let decoder, let codec = avcodec_alloc_context3(decoder) else {
            throw DecodeError.library(.ffmpeg, path: path, message: "no decoder for its video")
        }
        self.codec = codec
        streamIndex = index
        let stream = format!.pointee.streams[Int(index)]!
        timeBase = stream.pointee.time_base
        try check(avcodec_parameters_to_context(codec, stream.pointee.codecpar), "the stream's parameters")
        // Refused by name before the decoder opens, which would log its own lines for it.
        try checkSize(Int(codec.pointee.width), Int(codec.pointee.height))
        // The decoder itself refuses a picture past the budget, before it allocates one: a
        // stream's header speaks for its first picture only.
        codec.pointee.max_pixels = Int64(maximumPixels)
        // Every core: FFmpeg's threaded decoding gives the same pictures as one thread.
        codec.pointee.thread_count = 0
        try check(avcodec_open2(codec, decoder, nil), "opening the decoder")
        width = Int(codec.pointee.width)
        height = Int(codec.pointee.height)
        (codedWidth, codedHeight) = (width, height)
        try checkSize(width, height)
        if let entry = av_dict_get(format!.pointee.metadata, "comment", nil, 0),
            let text = entry.pointee.value.map({ String(cString: $0) }),
            text.hasPrefix(MP4Encoder.sizeComment)
        {
            let size = text.dropFirst(MP4Encoder.sizeComment.count).split(separator: "x").compactMap { Int($0) }
            if size.count == 2, (1...width).contains(size[0]), (1...height).contains(size[1]) {
                (width, height) = (size[0], size[1])
            }
        }
        (pictureWidth, pictureHeight) = (width, height)
        rotation = Int(flipbook_stream_rotation(stream))
        if rotation % 180 != 0 { (width, height) = (height, width) }
        if stream.pointee.duration > 0 {
            let first = stream.pointee.start_time == flipbook_no_timestamp() ? 0 : stream.pointee.start_time
            streamEnd = Double(first + stream.pointee.duration) * tick
        }
        let rate = stream.pointee.avg_frame_rate
        frameDuration = rate.num > 0 ? Double(rate.den) / Double(rate.num) : 1.0 / 30
        guard let decoded = av_frame_alloc(), let packet = av_packet_alloc() else {
            throw DecodeError.library(.ffmpeg, path: path, message: "out of memory")
        }
        self.decoded = decoded
        self.packet = packet
    }

    /// The next frame with its start and end in seconds, or nil after the last.
    public func next() throws -> (bitmap: Bitmap, start: Double, end: Double)? {
        while !ended {
            guard let (bitmap, start) = try decodeNext() else {
                ended = true
                break
            }
            if let (previous, previousStart) = pending {
                pending = (bitmap, start)
                return (previous, previousStart, start)
            }
            pending = (bitmap, start)
        }
        guard let (bitmap, start) = pending else { return nil }
        pending = nil
        // The last frame shows until the stream's end, or as long as its packet says; a stream
        // that says neither (or whose clock restarted, which leaves its end meaningless), for
        // a frame of its average rate.
        let lasts = lastDuration > 0 ? lastDuration : frameDuration
        let streamEnd = restartOffset == 0 ? self.streamEnd.map { $0 - (origin ?? 0) } : nil
        let end = streamEnd.flatMap { $0 > start + 1e-6 ? $0 : nil } ?? start + lasts
        return (bitmap, start, end)
    }

    /// The next decoded picture and its start in seconds.
    private func decodeNext() throws -> (Bitmap, Double)? {
        while true {
            let got = avcodec_receive_frame(codec, decoded)
            if got >= 0 { return (try bitmap(), start()) }
            if got == flipbook_averror_eof() { return nil }
            guard got == flipbook_averror_again() else {
                try check(got, "decoding")
                return nil
            }
            if draining { return nil }
            let read = av_read_frame(format, packet)
            if read == flipbook_averror_eof() {
                draining = true
                try check(avcodec_send_packet(codec, nil), "flushing the decoder")
                continue
            }
            try check(read, "reading")
            defer { av_packet_unref(packet) }
            if packet!.pointee.stream_index == streamIndex { try check(avcodec_send_packet(codec, packet), "decoding") }
        }
    }

    /// Seconds in one tick of the stream's time base.
    private var tick: Double { Double(timeBase.num) / Double(timeBase.den) }

    /// The decoded picture's start, from 0 at the first frame. A timestamp that goes back, or
    /// that is missing, continues the clock where the frame before ends, as a player plays
    /// the frames in order.
    private func start() -> Double {
        let previousDuration = lastDuration > 0 ? lastDuration : frameDuration
        lastDuration = Double(decoded!.pointee.pkt_duration) * tick
        let stamp = decoded!.pointee.best_effort_timestamp
        var t: Double
        if stamp == flipbook_no_timestamp() {
            t = lastStart.map { $0 + previousDuration } ?? 0
        } else {
            let raw = Double(stamp) * tick
            if origin == nil { origin = raw }
            t = raw - origin! + restartOffset
        }
        if let last = lastStart, t < last + 1e-6 {
            let next = last + previousDuration
            if stamp != flipbook_no_timestamp() { restartOffset += next - t }
            t = next
        }
        lastStart = t
        return t
    }

    /// The decoded picture as an opaque RGBA bitmap at the true size.
    private func bitmap() throws -> Bitmap {
        let frame = decoded!.pointee
        defer { decodedFrames += 1 }
        guard Int(frame.width) == codedWidth, Int(frame.height) == codedHeight else {
            throw DecodeError.library(
                .ffmpeg, path: path,
                message:
                    "frame \(decodedFrames) is \(frame.width)x\(frame.height) where the video's frames are \(codedWidth)x\(codedHeight): a video whose frame size changes is not read"
            )
        }
        if scaler == nil || scalerFormat != frame.format {
            if let scaler { sws_freeContext(scaler) }
            scaler = flipbook_rgba_converter(frame.width, frame.height, frame.format, Int32(threads))
            scalerFormat = frame.format
        }
        guard let scaler else { throw DecodeError.library(.ffmpeg, path: path, message: "no converter to RGBA") }
        let bt709 = sws_getCoefficients(SWS_CS_ITU709)
        sws_setColorspaceDetails(
            scaler, bt709, frame.color_range == AVCOL_RANGE_JPEG ? 1 : 0, bt709, 1, 0, 1 << 16, 1 << 16)
        let fullWidth = Int(frame.width), fullHeight = Int(frame.height)
        // Rows start 64 bytes apart at least: swscale converts a row that is not 16-byte
        // aligned through a copy of its own.
        let stride = (fullWidth * 4 + 63) / 64 * 64
        // Opaque to start with, so that every byte is set whatever a converter leaves.
        var rgba = [UInt8](repeating: 255, count: stride * fullHeight)
        let converted = rgba.withUnsafeMutableBufferPointer {
            flipbook_convert_rgba(scaler, decoded, $0.baseAddress, Int32(stride))
        }
        guard converted >= 0 else {
            throw DecodeError.library(
                .ffmpeg, path: path, message: "converting a frame to RGBA: \(MP4Encoder.message(converted))")
        }
        if flipbook_has_alpha(frame.format) != 0 { rgba.withUnsafeMutableBufferPointer { premultiplyRGBA($0) } }
        // The true size: the encoder's padding is not part of the picture.
        let picture = Bitmap(width: pictureWidth, height: pictureHeight, rowBytes: stride, premultipliedPixels: rgba)
        return rotation == 0 ? picture : picture.turnedClockwise(quarterTurns: rotation / 90)
    }

    private func release() {
        if let fd = stream { close(fd) }
        stream = nil
        if let scaler { sws_freeContext(scaler) }
        scaler = nil
        av_frame_free(&decoded)
        av_packet_free(&packet)
        avcodec_free_context(&codec)
        avformat_close_input(&format)
    }

    deinit { release() }
}
