import Codecs
import FileInput
import Foundation
import Scenes

extension SceneFile {
    /// Copies the scene file and every image it reads into `folder`, each image at the path
    /// the file names it by (beside it, or in a folder under it), and returns the paths
    /// written, the scene file first. Nothing is written when a file there already holds other
    /// bytes.
    public func copy(to folder: String) throws -> [String] {
        let home = parentFolder(of: path)
        var copies: [(from: String, to: String)] = [
            (path, (folder as NSString).appendingPathComponent("\(name).yaml"))
        ]
        for image in try prepare().images {
            let relative =
                image.path.hasPrefix(home + "/")
                ? String(image.path.dropFirst(home.count + 1)) : (image.path as NSString).lastPathComponent
            copies.append((image.path, (folder as NSString).appendingPathComponent(relative)))
        }
        return try write(copies, what: name)
    }
}

/// Copies each file into `folder` under its own name.
private func copyFiles(_ files: [String], into folder: String, what: String) throws -> [String] {
    try write(
        files.map { ($0, (folder as NSString).appendingPathComponent(($0 as NSString).lastPathComponent)) },
        what: what)
}

/// Writes each copy, all or none: a destination that exists with other bytes stops it before
/// anything is written.
private func write(_ copies: [(from: String, to: String)], what name: String) throws -> [String] {
    var contents: [[UInt8]] = []
    for copy in copies {
        let bytes = try readWholeFile(copy.from, maximumBytes: 512 << 20)
        if let existing = FileManager.default.contents(atPath: copy.to), [UInt8](existing) != bytes {
            throw TransitionError(
                "\(copy.to) exists and differs from \(name)'s; nothing was written (remove it, or choose another folder)"
            )
        }
        contents.append(bytes)
    }
    for (copy, bytes) in zip(copies, contents) {
        try FileManager.default.createDirectory(atPath: parentFolder(of: copy.to), withIntermediateDirectories: true)
        try AtomicOutput.write(bytes, to: copy.to)
    }
    return copies.map(\.to)
}

extension SceneCatalog.ExampleConfig {
    /// Copies the config and the images beside it into `folder` (made if missing), as
    /// `SceneFile.copy(to:)` copies a scene; returns the paths written, the config first.
    public func copy(to folder: String) throws -> [String] {
        let names = try FileManager.default.contentsOfDirectory(atPath: self.folder).sorted()
        let images = names.filter { $0.lowercased().hasSuffix(ExportFormat.pngExtension) }
        return try copyFiles(
            [path] + images.map { (self.folder as NSString).appendingPathComponent($0) }, into: folder,
            what: name)
    }
}
