import Flipbook
import Foundation

/// One file a manifest makes: an entry of `outputs` for one scene, storyboard and variant
/// value of each axis, with every key merged (`defaults`, then the entry, then the variants').
/// Paths are as the manifest spells them, from its folder.
public struct BuildOutput: Sendable, Hashable {
    /// A render option: the key and its value as the manifest spells them.
    public struct Option: Sendable, Hashable {
        public let key: String
        public let value: String
    }

    /// What the output is, told by its path.
    public enum Kind: Sendable, Hashable {
        /// One animated file, in the format its extension names.
        case animation(AnimationFormat)
        /// A PNG of one moment (`time`).
        case still
        /// A PNG contact sheet of the whole storyboard (`sheet: true`).
        case sheet

        /// Its name, as a build key holds it: the format's name, `still` or `sheet`.
        public var rawValue: String {
            switch self {
            case .animation(let format): format.name
            case .still: "still"
            case .sheet: "sheet"
            }
        }
    }

    /// The file, from the manifest's folder.
    public let path: String
    public let kind: Kind
    /// The entry's `name`, if it has one.
    public let name: String?
    /// The index of the entry in `outputs` that makes it, and its line.
    public let entry: Int
    public let line: Int?
    public let scene: String
    public let storyboard: String?
    public let config: String?
    /// Config values as `key.path=value`, sorted by key.
    public let assignments: [String]
    /// Render options, in the manifest format's order.
    public let options: [Option]
    /// The variant axes it was made for, each with its value, in the entry's order.
    public let variant: [Option]

    /// Its paths read from `folder`: the scene file, the config, the output, and `set` values
    /// of the params in `fileParams` (images and other files).
    public struct Resolved: Sendable {
        public let scene: String
        public let config: String?
        public let assignments: [String]
        public let file: String
    }

    /// Its paths read from `folder` (relative paths in a manifest are from its folder).
    public func resolved(folder: String, fileParams: Set<String> = []) -> Resolved {
        func from(_ path: String) -> String {
            path.hasPrefix("/") || folder.isEmpty || folder == "."
                ? path : (folder as NSString).appendingPathComponent(path)
        }
        let assignments = self.assignments.map { assignment in
            let eq = assignment.firstIndex(of: "=")!
            let key = String(assignment[..<eq]), value = String(assignment[assignment.index(after: eq)...])
            return fileParams.contains(key) && !value.isEmpty ? "\(key)=\(from(value))" : assignment
        }
        return Resolved(
            scene: isSceneFile ? from(scene) : scene, config: config.map(from), assignments: assignments,
            file: from(path))
    }

    /// The value of the render option `key`, if it is set.
    public func option(_ key: String) -> String? { options.first { $0.key == key }?.value }

    /// The export that makes it, its paths read from `folder`; an option value of the wrong
    /// kind is an error naming it.
    public func request(folder: String, fileParams: Set<String> = []) throws -> ExportRequest {
        let r = resolved(folder: folder, fileParams: fileParams)
        var request = ExportRequest(scene: r.scene)
        request.storyboard = storyboard
        request.config = r.config
        request.assignments = r.assignments
        for option in options {
            guard let key = ExportOption(rawValue: option.key) else {
                throw ExportError(.invalid, nil, value: option.key, "\(option.key): not an export option")
            }
            try request.set(key, to: option.value)
        }
        if kind == .sheet {
            request.sheet = r.file
        } else {
            request.output = r.file
        }
        return request
    }

    /// Where it comes from in the manifest, for messages: `outputs[2] (previews/x.gif)`.
    public var place: String { "outputs[\(entry)] (\(path))" }

    /// The command line that makes it, run from the manifest's folder.
    public var commandLine: String {
        (try? request(folder: "").commandLine) ?? "flipbook render \(ShellQuoting.quoted(scene)) …"
    }

    /// Whether `scene` names a scene file rather than a built-in.
    var isSceneFile: Bool { Transition.isSceneFile(scene) }

    /// The storyboard-independent name `{scene}` stands for: a built-in's name, or the scene
    /// file's name without its extension.
    static func sceneName(_ scene: String) -> String {
        guard Transition.isSceneFile(scene) else { return scene }
        return ((scene as NSString).lastPathComponent as NSString).deletingPathExtension
    }
}
