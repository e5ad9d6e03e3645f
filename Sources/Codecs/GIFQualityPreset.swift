/// Maps the one `--quality` number users see to the encoder's knobs.
///
/// Chosen by measurement, scored against the source frames beside ffmpeg's two-pass palette
/// and libimagequant + giflib:
/// - no dithering: with Flipbook's own remap (exact nearest colour), 0 gave smaller files and
///   higher PSNR than 0.25 and 0.5 on every built-in scene at @2x (expanding-cells 6.54 MB at
///   53.99 dB vs 6.61 MB at 53.92 dB at 0.25; sliding-panels 42.41 MB / 50.83 dB vs 42.64 MB /
///   50.76 dB); `--dither` is there for gradients that band;
/// - palettes come from a 2x-subsampled crop (a third of the CPU time), then k-means steps
///   over every changed pixel (`GIFOptions.refineSteps`). With six steps, libimagequant's
///   speed 6 beats the speed 3 and single quarter-crop step used before, at @2x and quality
///   100: PSNR +0.01 to +1.08 dB on the four built-in scenes, bytes -0.05 % to +0.002 %, wall
///   time 0.80x-0.91x on the three large ones. In that search (with steps over quarters of
///   the crop), speed 7 lost 0.10 dB on app-store-card, and speed 8, which turns
///   libimagequant's own refinement off, 0.3-0.6 dB;
/// - below quality 80, where the point is size and speed, two steps: at quality 40 @2x they
///   took the old single step's time (sliding-panels 3.04 s against 3.17-3.32 s) at +0.07 dB
///   and 0.7 % fewer bytes; six steps gave another 0.05-0.14 dB for about 1.15x the time.
public enum GIFQualityPreset {
    public static let defaultQuality = 100

    /// Options for a quality in 1...100.
    public static func options(quality: Int) -> GIFOptions {
        var o = GIFOptions()
        o.quality = min(100, max(1, quality))
        o.dithering = 0
        o.speed = 6
        o.refineSteps = o.quality >= 80 ? 6 : 2
        return o
    }
}
