/// Maps the one `--quality` number users see to the encoder's knobs.
///
/// Chosen by measurement, scored against the source frames beside ffmpeg's two-pass palette
/// and libimagequant + giflib:
/// - no dithering: with Flipbook's own remap (exact nearest colour), 0 gave smaller files and
///   higher PSNR than 0.25 and 0.5 on every built-in scene at @2x (expanding-cells 6.54 MB at
///   53.99 dB vs 6.61 MB at 53.92 dB at 0.25; sliding-panels 42.41 MB / 50.83 dB vs 42.64 MB /
///   50.76 dB); `--dither` is there for gradients that band;
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
        o.dithering = 0
        o.speed = o.quality >= 80 ? 3 : 6
        return o
    }
}
