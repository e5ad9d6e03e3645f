import Codecs
import Comparison
import FileInput
import Foundation
import Geometry
import Raster
import Render
import Scenes
import Synchronization

/// A transition ready to render: a built-in scene or a scene file, with a config, `--set`
/// style assignments and settings applied, its images loaded and its plan built. Frames are
/// the same bytes `flipbook render` writes, for any thread count.
public struct Transition: Sendable {
    let renderer: SceneRenderer
    /// The export of the whole storyboard as loaded, for ``write(to:)``.
    let export: ExportRequest

    /// The built-in scenes' names.
    public static var builtIns: [String] { SceneCatalog.names }

    /// The scenes Flipbook ships: the built-ins, then the examples.
    public static var shippedScenes: [String] { SceneCatalog.allNames }

    /// Whether `scene` names a scene file (a path) rather than a shipped scene.
    public static func isSceneFile(_ scene: String) -> Bool { SceneCatalog.isFile(scene) }

    /// Copies `scene` (a shipped scene's name or a scene file's path) and every image it reads
    /// into `folder`, as `SceneFile.copy(to:)` does; returns the paths written, the scene file first.
    public static func copyScene(_ scene: String, to folder: String) throws -> [String] {
        try SceneCatalog.file(named: scene).copy(to: folder)
    }

    /// The folder Flipbook is installed in (a clone's root when run from one).
    public static var installFolder: String { SceneCatalog.installRoot }

    /// The folder of Flipbook's own assets: the built-in scenes and the studio's page.
    public static var assetsFolder: String { (SceneCatalog.installRoot as NSString).appendingPathComponent("Assets") }

    /// Loads `scene`: a built-in's name (`"expanding-cells"`) or a scene file's path. Every
    /// argument is optional and wins over the one before: the scene's defaults, then `config`
    /// (a YAML file), then `set` (`"present.duration=0.9"`), then the named settings.
    ///
    /// With `images`, snapshots decoded by an earlier load are used again while their files
    /// are unchanged (a transition rebuilt many times with other values).
    public init(
        _ scene: String, storyboard: String? = nil, config: String? = nil, set assignments: [String] = [],
        fps: Double? = nil, scale: Int? = nil, width: Int? = nil, images: ImageCache? = nil
    ) throws {
        let prepared = try SceneCatalog.prepare(
            scene, configFile: config, assignments: assignments,
            overrides: SceneOverrides(storyboard: storyboard, fps: fps, scale: scale, width: width))
        var export = ExportRequest(scene: scene)
        (export.storyboard, export.config, export.assignments) = (storyboard, config, assignments)
        (export.fps, export.scale, export.width) = (fps, scale, width)
        self.export = export
        renderer = try namingValueOrigin(config: config, assignments: assignments) {
            if let images {
                return try SceneRenderer(prepared) { image, budget in
                    try images.texture(at: image.path, maximumPixels: budget)
                }
            }
            return try SceneRenderer(prepared)
        }
    }

    /// The same transition with `assignments` (`"present.duration=0.9"`) made after its own.
    /// Where each names one of the scene's params, the scene is planned again over the values
    /// and images it has (a fit's trial, drawn the same); otherwise it is loaded again.
    public func setting(_ assignments: [String], images: ImageCache? = nil) throws -> Transition {
        var export = export
        export.assignments += assignments
        // A param's own key or one of its parts' (`present.duration`); an image or a path
        // is read again, as is a setting.
        let params = Set(renderer.scene.params.filter { ![.image, .path].contains($0.kind) }.map(\.key))
        func plannedAgain(_ assignment: String) -> Bool {
            let key = assignment.prefix { $0 != "=" }.split(separator: ".", omittingEmptySubsequences: false)
            return (1...max(1, key.count)).contains { params.contains(key.prefix($0).joined(separator: ".")) }
        }
        guard assignments.allSatisfy(plannedAgain) else {
            return try Transition(
                export.scene, storyboard: export.storyboard, config: export.config, set: export.assignments,
                fps: export.fps, scale: export.scale, width: export.width, images: images)
        }
        let renderer = try namingValueOrigin(config: export.config, assignments: export.assignments) {
            try self.renderer.setting(assignments)
        }
        return Transition(renderer: renderer, export: export)
    }

    private init(renderer: SceneRenderer, export: ExportRequest) {
        self.renderer = renderer
        self.export = export
    }

    /// Loads the built-in scene `name` (one of `builtIns`), with the arguments of
    /// `init(_:storyboard:config:set:fps:scale:width:images:)`.
    public init(
        builtIn name: String, storyboard: String? = nil, config: URL? = nil, set assignments: [String] = [],
        fps: Double? = nil, scale: Int? = nil, width: Int? = nil, images: ImageCache? = nil
    ) throws {
        guard Self.builtIns.contains(name) else {
            throw TransitionError(
                "\(name): not a built-in scene (the built-ins: \(Self.builtIns.joined(separator: ", ")))")
        }
        try self.init(
            name, storyboard: storyboard, config: try config.map(Self.filePath), set: assignments, fps: fps,
            scale: scale, width: width, images: images)
    }

    /// Loads the scene file at `url`, with the arguments of
    /// `init(_:storyboard:config:set:fps:scale:width:images:)`; its images are read beside it.
    public init(
        contentsOf url: URL, storyboard: String? = nil, config: URL? = nil, set assignments: [String] = [],
        fps: Double? = nil, scale: Int? = nil, width: Int? = nil, images: ImageCache? = nil
    ) throws {
        try self.init(
            try Self.filePath(url), storyboard: storyboard, config: try config.map(Self.filePath), set: assignments,
            fps: fps, scale: scale, width: width, images: images)
    }

