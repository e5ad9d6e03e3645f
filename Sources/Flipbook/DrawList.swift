import Foundation
import Geometry
import Planner
import Render
import Scenes

extension PreparedScene {
    /// The params its storyboard reads, known once its plan is built (which needs its images).
    public func paramsRead() throws -> Set<String> { try SceneRenderer(self).reads }

    /// The sampled draw list as JSON lines in points, one a draw command, at `time` or at
    /// every frame: t, layer, kind, image, file and source (snapshots) or color (fills), rect,
    /// scale, alpha, cornerRadius, clip.
    public func drawListJSONLines(at time: Double? = nil) throws -> String {
        let renderer = try SceneRenderer(self)
        let times = time.map { [$0] } ?? renderer.times()
        let files = Dictionary(
            renderer.scene.images.map { ($0.name, $0.path) }, uniquingKeysWith: { first, _ in first })
        var out = ""
        for t in times {
            for c in renderer.plan.sample(at: t, scale: 1).commands {
                out += Self.json(c, t: t, files: files) + "\n"
            }
        }
        return out
    }

    static func json(_ c: DrawCommand, t: Double, files: [String: String]) -> String {
        // JSON has no infinity or NaN: a value that is not a number is null.
        func n(_ v: Double) -> String { v.isFinite ? ((v * 1e6).rounded() / 1e6).plainText : "null" }
        func string(_ s: String) -> String {
            let data = try? JSONSerialization.data(withJSONObject: [s], options: [.withoutEscapingSlashes])
            let array = data.flatMap { String(data: $0, encoding: .utf8) } ?? "[\"\"]"
            return String(array.dropFirst().dropLast())
        }
        func rect(_ r: Rect) -> String { "[\(n(r.minX)),\(n(r.minY)),\(n(r.width)),\(n(r.height))]" }
        var fields = ["\"t\":\(n(t))", "\"layer\":\"\(c.layer)\""]
        switch c.kind {
        case .fill(let color): fields += ["\"kind\":\"fill\"", "\"color\":\"\(color)\""]
        case .snapshot(let image, let source):
            fields += [
                "\"kind\":\"snapshot\"", "\"image\":\"\(image)\"", "\"file\":\(string(files[image] ?? ""))",
                "\"source\":\(rect(source))",
            ]
        }
        fields += [
            "\"rect\":\(rect(c.rect))", "\"scale\":\(n(c.scale))", "\"alpha\":\(n(c.alpha))",
            "\"cornerRadius\":\(n(c.cornerRadius))",
        ]
        fields.append(
            "\"clip\":"
                + (c.clip.map { "{\"rect\":\(rect($0.rect)),\"cornerRadius\":\(n($0.cornerRadius))}" } ?? "null"))
        return "{" + fields.joined(separator: ",") + "}"
    }
}
