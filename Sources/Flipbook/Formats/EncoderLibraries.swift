import Codecs
import Video

/// The C libraries that encode and decode Flipbook's formats, with the versions running: what a
/// build key names of the tool besides its code.
public enum EncoderLibraries {
    /// Each library's name and version (`libpng 10639`), in a fixed order.
    public static var versions: [String] {
        (CodecLibraries.versions + VideoLibraries.versions).map { "\($0.library) \($0.version)" }
    }
}
