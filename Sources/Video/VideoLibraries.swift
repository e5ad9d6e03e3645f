import CFFmpeg

/// The versions of FFmpeg's libraries that write and read MP4, as they run (see
/// `CodecLibraries`).
public enum VideoLibraries {
    /// Each library's name and version (major << 16 | minor << 8 | micro, in hex).
    public static var versions: [(library: String, version: String)] {
        [
            ("libavcodec", String(avcodec_version(), radix: 16)),
            ("libavformat", String(avformat_version(), radix: 16)),
            ("libswscale", String(swscale_version(), radix: 16)),
        ]
    }
}
