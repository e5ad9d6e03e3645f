/// Maps the one `--quality` number users see to the encoder's knobs.
///
/// Chosen by measurement against the source frames, beside ffmpeg's two-pass palette and
/// libimagequant + giflib (the figures are in the commits that chose them and in
/// `Scripts/bench`'s report):
/// - no dithering: with Flipbook's exact nearest-colour remap it gives smaller files and a
///   higher PSNR on UI frames; `--dither` is there for gradients that band;
/// - palettes come from a 2x-subsampled crop, then k-means steps over every changed pixel
///   (`GIFOptions.refineSteps`), which let libimagequant run at speed 6: sharper and faster
///   than a slower quantizer speed without the steps. Faster speeds lose detail, and speed 8
///   turns libimagequant's own refinement off;
/// - below quality 80, where the point is size and speed, two steps, which cost what one
///   coarser step did; six give a little more PSNR for more time.
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
