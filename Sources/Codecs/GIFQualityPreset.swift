/// Maps the one `--quality` number users see to the encoder's knobs.
///
/// Chosen by measurement on the gifpeers frames (375x667, 30 fps), scored against the source
/// frames beside ffmpeg's two-pass palette and libimagequant + giflib:
/// - dithering 0.25 beat 0, 0.5 and 1.0 on PSNR and size at every quality tried (full
///   Floyd–Steinberg noise costs LZW bytes and, with a screen-aware remap, PSNR too);
/// - palettes come from a 2x-subsampled crop (a third of the CPU time), which makes
///   libimagequant's slower speeds cheap: speed 3 gave the best PSNR per second at quality 100
///   (speeds 1 and 2 gained at most 0.02 dB);
/// - below quality 80 the palette is coarse anyway, and speed 6 saves a fifth of the time.
public enum GIFQualityPreset {
    public static let defaultQuality = 100

    /// Options for a quality in 1...100.
    public static func options(quality: Int) -> GIFOptions {
        var o = GIFOptions()
        o.quality = min(100, max(1, quality))
        o.dithering = 0.25
        o.speed = o.quality >= 80 ? 3 : 6
        return o
    }
}
