import Foundation

/// What a folder of reference frames was taken of, stored beside them as `references.json`:
/// the scene, the storyboard and its length, the moments, the frame size and the scale. A
/// timing change moves the length or the moments, so it is told apart from a first recording.
struct ReferenceRecord: Codable, Equatable {
    static let fileName = "references.json"

    var scene: String?
    var storyboard: String?
    /// The storyboard's length in seconds.
    var length: Double?
    /// The moments compared, in seconds, as the PNGs' names give them.
    var moments: [Double]
    /// Frame width and height in pixels.
    var size: [Int]
    /// Output pixels per point.
    var scale: Double?

    init(scene: String? = nil, storyboard: String? = nil, length: Double? = nil, frames: [Frame], scale: Double? = nil)
    {
        self.scene = scene
        self.storyboard = storyboard
        self.length = length.map { ($0 * 1e6).rounded() / 1e6 }
        moments = frames.map { ($0.time * 1000).rounded() / 1000 }
        size = frames.first.map { [$0.bitmap.width, $0.bitmap.height] } ?? []
        self.scale = scale
    }

    /// The record in `folder`, if there is one.
    static func read(in folder: String) throws -> ReferenceRecord? {
        let path = folder + "/" + fileName
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        do {
            return try JSONDecoder().decode(ReferenceRecord.self, from: data)
        } catch {
            throw ReferenceError(
                description: "\(path): not a reference record (\(error)); re-record with FLIPBOOK_RECORD=all")
        }
    }

    /// Writes the record into `folder`, replacing the one there at once.
    func write(in folder: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try (encoder.encode(self) + Data("\n".utf8)).write(
            to: URL(fileURLWithPath: folder + "/" + Self.fileName), options: .atomic)
    }

    /// What differs from `old`, said as "now, was" phrases; empty when nothing does.
    func changes(since old: ReferenceRecord) -> [String] {
        func s(_ t: Double) -> String { String(format: "%.3f s", t) }
        func list(_ ts: [Double]) -> String {
            ts.count > 10
                ? ts.prefix(10).map { String(format: "%.3f", $0) }.joined(separator: ", ") + "… (\(ts.count)) s"
                : ts.map { String(format: "%.3f", $0) }.joined(separator: ", ") + " s"
        }
        var out: [String] = []
        if scene != old.scene { out.append("the scene is \(scene ?? "none"), was \(old.scene ?? "none")") }
        if storyboard != old.storyboard {
            out.append("the storyboard is \(storyboard ?? "none"), was \(old.storyboard ?? "none")")
        }
        if let length, let was = old.length, abs(length - was) > 1e-6 {
            out.append("the storyboard is \(s(length)) long, was \(s(was))")
        }
        if moments != old.moments { out.append("the moments are \(list(moments)), were \(list(old.moments))") }
        if size != old.size {
            out.append(
                "frames are \(size.map(String.init).joined(separator: " × ")) px, were \(old.size.map(String.init).joined(separator: " × "))"
            )
        }
        if scale != old.scale, let scale, let was = old.scale {
            out.append("the scale is \(plain(scale)), was \(plain(was))")
        }
        return out
    }

    private func plain(_ x: Double) -> String { x == x.rounded() ? String(Int(x)) : String(x) }

    /// The PNG name of the reference at `time`.
    static func pngName(_ time: Double) -> String { String(format: "t%.3f.png", time) }
}

/// A reference folder that cannot be read as one.
struct ReferenceError: Error, CustomStringConvertible {
    var description: String
}
