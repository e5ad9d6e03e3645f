import Foundation

import Flipbook

/// What stops a scene being made from a recording, naming the value or the seconds at fault.
public enum SceneMakingError: Error, Equatable, CustomStringConvertible {
    case frameInterval(Double)
    case pointWidth(Double)
    case sideBySide(String)
    /// A change that ends on the screen it started from where the recording shows no other.
    case returns(seconds: ClosedRange<Double>, region: ChangedRegion?)
    /// A change no stock move explains (`returns`: one that comes back, by none let go short).
    case unexplained(seconds: ClosedRange<Double>, region: ChangedRegion?, returns: Bool = false)
    /// A change whose best move's render stays far from the recording (levels RMS).
    case unlike(
        seconds: ClosedRange<Double>, region: ChangedRegion?, rms: Double, offset: Double? = nil, returns: Bool = false)
    /// A screenshot not of the screen's shape.
    case screenshotShape(option: String, path: String, size: (Int, Int), screen: (Int, Int))
    /// A last screenshot of the screen the first one shows (a recording that ends where it began).
    case sameScreen(String)

    /// Where on the screen a change moves, for a message: " (over x 0-375, y 64-667 pt)".
    private static func place(_ region: ChangedRegion?) -> String { region.map { " (over \($0))" } ?? "" }

    /// The moves tried, for a message: every one, or those a finger lets go short.
    private static func moves(returns: Bool) -> String {
        returns
            ? ScreenChange.returning.map(\.rawValue).joined(separator: ", ") + " let go short"
            : ScreenChange.moving.map(\.rawValue).joined(separator: ", ")
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
        case .returns(let s, let region):
            String(
                format:
                    "the recording moves at %.2f-%.2f s%@ and comes back to the screen it left, and shows no other screen for a move let go short to uncover; a made scene holds only changes from one screen to another (cut the recording there)",
                s.lowerBound, s.upperBound, Self.place(region))
        case .unexplained(let s, let region, let returns):
            String(
                format:
                    "the recording's change at %.2f-%.2f s%@ is none of %@ by any of UIKit's curves; nothing was written",
                s.lowerBound, s.upperBound, Self.place(region), Self.moves(returns: returns))
        case .unlike(let s, let region, let rms, let offset, let returns):
            String(
                format:
                    "the recording's change at %.2f-%.2f s%@ is %.2f levels RMS from the made scene's best move (at most %.0f)%@: none of %@ by any of UIKit's curves reproduces it; nothing was written",
                s.lowerBound, s.upperBound, Self.place(region), rms, SceneMaker.mostUnlike,
                offset.map {
                    String(
                        format:
                            ", and draws the screen it slides %.2f px RMS from where the recording shows it (at most %.0f)",
                        $0, SceneMaker.mostOffset)
                } ?? "", Self.moves(returns: returns))
        case .screenshotShape(let option, let path, let size, let screen):
            "\(option) \(path): \(size.0)x\(size.1) is not the shape of the recording's screen (\(screen.0)x\(screen.1)); a screenshot of that screen, at any scale"
        case .sameScreen(let path):
            "--last \(path): the recording ends on the screen it starts on, which --first shows; leave one out"
        }
    }
}
