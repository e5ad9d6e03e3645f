import ArgumentParser
import Codecs
import Foundation
import Geometry
import Render

/// A file size given on the command line: `5MB`, `800KB`, `1.5MiB` or plain bytes. Decimal
/// units are powers of 1000 (as GitHub and Slack state their limits), binary ones of 1024.
struct ByteSize: ExpressibleByArgument, Equatable {
    let bytes: Int

    init(bytes: Int) { self.bytes = bytes }

    init?(argument: String) {
        let text = argument.trimmingCharacters(in: .whitespaces)
        let units: [(String, Double)] = [
            ("kib", 1024), ("mib", 1_048_576), ("gib", 1_073_741_824), ("kb", 1e3), ("mb", 1e6), ("gb", 1e9),
            ("k", 1e3), ("m", 1e6), ("g", 1e9), ("b", 1),
        ]
        let lower = text.lowercased()
        let (digits, factor) =
            units.first { lower.hasSuffix($0.0) }.map { (String(lower.dropLast($0.0.count)), $0.1) } ?? (lower, 1)
        guard let value = Double(digits.trimmingCharacters(in: .whitespaces)), value.isFinite, value > 0,
            value * factor < 1e12
        else { return nil }
        bytes = Int((value * factor).rounded(.down))
        guard bytes >= 1024 else { return nil }
    }

    static var defaultValueDescription: String { "e.g. 5MB" }

    /// For `@Option(transform:)`: a bad value's error says what was expected.
    static func parse(_ text: String) throws -> ByteSize {
        guard let size = ByteSize(argument: text) else {
            throw ValidationError("expected a size of at least 1 KiB, such as 5MB, 800KB or 1.5MiB")
        }
        return size
    }
}

/// One setting a size budget may try: the encoder's quality, then GIF's lossy LZW, then the
/// frame rate, then the width. Rungs run from the best-looking to the smallest.
struct BudgetRung: Equatable, CustomStringConvertible {
    /// nil: a WebP's lossless mode (a GIF always has a quality).
    var quality: Int?
    /// GIF lossy LZW (with dithering off); 0 for none.
    var lossy = 0
    var fps: Double
    var width: Int

    /// The flags that make this setting, e.g. `--quality 70 --fps 20 --width 281`.
    var description: String {
        var parts = [quality.map { "--quality \($0)" } ?? "lossless"]
        if lossy > 0 { parts.append("--dither 0 --lossy \(lossy)") }
        parts.append("--fps \(fps.plainText)")
        parts.append("--width \(width)")
        return parts.joined(separator: " ")
    }

    /// The same, shorter, for a list of tries: `q70`, `q25 lossy 16 20fps 281px`.
    var brief: String {
        var parts = [quality.map { "q\($0)" } ?? "lossless"]
        if lossy > 0 { parts.append("lossy \(lossy)") }
        return parts.joined(separator: " ")
    }
}

/// The settings `--max-size` searches, and the search: the best-looking rung whose file fits,
/// found by bisection over rungs ordered best first, so a budget costs a handful of encodes
/// rather than one per setting.
enum SizeBudget {
    /// The formats a budget fits.
    enum Format { case gif, webp, mp4 }

    /// Rungs for a format starting from the command's own quality, fps and width. An MP4's
    /// qualities are x264's CRF 18, 20, 23 (its default), 26, 29, 32, 35 and 38.
    static func ladder(_ format: Format, quality: Int?, fps: Double, width: Int) -> [BudgetRung] {
        var rungs: [BudgetRung] = []
        if format == .mp4 {
            for q in [65, 61, 55, 49, 43, 37, 31, 25] where q <= (quality ?? 65) {
                rungs.append(BudgetRung(quality: q, fps: fps, width: width))
            }
        } else if format == .webp {
            if quality == nil { rungs.append(BudgetRung(quality: nil, fps: fps, width: width)) }
            for q in [95, 90, 85, 80, 75, 70, 60, 50, 40, 30] where q <= (quality ?? 100) {
                rungs.append(BudgetRung(quality: q, fps: fps, width: width))
            }
        } else {
            for q in [100, 95, 90, 85, 80, 70, 60, 50, 40, 30, 25] where q <= (quality ?? 100) {
                rungs.append(BudgetRung(quality: q, fps: fps, width: width))
            }
            let last = rungs.last?.quality ?? quality ?? 25
            for lossy in [8, 16, 32] { rungs.append(BudgetRung(quality: last, lossy: lossy, fps: fps, width: width)) }
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
    static func search(count: Int, guess: Int? = nil, fits: (Int) throws -> Bool) rethrows -> Int? {
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

extension RenderCommand {
    /// `--max-size`: bisects the budget ladder, each try a whole render and encode to a file
    /// beside the output, and moves the best-looking one that fits into place.
    func fit(_ renderer: SceneRenderer, within budget: Int, to output: String, started: Date) throws {
        let settings = renderer.scene.settings
        let width = Int(renderer.plan.sample(at: 0, scale: renderer.scale).size.width.rounded())
        let rungs = SizeBudget.ladder(
            target == .webp ? .webp : target == .mp4 ? .mp4 : .gif, quality: gif.quality, fps: settings.fps,
            width: width)
        var tries: [(rung: BudgetRung, bytes: Int, path: String)] = []
        defer { for t in tries { try? FileManager.default.removeItem(atPath: t.path) } }
        let progress = Progress(total: rungs.count, quiet: quiet)
        // A lossy WebP at quality 90 is far smaller than a lossless one: where most WebP
        // budgets land, and the rung to try after lossless.
        let guess = target == .webp ? rungs.firstIndex { $0.quality == 90 } : nil
        let chosen = try SizeBudget.search(count: rungs.count, guess: guess) { i in
            let rung = rungs[i]
            let trialRenderer =
                rung.fps == settings.fps && rung.width == width
                ? renderer : try SceneRenderer(sceneOptions.prepare(fps: rung.fps, width: rung.width))
            var options = gif
            options.quality = rung.quality
            if rung.lossy > 0 { (options.lossy, options.dither) = (rung.lossy, 0) }
            let path = AtomicOutput.siblingPath(of: output, tag: "try\(i)")
            let times = trialRenderer.times(speed: speed)
            let (written, _) = try encode(
                trialRenderer, times: times, indices: Array(times.indices), to: path, options: options
            ) { _, _ in }
            tries.append((rung, written.bytes, path))
            progress.step()
            return written.bytes <= budget
        }
        progress.done()
        let summary = tries.sorted { rungs.firstIndex(of: $0.rung)! < rungs.firstIndex(of: $1.rung)! }
            .map { t in
                "\(t.rung.brief)\(t.rung.fps == settings.fps ? "" : " \(t.rung.fps.plainText) fps")\(t.rung.width == width ? "" : " \(t.rung.width) px") \(byteString(t.bytes))"
            }
            .joined(separator: ", ")
        guard let chosen, let winner = tries.first(where: { $0.rung == rungs[chosen] }) else {
            throw CLIError(
                "--max-size \(byteString(budget)): no setting tried fits (\(summary)); a shorter storyboard, a higher --speed or a WebP"
            )
        }
        try OutputDestination(output).land(temporary: winner.path)
        report(
            "wrote \(output): \(byteString(winner.bytes)), within \(byteString(budget)), with \(winner.rung)\n"
                + "  \(tries.count) encode\(tries.count == 1 ? "" : "s") in "
                + String(format: "%.1f s", Date().timeIntervalSince(started)) + ": " + summary)
    }
}
