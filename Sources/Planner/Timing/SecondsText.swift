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
            guard let v = decimal(number) else { return nil }
            return v * unit.seconds
        }
        return decimal(trimmed)
    }

    /// A finite number written in decimal (`0.5`, `.5`, `5e-1`), not the hexadecimal floats
    /// (`0x1p-1`), `inf` or `nan` that Swift's `Double(_:)` also reads.
    static func decimal(_ text: String) -> Double? {
        var rest = Substring(text)
        if rest.first == "+" || rest.first == "-" { rest = rest.dropFirst() }
        let mantissa = rest.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
        guard mantissa.contains(where: \.isNumber), mantissa.filter({ $0 == "." }).count <= 1 else { return nil }
        rest = rest.dropFirst(mantissa.count)
        if let e = rest.first, e == "e" || e == "E" {
            rest = rest.dropFirst()
            if rest.first == "+" || rest.first == "-" { rest = rest.dropFirst() }
            let exponent = rest.prefix { $0.isASCII && $0.isNumber }
            guard !exponent.isEmpty else { return nil }
            rest = rest.dropFirst(exponent.count)
        }
        guard rest.isEmpty, let v = Double(text), v.isFinite else { return nil }
        return v
    }
}
