/// Maps the one `--quality` number users see to the encoder's knobs.
public enum GIFQualityPreset {
    public static let defaultQuality = 90

    /// Options for a quality in 1...100.
    public static func options(quality: Int) -> GIFOptions {
        var o = GIFOptions()
        o.quality = min(100, max(1, quality))
        o.dithering = 1.0
        o.speed = 4
        return o
    }
}
