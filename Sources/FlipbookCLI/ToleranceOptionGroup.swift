import Flipbook
import ArgumentParser

/// `compare`'s tolerances, each read as a number in range: a value that is not one (NaN, text,
/// out of range) is an error, never a pass.
struct ToleranceOptionGroup: ParsableArguments {
    @Option(
        help: ArgumentHelp("Largest per-channel difference allowed, 0...255 (default 0).", valueName: "N"),
        transform: { Int(try boundedNumber($0, 0...255, whole: true)) })
    var maxDelta = 0

    @Option(
        help: ArgumentHelp(
            "Fraction of pixels allowed to differ, 0...1, or a percentage like 0.5% (default 0).", valueName: "F"),
        transform: { text in
            text.hasSuffix("%")
                ? try boundedNumber(String(text.dropLast()), 0...100) / 100 : try boundedNumber(text, 0...1)
        })
    var maxFraction = 0.0

    @Option(
        help: ArgumentHelp(
            "Also require a CIE76 ΔE above this for a pixel to differ (about 1 is just noticeable), 0...1000.",
            valueName: "ΔE"),
        transform: { try boundedNumber($0, 0...1000) })
    var perceptual: Double?

    var tolerance: Tolerance {
        Tolerance(maxChannelDelta: maxDelta, maxDifferingFraction: maxFraction, perceptual: perceptual)
    }
}

/// `text` as a finite number in `range` (a whole one when `whole`), or an error saying what
/// was expected: for `@Option(transform:)`.
func boundedNumber(_ text: String, _ range: ClosedRange<Double>, whole: Bool = false) throws -> Double {
    guard let v = Double(text), v.isFinite, range.contains(v), !whole || v == v.rounded() else {
        throw ValidationError(
            "expected \(whole ? "a whole number" : "a number") in \(range.lowerBound.plainText)...\(range.upperBound.plainText)"
        )
    }
    return v
}
