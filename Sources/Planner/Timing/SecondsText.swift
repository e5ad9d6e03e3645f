import Foundation

/// Durations as people write them: `0.3`, `0.3s` and `300ms` all mean 0.3 seconds, wherever a
/// file or a command line takes seconds (a `seconds` param, an animation's duration, a hold, a
/// delay, a curve spec's `duration=`, a number in an expression).
public enum SecondsText {
    /// The units a duration may carry, longest first so that `ms` is not read as `s`.
    public static let units: [(suffix: String, seconds: Double)] = [("ms", 0.001), ("s", 1)]

    /// The duration `text` spells, in seconds, or nil if it is not a finite number with an
    /// optional unit.
    public static func parse(_ text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        for unit in units where trimmed.hasSuffix(unit.suffix) {
            let number = trimmed.dropLast(unit.suffix.count).trimmingCharacters(in: .whitespaces)
            guard let v = Double(number), v.isFinite else { return nil }
            return v * unit.seconds
        }
        guard let v = Double(trimmed), v.isFinite else { return nil }
        return v
    }
}
