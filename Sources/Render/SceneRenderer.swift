import Codecs
import Dispatch
import Foundation
import Geometry
import Planner
import Raster
import Scenes

/// What can go wrong rendering, with the file or value involved.
public enum RenderError: Error, CustomStringConvertible {
    case image(SceneImage, CodecError)
    case frames(String)

    public var description: String {
        switch self {
        case .image(let image, let error): return "\(image.key): \(error)"
        case .frames(let message): return message
        }
    }
}

/// A scene with its images loaded and its plan built: renders any frame on its own.
public struct SceneRenderer: Sendable {
    public let scene: PreparedScene
    public let plan: Plan
    public let compositor: Compositor

    /// Loads the scene's images (each once) and plans it.
    public init(_ scene: PreparedScene) throws {
        var textures: [String: Texture] = [:]
        var sizes: ImageSizes = [:]
        for image in scene.images {
            do {
                let bitmap = try PNGCodec.read(path: image.path)
                textures[image.name] = Texture(bitmap)
                sizes[image.name] = Size(width: Double(bitmap.width), height: Double(bitmap.height))
            } catch let error as CodecError {
                throw RenderError.image(image, error)
            }
        }
        self.scene = scene
        self.plan = try scene.plan(sizes: sizes)
        self.compositor = Compositor(textures: textures, background: scene.settings.background)
    }

    public var scale: Double { Double(scene.settings.scale) }

    /// The frame at `t` seconds of the plan.
    public func frame(at t: Double) -> Bitmap {
        compositor.render(plan.sample(at: t, scale: scale))
    }

    /// Frame start times at the scene's fps, with playback `speed` (2 plays twice as fast).
    public func times(fps: Double? = nil, speed: Double = 1) -> [Double] {
        frameTimes(fps: (fps ?? scene.settings.fps) / speed, duration: plan.duration)
    }

    /// Renders frames at `times` on every core and hands them to `sink` in order, as they
    /// are ready; at most a few frames are held at once, whatever the count.
    public func render(times: [Double], threads: Int = ProcessInfo.processInfo.activeProcessorCount,
                       sink: (Int, Bitmap) throws -> Void) throws {
        let batch = max(1, threads)
        var start = 0
        while start < times.count {
            let end = min(times.count, start + batch)
            let frames = FrameSlots(count: end - start)
            let first = start
            DispatchQueue.concurrentPerform(iterations: end - start) { k in
                frames.set(k, frame(at: times[first + k]))
            }
            for k in 0..<(end - start) { try sink(start + k, frames.take(k)) }
            start = end
        }
    }
}

/// Slots that worker threads fill, each written by exactly one worker.
final class FrameSlots: @unchecked Sendable {
    private var slots: [Bitmap?]
    private let lock = NSLock()

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func set(_ k: Int, _ bitmap: Bitmap) {
        lock.lock()
        slots[k] = bitmap
        lock.unlock()
    }

    func take(_ k: Int) -> Bitmap {
        lock.lock()
        defer { lock.unlock() }
        return slots[k]!
    }
}
