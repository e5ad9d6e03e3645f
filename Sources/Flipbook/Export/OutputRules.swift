import Codecs
import FileInput
import Foundation

/// The one rule every command's outputs follow, checked before any work: an output is none of
/// the inputs (by resolved path), and no other output; an output folder holds no input, no
/// output lies in an input folder; and each can be written where it is (a device or a pipe is
/// written through, a link to nothing refused: `OutputDestination`). Outputs that
/// contradict the inputs are an invalid request; a folder that is missing or read-only is a
/// fact about the machine, a failure.
public struct OutputRules {
    /// Something a command writes: a file, or a folder of files, and the option that names it.
    public struct Output {
        public var option: ExportText
        public var key: ExportOption?
        public var path: String
        public var isFolder = false

        public init(option: ExportText, key: ExportOption? = nil, path: String, isFolder: Bool = false) {
            (self.option, self.key, self.path, self.isFolder) = (option, key, path, isFolder)
        }

        /// An export's output, named by its option.
        init(_ key: ExportOption, path: String, isFolder: Bool = false) {
            self.init(option: "\(key)", key: key, path: path, isFolder: isFolder)
        }
    }

    /// Something a command reads, and what it is for the messages.
    public struct Input {
        public var what: ExportText
        public var path: String

        public init(what: ExportText, path: String) { (self.what, self.path) = (what, path) }
    }

    public var outputs: [Output]
    public var inputs: [Input]

    public init(outputs: [Output], inputs: [Input]) { (self.outputs, self.inputs) = (outputs, inputs) }

    /// `path` made absolute, with `..` and the links of its existing part resolved.
    static func resolved(_ path: String) -> String { canonicalPath(path) }

    private static func isInside(_ path: String, _ folder: String) -> Bool {
        path.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
    }

    private static func isDirectory(_ path: String) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &directory) && directory.boolValue
    }

    public func check() throws {
        let outs = outputs.map { ($0, Self.resolved($0.path)) }
        let ins = inputs.map { ($0, Self.resolved($0.path)) }
        for (i, (a, pa)) in outs.enumerated() {
            for (b, pb) in outs[(i + 1)...] where pa == pb {
                throw ExportError.invalid(
                    a.key, value: a.path,
                    "\(a.option) \(a.path) and \(b.option) \(b.path) are the same file; each output needs its own")
            }
            for (input, path) in ins {
                if pa == path {
                    throw ExportError.invalid(
                        a.key, value: a.path,
                        "\(a.option) \(a.path) is an input (\(input.what)); an output never replaces an input")
                }
                if a.isFolder && Self.isInside(path, pa) {
                    throw ExportError.invalid(
                        a.key, value: a.path,
                        "\(a.option) \(a.path) holds an input (\(input.what): \(input.path)); choose another folder")
                }
                // An output inside an input folder would add a file to what is read (a sheet
                // beside a recording's frames becomes a frame of the next run).
                if Self.isDirectory(path) && Self.isInside(pa, path) {
                    throw ExportError.invalid(
                        a.key, value: a.path,
                        "\(a.option) \(a.path) is inside an input folder (\(input.what)); choose another place")
                }
            }
            if a.isFolder {
                if FileManager.default.fileExists(atPath: pa) && !Self.isDirectory(pa) {
                    throw ExportError.failed(a.key, value: a.path, "\(a.option) \(a.path) is a file, not a folder")
                }
                continue
            }
            if Self.isDirectory(pa) {
                throw ExportError.failed(
                    a.key, value: a.path, "\(a.option) \(a.path) is a folder; expected a file name")
            }
            // A device, FIFO or pipe is written through, and a link to nothing is refused, now.
            let destination: OutputDestination
            do {
                destination = try OutputDestination(a.path)
            } catch {
                throw ExportError.failed(a.key, value: a.path, "\(a.option) \(error)")
            }
            if destination.isStream { continue }
            let parent = parentFolder(of: pa)
            guard Self.isDirectory(parent) else {
                throw ExportError.failed(
                    a.key, value: a.path, "\(a.option) \(a.path): the folder \(parent) does not exist")
            }
            guard access(parent, W_OK) == 0 else {
                throw ExportError.failed(
                    a.key, value: a.path, "\(a.option) \(a.path): the folder \(parent) is not writable")
            }
        }
    }
}

/// A folder of numbered frames (`frame0000.png`): what a render leaves there, and what it must
/// not mix with.
enum FrameFolder {
    /// The entries of `folder` named as numbered frames, and whether each is a regular file.
    static func frames(in folder: String) -> [(name: String, isFile: Bool)] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { name in
            name.hasPrefix("frame") && name.hasSuffix(".png") && !name.dropFirst(5).dropLast(4).isEmpty
                && name.dropFirst(5).dropLast(4).allSatisfy(\.isNumber)
        }.sorted().map { name in
            var info = stat()
            let isFile =
                lstat((folder as NSString).appendingPathComponent(name), &info) == 0 && info.st_mode & S_IFMT == S_IFREG
            return (name, isFile)
        }
    }

    /// Makes `folder` ready for a new render: it is made if missing; frames of an earlier
    /// render are an error unless `overwrite`, which removes them first. Returns the folders it
    /// made, deepest first, registered for an interrupt to remove until `AtomicOutput.releaseFolders`.
    static func prepare(_ folder: String, overwrite: Bool) throws -> [String] {
        var made: [String] = []
        var missing = folder
        while !missing.isEmpty && missing != "/" && !FileManager.default.fileExists(atPath: missing) {
            made.append(missing)
            missing = parentFolder(of: missing)
        }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw ExportError.failed(
                .output, value: folder,
                "\(.output) \(folder): cannot make the folder (\((error as NSError).localizedFailureReason ?? "\(error)"))"
            )
        }
        AtomicOutput.trackFolders(made)
        let old = frames(in: folder)
        guard !old.isEmpty else { return made }
        // Only a render's own kind of file is ever replaced or removed: a folder or a link
        // named like a frame is the user's.
        if let other = old.first(where: { !$0.isFile }) {
            throw ExportError.failed(
                .output, value: folder,
                "\(.output) \(folder) holds \(other.name), which is not a PNG file (a folder or a link); move it out, a render writes its frames under that name"
            )
        }
        guard overwrite else {
            throw ExportError.failed(
                .output, value: folder,
                "\(.output) \(folder) holds \(old.count) frames of an earlier render (\(old[0].name) …); \(.overwrite) removes them first, so that renders never mix"
            )
        }
        for frame in old { unlink((folder as NSString).appendingPathComponent(frame.name)) }
        return made
    }
}