    private static func filePath(_ url: URL) throws -> String {
        guard url.isFileURL else { throw TransitionError("\(url): not a file URL") }
        // An absolute path, so that a scene file named like a built-in is still read as a file.
        return url.standardizedFileURL.path
    }

    /// The scene's name.
    public var name: String { renderer.scene.name }
    /// The storyboard that plays.
    public var storyboard: String { renderer.scene.settings.storyboard }
    /// The storyboard's length in seconds.
    public var duration: Double { renderer.plan.duration }
    /// Output pixels per point (from the width, when one was asked for).
    public var scale: Double { renderer.scene.settings.pixelsPerPoint }
    /// When each frame starts, in seconds, at the scene's fps.
    public var frameTimes: [Double] { renderer.times() }

    /// The frame at `seconds`, as `frames(at:)` gives each.
    public func frame(at seconds: Double) -> Frame { Frame(time: seconds, bitmap: renderer.frame(at: seconds)) }

    /// The frames at `times` (every frame by default), rendered on every core.
    public func frames(at times: [Double]? = nil) throws -> [Frame] {
        let times = times ?? frameTimes
        var out: [Frame] = []
        out.reserveCapacity(times.count)
        _ = try renderer.render(times: times) { k, bitmap in out.append(Frame(time: times[k], bitmap: bitmap)) }
        return out
    }

    /// Renders the frames at `times` (every frame by default) on `threads` cores and hands
    /// each to `body` in order, on the calling thread, while later frames render; at most a
    /// few frames are held at once, whatever the count. A frame whose picture repeats the one
    /// before is the same bitmap again. An error thrown by `body` stops the render.
    public func forEachFrame(
        at times: [Double]? = nil, threads: Int = ProcessInfo.processInfo.activeProcessorCount,
        _ body: (Frame) throws -> Void
    ) throws {
        let times = times ?? frameTimes
        try renderer.render(times: times, threads: threads) { k, bitmap in
            try body(Frame(time: times[k], bitmap: bitmap))
        }
    }

    /// Writes the whole storyboard to `path` as `flipbook render -o` does: any format by its
    /// extension (GIF, WebP, APNG, MP4, or a folder of numbered PNG frames for a path ending in
    /// `/`, whose frames of an earlier write it replaces), through temporary files.
    public func write(to path: String) throws {
        var request = export
        request.output = path
        request.overwrite = path.hasSuffix("/")
        _ = try request.run()
    }
}

/// One rendered frame and when it starts, in seconds.
public struct Frame: Sendable {
    public var time: Double
    public var bitmap: Bitmap

    public init(time: Double, bitmap: Bitmap) {
        self.time = time
        self.bitmap = bitmap
    }

    /// The picture's width in pixels.
    public var width: Int { bitmap.width }
    /// The picture's height in pixels.
    public var height: Int { bitmap.height }
    /// The pixel at (`x`, `y`), premultiplied.
    public subscript(x: Int, y: Int) -> PremultipliedColor { bitmap[x, y] }
}

/// A request the library cannot carry out, saying why.
public struct TransitionError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}

extension Bitmap {
    /// Reads a PNG file (any colour type and depth libpng reads).
    public init(png path: String) throws { self = try PNGCodec.read(path: path) }

    /// Decodes PNG bytes (`name` says where they came from, for errors).
    public init(pngData bytes: [UInt8], name: String = "PNG data") throws {
        self = try PNGCodec.decode(bytes, source: name)
    }

    /// Writes the bitmap as a PNG, through a temporary file.
    public func writePNG(to path: String) throws { try PNGCodec.write(self, to: path) }

    /// The bitmap as PNG bytes; `fast` trades some size for speed (zlib's fast level).
    public func pngData(fast: Bool = false) throws -> [UInt8] { try PNGCodec.encode(self, fast: fast) }

    /// The bitmap drawn at another size (bilinear, as the renderer samples snapshots; mip
    /// levels past 2x down), over transparency; itself when the size is its own.
    public func resized(width: Int, height: Int) -> Bitmap {
        guard width != self.width || height != self.height else { return self }
        var out = Bitmap(width: max(1, width), height: max(1, height))
        let texture = Texture(
            self, shrunkAtMost: min(Double(self.width) / Double(width), Double(self.height) / Double(height)))
        out.withView {
            $0.draw(texture, from: texture.bounds, to: Rect(x: 0, y: 0, width: Double(width), height: Double(height)))
        }
        return out
    }
}

/// The pictures that explain a failed comparison: actual, expected, diff and the three side
/// by side, written as `STEM.actual.png`, `STEM.expected.png`, `STEM.diff.png` and
/// `STEM.sheet.png`.
public enum FailureArtifacts {
    /// Writes the four PNGs (making the folder); returns their paths.
    @discardableResult
    public static func write(actual: Bitmap, expected: Bitmap, tolerance: Tolerance, to stem: String) throws -> [String]
    {
        let folder = parentFolder(of: stem)
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw TransitionError(
                "\(folder): cannot make the folder (\((error as NSError).localizedFailureReason ?? "\(error)"))")
        }
        let diff = FrameComparison.diffImage(actual, expected, tolerance: tolerance)
        let pictures = [
            ("actual", actual), ("expected", expected), ("diff", diff),
            ("sheet", FrameComparison.sideBySide(actual, expected, diff: diff)),
        ]
        // Pictures to look at, not to keep: zlib's fast level, the four encoded at once.
        let paths = pictures.map { "\(stem).\($0.0).png" }
        let failures = Mutex<[Error]>([])
        DispatchQueue.concurrentPerform(iterations: pictures.count) { i in
            do {
                try PNGCodec.write(pictures[i].1, to: paths[i], fast: true)
            } catch {
                failures.withLock { $0.append(error) }
            }
        }
        if let failure = failures.withLock({ $0.first }) { throw failure }
        return paths
    }
}
