import Flipbook
import Foundation

/// The studio's page: plain HTML, CSS and JavaScript modules from Flipbook's assets
/// (`Assets/studio`), read once at start and served from memory by this fixed list of names (a
/// request's path never reaches the file system). No build step, nothing fetched from elsewhere.
struct StudioPage: Sendable {
    enum Part: String, CaseIterable {
        case html = "index.html"
        case style = "studio.css"
        /// The page's modules: the entry (which connects the rest), its one state object, the
        /// server's API, the actions that talk to it, playback, comparison, the params list,
        /// the curve editor, the edits' undo history, the keyboard, named snapshots, the layout
        /// (the panel's width, the theme) and the timeline. Imports point down only
        /// (`StudioPageModuleTests`).
        case main = "studio.js"
        case state = "state.js"
        case api = "api.js"
        case network = "network.js"
        case player = "player.js"
        case compare = "compare.js"
        case params = "params.js"
        case curves = "curves.js"
        case history = "history.js"
        case keys = "keys.js"
        case snapshots = "snapshots.js"
        case layout = "layout.js"
        case timeline = "timeline.js"

        var contentType: String {
            switch self {
            case .html: return "text/html; charset=utf-8"
            case .style: return "text/css; charset=utf-8"
            default: return "text/javascript; charset=utf-8"
            }
        }
    }

    private let parts: [String: [UInt8]]

    static func load(from folder: String = (Transition.assetsFolder as NSString).appendingPathComponent("studio"))
        throws -> StudioPage
    {
        var parts: [String: [UInt8]] = [:]
        for part in Part.allCases {
            let path = (folder as NSString).appendingPathComponent(part.rawValue)
            guard let data = FileManager.default.contents(atPath: path) else {
                throw StudioError("\(path): the studio's page is missing (set FLIPBOOK_ROOT to Flipbook's folder)")
            }
            parts[part.rawValue] = Array(data)
        }
        return StudioPage(parts: parts)
    }

    func response(_ part: Part) -> HTTPResponse {
        HTTPResponse(
            status: 200,
            headers: [
                "Content-Type": part.contentType, "Cache-Control": "no-store",
                "Content-Security-Policy":
                    "default-src 'self'; img-src 'self' blob: data:; style-src 'self'; script-src 'self'; connect-src 'self'",
                "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer",
            ], body: parts[part.rawValue] ?? [])
    }
}
