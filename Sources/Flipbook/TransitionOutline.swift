import Codecs
import FileInput
import Foundation
import Geometry
import Planner
import Scenes

/// What a transition is made of and how much rendering it takes, found without decoding a
/// single image: the files whose bytes make its frames, its length and its frame size. Loading
/// a `Transition` decodes every snapshot; an outline reads only their PNG headers, so a tool
/// that weighs many renders (`flipbook build`) can look at all of them at once.
public struct TransitionOutline: Sendable {
    /// The scene file: the given path, or a built-in's file.
    public let sceneFile: String
    /// The config file, if one was given.
    public let configFile: String?
    /// The image files it reads, by the param that names each, in the scene's order.
    public let imageFiles: [(key: String, path: String)]
    /// The storyboard that plays.
    public let storyboard: String
    /// Its length in seconds.
    public let duration: Double
    /// The frames per second it renders at.
    public let fps: Double
    /// The size of its frames in pixels.
    public let pixelSize: (width: Int, height: Int)
    /// How many pixels its images hold in all: what loading it decodes.
    public let imagePixels: Int
    /// The share of frames that differ from the frame before (a hold repeats one), and the
    /// pixels drawn into such a frame on average (every draw's area on the canvas, overdraw
    /// counted): what rendering it composites. Estimated from up to 60 evenly spaced frames.
    public let motion: (changing: Double, drawnPixels: Double)

    /// Outlines `scene` with the same arguments `Transition(_:storyboard:config:set:fps:scale:width:)`
    /// takes; the errors are the ones that load would throw before decoding an image.
    public init(
        _ scene: String, storyboard: String? = nil, config: String? = nil, set assignments: [String] = [],
        fps: Double? = nil, scale: Int? = nil, width: Int? = nil
    ) throws {
        try self.init(
            scene, file: try SceneCatalog.file(named: scene), storyboard: storyboard, config: config,
            set: assignments, fps: fps, scale: scale, width: width)
    }

    init(
        _ scene: String, file: SceneFile, storyboard: String?, config: String?, set assignments: [String],
        fps: Double?, scale: Int?, width: Int?, knownSizes: [String: (width: Int, height: Int)] = [:]
    ) throws {
        let prepared = try file.prepare(
            configFile: config, assignments: assignments,
            overrides: SceneOverrides(storyboard: storyboard, fps: fps, scale: scale, width: width))
        var sizes: ImageSizes = [:]
        var imagePixels = 0
        for image in prepared.images {
            do {
                let size = try knownSizes[canonicalPath(image.path)] ?? PNGCodec.size(path: image.path)
                sizes[image.name] = Size(width: Double(size.width), height: Double(size.height))
                imagePixels += size.width * size.height
            } catch {
                throw TransitionError("\(image.key): \(error)")
            }
        }
        let plan = try prepared.plan(sizes: sizes)
        let settings = prepared.settings
        let work = plan.drawWork(
            times: frameTimes(fps: settings.fps, duration: plan.duration), scale: settings.pixelsPerPoint)
        motion = (work.changing, work.drawnPixels)
        sceneFile = SceneCatalog.isFile(scene) ? scene : SceneCatalog.path(of: scene)
        configFile = config
        imageFiles = prepared.images.map { ($0.key, $0.path) }
        self.storyboard = settings.storyboard
        self.imagePixels = imagePixels
        duration = plan.duration
        self.fps = settings.fps
        pixelSize = (
            Int((settings.canvas.width * settings.pixelsPerPoint).rounded()),
            Int((settings.canvas.height * settings.pixelsPerPoint).rounded())
        )
    }

    /// The keys of the params of `scene` (a built-in's name or a scene file) that name files:
    /// its images and other paths, whose relative values a caller may need to resolve.
    public static func fileParams(of scene: String) throws -> Set<String> {
        fileParams(of: try SceneCatalog.file(named: scene))
    }

    static func fileParams(of file: SceneFile) -> Set<String> {
        Set(file.params.filter { $0.kind == .image || $0.kind == .path }.map(\.key))
    }

    /// How many frames a render at `speed` makes (2 plays twice as fast, in half the frames).
    public func frameCount(speed: Double = 1) -> Int { frameTimes(fps: fps / speed, duration: duration).count }
}

/// Outlines many transitions, reading and checking each scene file once however many outlines
/// share it: what a tool weighing a whole manifest of renders needs.
public final class TransitionOutliner: @unchecked Sendable {
    private var files: [String: SceneFile] = [:]
    private let lock = NSLock()

    public init() {}

    /// `TransitionOutline(scene, …)`, with the scene file read once; an image whose resolved
    /// path (`canonicalPath`) is in `knownSizes` is taken at that size, unread (one not made yet).
    public func outline(
        _ scene: String, storyboard: String? = nil, config: String? = nil, set assignments: [String] = [],
        fps: Double? = nil, scale: Int? = nil, width: Int? = nil,
        knownSizes: [String: (width: Int, height: Int)] = [:]
    ) throws -> TransitionOutline {
        try TransitionOutline(
            scene, file: try file(scene), storyboard: storyboard, config: config, set: assignments, fps: fps,
            scale: scale, width: width, knownSizes: knownSizes)
    }

    /// The files `scene` with these values reads: its scene file, the config and every image,
    /// found without reading an image.
    public func inputs(_ scene: String, config: String? = nil, set assignments: [String] = []) throws -> [String] {
        let prepared = try file(scene).prepare(
            configFile: config, assignments: assignments, overrides: SceneOverrides())
        return [SceneCatalog.isFile(scene) ? scene : SceneCatalog.path(of: scene)] + [config].compactMap { $0 }
            + prepared.images.map(\.path)
    }

    /// `TransitionOutline.fileParams(of: scene)`, with the scene file read once.
    public func fileParams(of scene: String) throws -> Set<String> { TransitionOutline.fileParams(of: try file(scene)) }

    private func file(_ scene: String) throws -> SceneFile {
        if let known = lock.withLock({ files[scene] }) { return known }
        let file = try SceneCatalog.file(named: scene)
        lock.withLock { files[scene] = file }
        return file
    }
}
