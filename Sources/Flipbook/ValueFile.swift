import Codecs
import Foundation
import Scenes

/// The file a transition's param values are saved into: the scene file itself (each param's
/// default), or a config over it. Saving changes only the saved values' text (`ValueEdit`),
/// so comments, key order, quoting and indentation stay, and a diff shows one line a value.
public struct ValueFile: Sendable {
    /// The file that saving writes.
    public let path: String
    /// Whether that is a config over the scene (`--config`), not the scene file.
    public let isConfig: Bool
    private let scene: String

    /// The file values of `scene` (a built-in's name or a scene file's path) are saved into:
    /// `config` when given (it need not exist yet), else the scene file.
    public init(scene: String, config: String? = nil) throws {
        try SceneCatalog.check(scene: scene)
        self.scene = scene
        isConfig = config != nil
        path = config ?? (SceneCatalog.isFile(scene) ? scene : SceneCatalog.path(of: scene))
    }

    /// The file's text with `values` (`--set` style: `present.duration` → `0.9`) written in.
    public func text(saving values: [String: String]) throws -> String {
        if isConfig {
            let current = FileManager.default.fileExists(atPath: path) ? try ConfigDocument.text(of: path) : ""
            return try text(saving: values, over: current)
        }
        return try text(saving: values, over: try SceneCatalog.file(named: scene).text)
    }

    /// `base` (this file's text, or a config's: "" for a new one) with `values` written in,
    /// each key checked against the scene's params: what a save and `flipbook fit -o` write.
    public func text(saving values: [String: String], over base: String) throws -> String {
        let file = try SceneCatalog.file(named: scene)
        let changes = try values.sorted { $0.key < $1.key }.map { key, value in
            ValueEdit.Change(path: try yamlPath(of: key, in: file), value: value)
        }
        return try ValueEdit.apply(changes, to: base, file: path)
    }

    /// The file no longer reads as the caller last read it: a change made on disk since.
    public struct ChangedOnDisk: Error, CustomStringConvertible {
        public let path: String
        public var description: String { "\(path) changed on disk since it was read; nothing was written" }
    }

    /// Writes `values` into the file, through a temporary file renamed into place (a link's
    /// target, its mode kept); returns whether its text changed. Nothing is written when
    /// nothing would change.
    @discardableResult
    public func save(_ values: [String: String]) throws -> Bool {
        try save(values, check: nil)
    }

    /// `save(_:)`, only while the file still reads `base` (nil: while it does not exist), so
    /// that a change made on disk since it was read is never written over.
    @discardableResult
    public func save(_ values: [String: String], ifStill base: String?) throws -> Bool {
        try save(values, check: .some(base))
    }

    /// The file's text on disk now; nil while it does not exist.
    public func currentText() throws -> String? {
        FileManager.default.fileExists(atPath: path) ? try ConfigDocument.text(of: path) : nil
    }

    private func save(_ values: [String: String], check base: String??) throws -> Bool {
        let current = try currentText()
        if let base, base != current { throw ChangedOnDisk(path: path) }
        let updated = try text(saving: values)
        guard updated != current else { return false }
        if !isConfig { _ = try SceneFile(text: updated, path: path) }
        try AtomicOutput.write(Array(updated.utf8), to: path)
        return true
    }

    /// Where `key` is written: a param's default (`params.timing.listHold.seconds`) or an
    /// animation's part (`params.present.animation.duration`) in a scene file; the key path
    /// itself in a config.
    private func yamlPath(of key: String, in file: SceneFile) throws -> [String] {
        let parts = key.split(separator: ".").map(String.init)
        if let p = file.params.first(where: { $0.key == key }) {
            return isConfig ? parts : ["params"] + parts + [p.kind.rawValue]
        }
        let parent = parts.dropLast().joined(separator: ".")
        if let p = file.params.first(where: { $0.key == parent }), p.kind == .animation,
            AnimationPart(named: parts.last!) != nil || parts.last! == AnimationPart.curve
        {
            return isConfig ? parts : ["params"] + parts.dropLast() + ["animation", parts.last!]
        }
        throw TransitionError("\(key): \(file.name) declares no such param")
    }
}
