import Geometry

/// One setting a size budget may try: the encoder's quality, then GIF's lossy LZW, then the
/// frame rate, then the width. Rungs run from the best-looking to the smallest.
public struct BudgetRung: Sendable, Equatable {
    /// nil: a WebP's lossless mode (a GIF always has a quality).
    public var quality: Int?
    /// GIF lossy LZW (with dithering off); 0 for none.
    public var lossy = 0
    public var fps: Double
    public var width: Int

    public init(quality: Int?, lossy: Int = 0, fps: Double, width: Int) {
        (self.quality, self.lossy, self.fps, self.width) = (quality, lossy, fps, width)
    }

    /// The options that make this setting, e.g. `quality 70 fps 20 width 281`.
    public var options: ExportText {
        var text: ExportText = quality.map { "\(.quality) \($0)" } ?? "lossless"
        if lossy > 0 { text = text + " \(.dither) 0 \(.lossy) \(lossy)" }
        return text + " \(.fps) \(fps.plainText) \(.width) \(width)"
    }

    /// The same, shorter, for a list of tries: `q70`, `q25 lossy 16 20fps 281px`.
    public var brief: String {
        var parts = [quality.map { "q\($0)" } ?? "lossless"]
        if lossy > 0 { parts.append("lossy \(lossy)") }
        return parts.joined(separator: " ")
    }
}

/// The settings a size budget searches, and the search: the best-looking rung whose file fits,
/// found by bisection over rungs ordered best first, so a budget costs a handful of encodes
/// rather than one per setting.
public enum SizeBudget {
    /// Rungs for a format starting from the request's own quality, fps and width: the format's
    /// qualities (`AnimationFormat`), then fewer frames, then fewer pixels.
    public static func ladder(_ format: AnimationFormat, quality: Int?, fps: Double, width: Int) -> [BudgetRung] {
        var rungs = format.budgetQualities(quality).map {
            BudgetRung(quality: $0.quality, lossy: $0.lossy, fps: fps, width: width)
        }
        if rungs.isEmpty { rungs.append(BudgetRung(quality: quality, fps: fps, width: width)) }
        // Then fewer frames, then fewer pixels, each at the smallest quality rung.
        var floor = rungs.last!
        for f in [20.0, 15, 10] where f < fps {
            floor.fps = f
            rungs.append(floor)
        }
        for k in [0.75, 0.5] where Int((Double(width) * k).rounded()) >= 16 {
            floor.width = Int((Double(width) * k).rounded())
            rungs.append(floor)
        }
        return rungs
    }

    /// The lowest index in 0..<count for which `fits` holds, assuming that once a rung fits
    /// every later one does; nil if none does. `fits` runs about log2(count) + 1 times.
    /// With `guess`, the rung most budgets land near is tried second, and the bisection
    /// continues on its side: a guess that fits leaves only the rungs above it.
    public static func search(count: Int, guess: Int? = nil, fits: (Int) throws -> Bool) rethrows -> Int? {
        var low = 0, high = count - 1, best: Int? = nil
        // The best rung first: a file already under budget needs one encode.
        if count > 0, try fits(0) { return 0 }
        low = 1
        if let guess, guess > 0, guess < count {
            if try fits(guess) {
                best = guess
                high = guess - 1
            } else {
                low = guess + 1
            }
        }
        while low <= high {
            let mid = (low + high) / 2
            if try fits(mid) {
                best = mid
                high = mid - 1
            } else {
                low = mid + 1
            }
        }
        return best
    }
}
