import Foundation

import Flipbook

/// What stops a scene being made from a recording, naming the value or the seconds at fault.
public enum SceneMakingError: Error, Equatable, CustomStringConvertible {
    case frameInterval(Double)
    case pointWidth(Double)
    case sideBySide(String)
    /// A change no stock move explains (`letGoShort`: one that comes back, by none of those
    /// moves let go short).
    case unexplained(seconds: ClosedRange<Double>, region: ChangedRegion?, letGoShort: [ScreenChange]? = nil)
    /// A change whose best move's render stays far from the recording (levels RMS).
    case unlike(
        seconds: ClosedRange<Double>, region: ChangedRegion?, rms: Double, offset: (part: String, rms: Double)? = nil,
        letGoShort: [ScreenChange]? = nil)
    /// A screenshot not of the screen's shape.
    case screenshotShape(option: String, path: String, size: (Int, Int), screen: (Int, Int))
    /// A last screenshot of the screen the first one shows (a recording that ends where it began).
    case sameScreen(String)

    /// Where on the screen a change moves, for a message: " (over x 0-375, y 64-667 pt)".
    private static func place(_ region: ChangedRegion?) -> String { region.map { " (over \($0))" } ?? "" }

    /// The moves tried, for a message: every one, or those a finger let go short.
    private static func moves(_ letGoShort: [ScreenChange]?) -> String {
        letGoShort.map { $0.map(\.rawValue).joined(separator: ", ") + " let go short" }
            ?? ScreenChange.moving.map(\.rawValue).joined(separator: ", ")
    }

    public static func == (a: SceneMakingError, b: SceneMakingError) -> Bool { a.description == b.description }

    public var description: String {
        switch self {
        case .frameInterval(let v):
            "--frame-interval \(v.plainText): expected seconds in \(FitRequest.frameIntervals.lowerBound.plainText)...\(FitRequest.frameIntervals.upperBound.plainText)"
        case .pointWidth(let v):
            "--points \(v.plainText): expected a screen width in points, \(SceneMakingRequest.pointWidths.lowerBound.plainText)...\(SceneMakingRequest.pointWidths.upperBound.plainText)"
        case .sideBySide(let path):
            "--side-by-side \(path): a \(AnimationFormat.sentence(AnimationFormat.all.map { $0.extensions[0] }))"
        case .unexplained(let s, let region, let letGoShort):
            String(
                format:
                    "the recording's change at %.2f-%.2f s%@ is none of %@ by any of UIKit's curves; nothing was written",
                s.lowerBound, s.upperBound, Self.place(region), Self.moves(letGoShort))
        case .unlike(let s, let region, let rms, let offset, let letGoShort):
            String(
                format:
                    "the recording's change at %.2f-%.2f s%@ is %.2f levels RMS from the made scene's best move (at most %.0f)%@: none of %@ by any of UIKit's curves reproduces it; nothing was written",
                s.lowerBound, s.upperBound, Self.place(region), rms, SceneMaker.mostUnlike,
                offset.map {
                    String(
                        format:
                            ", and draws %@ %.2f px RMS from where the recording shows it (at most %.0f)",
                        $0.part, $0.rms, SceneMaker.mostOffset)
                } ?? "", Self.moves(letGoShort))
        case .screenshotShape(let option, let path, let size, let screen):
            "\(option) \(path): \(size.0)x\(size.1) is not the shape of the recording's screen (\(screen.0)x\(screen.1)); a screenshot of that screen, at any scale"
        case .sameScreen(let path):
            "--last \(path): the recording ends on the screen it starts on, which --first shows; leave one out"
        }
    }
}
