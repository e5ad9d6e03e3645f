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

    /// Renders frames at `times` on `threads` cores and hands them to `sink` in order, as
    /// they are ready; at most `threads` frames are held at once, whatever the count. Frames
    /// are independent, so the output is the same for any thread count.
    @discardableResult
    public func render(times: [Double], threads: Int = ProcessInfo.processInfo.activeProcessorCount,
                       sink: (Int, Bitmap) throws -> Void) throws -> RenderStats {
        let batch = max(1, threads)
        var stats = RenderStats()
        var start = 0
        while start < times.count {
            let end = min(times.count, start + batch)
            let frames = FrameSlots(count: end - start)
            let first = start
            let began = Date()
            DispatchQueue.concurrentPerform(iterations: end - start) { k in
                let t0 = Date()
                let list = plan.sample(at: times[first + k], scale: scale)
                let t1 = Date()
                let bitmap = compositor.render(list)
                frames.set(k, bitmap, planning: t1.timeIntervalSince(t0), raster: Date().timeIntervalSince(t1))
            }
            stats.renderWall += Date().timeIntervalSince(began)
            for k in 0..<(end - start) {
                let (bitmap, planning, raster) = frames.take(k)
                stats.planning += planning
                stats.raster += raster
                stats.frames += 1
                stats.pixels += bitmap.width * bitmap.height
                try sink(start + k, bitmap)
            }
            start = end
        }
        return stats
    }
}

/// Where rendering time went, in seconds (planning and raster summed over threads).
public struct RenderStats: Sendable {
    public var frames = 0
    public var pixels = 0
    /// Sampling the plan into draw lists.
    public var planning = 0.0
    /// Compositing draw lists into pixels.
    public var raster = 0.0
    /// Wall time of the parallel render batches (not the consumer's time).
    public var renderWall = 0.0
}

/// Slots that worker threads fill, each written by exactly one worker.
final class FrameSlots: @unchecked Sendable {
    private var slots: [(Bitmap, Double, Double)?]
    private let lock = NSLock()

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func set(_ k: Int, _ bitmap: Bitmap, planning: Double, raster: Double) {
        lock.lock()
        slots[k] = (bitmap, planning, raster)
        lock.unlock()
    }

    func take(_ k: Int) -> (Bitmap, Double, Double) {
        lock.lock()
        defer { lock.unlock() }
        return slots[k]!
    }
}
