import CGIF
import CImageQuant
import CPNG
import CWebP

/// The versions of the C libraries that encode and decode images, as they run: a different
/// libimagequant or libwebp can write other bytes from the same frames, so a build key names them.
public enum CodecLibraries {
    /// Each library's name and version, in a fixed order.
    public static var versions: [(library: String, version: String)] {
        [
            ("libpng", "\(png_access_version_number())"),
            ("giflib", "\(GIFLIB_MAJOR).\(GIFLIB_MINOR).\(GIFLIB_RELEASE)"),
            ("libimagequant", "\(liq_version())"),
            ("libwebp", String(WebPGetEncoderVersion(), radix: 16) + " mux " + String(WebPGetMuxVersion(), radix: 16)),
        ]
    }
}
