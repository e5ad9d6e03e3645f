import Scenes

/// What stops a fit before it runs, naming the key, the layer or the frame, and the part of
/// the request at fault (`FitError.Option`), which whoever shows the message spells: the CLI
/// as a flag (`--fit`), others as the request's field (`keys`).
public enum FitError: Error, Equatable, CustomStringConvertible {
    /// A part of a fit request, as a message names it.
    public enum Option: String, Sendable, CaseIterable {
        case fit, track, range, crop, output, sheet

        /// The `FitRequest` field it is.
        public var field: String {
            switch self {
            case .fit: "keys"
            case .range: "ranges"
            case .track, .crop, .output, .sheet: rawValue
            }
        }

        /// The command line's flag for it.
        public var flag: String { self == .output ? "-o" : "--\(rawValue)" }
    }

    case tooShort(frames: Int)
    /// A recording read again (for pictures) that ends before the frame its first read had.
    case changedWhileRead(frame: Int)
    /// A request run with no recording to read.
    case noRecording
    /// An output of the wrong kind: what it should be.
    case output(Option, path: String, expected: String)
    case noMotion
    case noKeys
    case unknownKey(String, known: [String])
    case notANumber(key: String, kind: String)
    /// A part of an animation its curve reads no number for (a typo, a spring's part of a
    /// Bézier, any part of a curve that keeps its own numbers): the parts it reads, and the
    /// nearest.
    case noSuchPart(key: String, animation: String, curve: String, parts: [String])
    case noRange(key: String)
    case noEffect(key: String)
    case unknownLayer(String, known: [String])
    case layerNeverOnScreen(String)
    case flatLayer(String)
    case cannotFollow(String, frame: Int)
    case crop(Crop, width: Int, height: Int)
    /// Frames of another shape than the canvas whose screen was not found for certain.
    case screenNotFound(ScreenNotFound)
    /// A frame of another size than the first: a recording is one screen.
    case frameSize(frame: Int, width: Int, height: Int, firstWidth: Int, firstHeight: Int)
    /// A range given for a key that is not fitted.
    case rangeForUnfittedKey(String, fitted: [String])
    /// Longer than a transition's recording can be: its frames or its seconds past the budget.
    case tooLong(frames: Int, seconds: Double)
    /// The search ended worse than it started, on the same instants.
    case worse(before: Double, after: Double, unit: String)
    /// Fewer than half the recording's instants of motion were compared.
    case tooFewCompared(compared: Int, motion: Int, layers: [String])
    /// The fitted render's changes correlate too little with the recording's.
    case unexplained(share: Double)

    /// The message with options named as the request's fields.
    public var description: String { message { $0.field } }

    /// The message with each option spelled by `spell`.
    public func message(_ spell: (Option) -> String) -> String {
        let fit = spell(.fit), track = spell(.track), range = spell(.range), crop = spell(.crop)
        switch self {
        case .tooShort(let n):
            return "the recording has \(n) frame\(n == 1 ? "" : "s"); a fit needs at least two"
        case .changedWhileRead(let frame):
            return
                "the recording ended before frame \(frame) when read again for the pictures, where its first read had it: it changed on disk while it was measured; measure it again"
        case .noRecording:
            return "no recording to fit: give the request a recording's path"
        case .output(let option, let path, let expected):
            return "\(spell(option)) \(path): \(expected)"
        case .noMotion:
            return "nothing moves in the recording (every frame is the same as the one before); a fit needs motion"
        case .noKeys:
            return "\(fit): name at least one param to fit"
        case .unknownKey(let key, let known):
            return "\(fit) \(key): the scene declares no such param; its params: \(known.joined(separator: ", "))"
        case .notANumber(let key, let kind):
            return "\(fit) \(key): it is \(kind), not a number to fit"
        case .noSuchPart(let key, let animation, let curve, let parts):
            // The animation itself, or a part of it that it has no number for.
            let part = String(key.dropFirst(animation.count + 1))
            let hint = Suggestion.closest(to: part, in: parts).map { "did you mean \(animation).\($0)? " } ?? ""
            let kind = curve == "spring" ? "is UIKit's spring" : "runs the curve \(curve), not UIKit's spring"
            guard !parts.isEmpty else {
                return
                    "\(fit) \(key): \(animation) \(kind), and that curve reads none of its numbers (\(AnimationPart.allCases.map(\.name).joined(separator: ", "))); set \(animation).curve to one that does (spring, or a named curve such as easeIn) to fit them"
            }
            return "\(fit) \(key): \(animation) \(kind); \(key == animation ? "fit" : hint + "its numbers to fit:") "
                + parts.map { "\(animation).\($0)" }.joined(separator: ", ")
        case .noRange(let key):
            return "\(fit) \(key): the scene declares no range for it; give one with \(range) \(key)=LOW,HIGH"
        case .noEffect(let key):
            return
                "\(fit) \(key): changing it changes nothing in this storyboard (a param it does not read)"
        case .unknownLayer(let layer, let known):
            return "\(track) \(layer): no such layer; layers: \(known.joined(separator: ", "))"
        case .layerNeverOnScreen(let layer):
            return
                "\(track) \(layer): the plan never holds the layer still and wholly on screen for a tenth of a second, where its look would be taken from the recording"
        case .flatLayer(let layer):
            return
                "\(track) \(layer): the layer is one flat colour; tracking needs texture (track a layer with content, or fit the whole frame)"
        case .cannotFollow(let layer, let frame):
            return
                "\(track) \(layer): the layer cannot be followed in the recording's frame \(frame), nor in half its frames (check \(crop), or fit the whole frame)"
        case .frameSize(let frame, let w, let h, let fw, let fh):
            return
                "frame \(frame) is \(w)x\(h) where the first is \(fw)x\(fh): a recording's frames are one screen, one size (is a frame of another file in it?)"
        case .rangeForUnfittedKey(let key, let fitted):
            return "\(range) \(key): not a key being fitted (\(fit) \(fitted.joined(separator: ",")))"
        case .tooLong(let frames, let seconds):
            return String(
                format:
                    "%d frames over %.1f s: past what fit reads (%d frames, %.0f s); a transition's recording lasts seconds, so trim it to the motion",
                frames, seconds, Fitter.maximumFrames, Fitter.maximumSeconds)
        case .worse(let before, let after, let unit):
            return String(
                format:
                    "the fit ended worse than it started (residual %.2f → %.2f %@ on the same instants), so it is no answer; narrow the ranges (%@) or start nearer",
                before, after, unit, range)
        case .tooFewCompared(let compared, let motion, let layers):
            let what =
                layers.isEmpty
                ? "the recording's \(motion) instants of motion"
                : "the \(motion) instants at which \(layers.joined(separator: ", ")) \(layers.count == 1 ? "moves" : "move") on screen"
            return
                "the fit compared \(compared) of \(what), fewer than half, so it is no answer: \(track) a layer that is on screen, uncovered and followed through its motion, check \(crop), or fit the whole frame"
        case .unexplained(let share):
            return String(
                format:
                    "the best fit's changes match the recording's by %.0f%% (their correlation over the instants it moves), under the %.0f%% that makes a fit an answer: is it a recording of this storyboard? Check the storyboard, %@, and the recording's start",
                share * 100, Fitter.minimumExplained * 100, crop)
        case .crop(let c, let w, let h):
            return "\(crop) \(c.x),\(c.y),\(c.width),\(c.height): outside the recording's \(w)x\(h) frames"
        case .screenNotFound(let problem):
            return problem.message(option: crop)
        }
    }
}
