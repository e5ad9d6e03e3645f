import Dispatch
import Foundation
import Geometry
import Planner
import Raster
import Scenes
import Synchronization

/// What can go wrong rendering, with the file or value involved.
public enum RenderError: Error, CustomStringConvertible {
    /// An image that could not be loaded, the loader's reason, where the scene declares the
    /// param that names it (`file:line`), and the built-in the scene is a copy of, if any.
    case image(SceneImage, any Error, declaredAt: String, builtIn: String?)
    /// A render that would composite more pixels than a render may, as its draw lists tell.
    case tooMuchWork(DrawWork, budget: Double)

    /// The message, with what to do named in the request's terms (a value for a key, a lower
    /// frame rate); `message(flags:)` spells the same advice as the command line's flags.
    public var description: String { message(flags: false) }

    /// The message; with `flags`, its advice names `flipbook`'s flags and commands.
    public func message(flags: Bool) -> String {
        switch self {
        case .image(let image, let error, let place, let builtIn):
            var message = "\(place): \(image.key): \(error)"
            if !FileManager.default.fileExists(atPath: image.path) {
                message +=
                    flags
                    ? "; put the image there, or name another with --set \(image.key)=FILE or a config"
                    : "; put the image there, or give \(image.key) another file"
                // A copy of a built-in's scene file: the built-in writes it out with its images.
                if let builtIn {
                    message +=
                        flags
                        ? ", or write \(builtIn)'s file with its images: flipbook scene \(builtIn) --to FOLDER"
                        : ", or write \(builtIn)'s file out with its images"
                }
            }
            return message
        case .tooMuchWork(let work, let budget):
            let giga = Int((work.totalPixels / 1e9).rounded())
            return
                "\(work.frames) frames would composite about \(giga) gigapixels (\(Int(work.drawnPixels / 1e6)) megapixels of layers in each changing frame), past the budget of \(Int(budget / 1e9)); fewer, smaller or less overlapping layers, a shorter storyboard, or a lower "
                + (flags ? "--fps, --scale or --width" : "frame rate, scale or width")
        }
    }
}

/// A scene with its images loaded and its plan built: renders any frame on its own.
public struct SceneRenderer: Sendable {
    public private(set) var scene: PreparedScene
    public private(set) var plan: Plan
    /// The params the storyboard reads, by key path.
    public private(set) var reads: Set<String>
    /// The storyboard's top-level steps, labelled, with their spans.
    public private(set) var phases: [PhaseSpan]
    /// The images' pixel sizes, as the plan was made with them.
    public let imageSizes: ImageSizes
    let compositor: Compositor

    /// Loads the scene's images (each once, through `load`, which decodes them: rendering
    /// takes textures, which a cache may keep between loads) and plans it. `load` is given
    /// each image and the most pixels it may have.
    public init(_ scene: PreparedScene, load: (SceneImage, _ maximumPixels: Int) throws -> Texture) throws {
        var textures: [String: Texture] = [:]
        var sizes: ImageSizes = [:]
        // An image may be up to six times the canvas on each side (a @6x screenshot), and
        // never less than a few megapixels.
        let canvas = scene.settings.canvas
        let budget = max(4_000_000, Int(canvas.width * canvas.height * 36))
        for image in scene.images {
            let texture: Texture
            do {
                texture = try load(image, budget)
            } catch {
                let line = scene.params.first { $0.key == image.key }?.line
                throw RenderError.image(
                    image, error, declaredAt: scene.file + (line.map { ":\($0)" } ?? ""),
                    builtIn: SceneCatalog.allNames.contains(scene.name) ? scene.name : nil)
            }
            textures[image.name] = texture
            sizes[image.name] = Size(width: Double(texture.width), height: Double(texture.height))
        }
        self.scene = scene
        let planned = try scene.scenePlan(sizes: sizes)
        self.plan = planned.plan
        self.reads = planned.reads
        self.phases = planned.phases
        self.imageSizes = sizes
        self.compositor = Compositor(textures: textures, background: scene.settings.background)
    }

    public var scale: Double { scene.settings.pixelsPerPoint }

    /// The same scene and images planned again with `assignments` (`"present.duration=0.7"`,
    /// each naming one of its params) made over its values: a fit's trial, without reading
    /// the file or its images again.
    public func setting(_ assignments: [String]) throws -> SceneRenderer {
        var trial = self
        trial.scene = try scene.setting(assignments)
        let planned = try trial.scene.scenePlan(sizes: imageSizes)
        (trial.plan, trial.reads, trial.phases) = (planned.plan, planned.reads, planned.phases)
        return trial
    }

    /// The most pixels one render may composite, as its draw lists estimate them before it
    /// starts: dozens of times a long storyboard of the largest canvas at @3x, and a bound on
    /// how long any scene file can keep the machine busy.
    public static let maximumWork = 100e9

    /// The frame at `t` seconds of the plan.
    public func frame(at t: Double) -> Bitmap {
        compositor.render(plan.sample(at: t, scale: scale))
    }

    /// Frame start times at the scene's fps, with playback `speed` (2 plays twice as fast).
    public func times(fps: Double? = nil, speed: Double = 1) -> [Double] {
        frameTimes(fps: (fps ?? scene.settings.fps) / speed, duration: plan.duration)
    }

    /// Renders frames at `times` on `threads` cores and hands them to `sink` in order, on
    /// the calling thread, while later frames render: the sink (the encoder) and the raster
    /// overlap. At most `threads` frames render at once and `threads + 2` are held, whatever
    /// the count. Frames are independent, so the output is the same for any thread count.
    ///
    /// Draw lists are planned in order first; a frame whose list draws exactly what the one
    /// before drew (holds, and the still ends of springs) is not rasterized again: the sink
    /// gets the same pixels. The other frames go round the threads' lanes in turn, and a lane
    /// redraws only what changed since the last frame it drew (`Compositor.redraw(_:after:drawn:)`,
    /// the same pixels as a whole render).
    @discardableResult
    public func render(
        times: [Double], threads: Int = ProcessInfo.processInfo.activeProcessorCount,
        sink: (Int, Bitmap) throws -> Void
    ) throws -> RenderStats {
        // Estimated where the most the frames could draw is past the budget (a fit's thousands
        // of small renders are far below it).
        if plan.mostWork(frames: times.count, scale: scale) > Self.maximumWork {
            let work = plan.drawWork(times: times, scale: scale)
            guard work.totalPixels <= Self.maximumWork else {
                throw RenderError.tooMuchWork(work, budget: Self.maximumWork)
            }
        }
        if threads <= 1 { return try renderInOrder(times: times, sink: sink) }
        let width = max(1, threads)
        let slots = FrameSlots(count: times.count)
        let rendering = CountingGate(width)
        let held = CountingGate(width + 2)
        let producerDone = DispatchGroup()
        let lanes = (0..<width).map { RenderLane(label: "flipbook.render.\($0)") }
        let began = Date()
        // The producer blocks on the semaphores, so it gets a thread of its own.
        producerDone.enter()
        DispatchQueue.global(qos: .userInitiated).async { [plan, compositor, scale] in
            defer { producerDone.leave() }
            var previous: DrawList?
            var drawn = 0
            for (k, t) in times.enumerated() {
                held.wait()
                if slots.cancelled { break }
                let t0 = Date()
                let list = plan.sample(at: t, scale: scale)
                let planning = Date().timeIntervalSince(t0)
                if list.repeats(previous) {
                    slots.setRepeat(k, planning: planning)
                    continue
                }
                previous = list
                rendering.wait()
                if slots.cancelled {
                    rendering.signal()
                    break
                }
                let lane = lanes[drawn % width]
                drawn += 1
                lane.queue.async {
                    let t1 = Date()
                    let (bitmap, partial) = lane.render(list, with: compositor)
                    slots.set(k, bitmap, partial: partial, planning: planning, raster: Date().timeIntervalSince(t1))
                    rendering.signal()
                }
            }
        }
        var stats = RenderStats()
        defer {
            // On a sink error, stop the producer (it may be waiting for room) and wait for it,
            // so that nothing of this render runs after it returns.
            slots.cancel()
            held.open()
            rendering.open()
            producerDone.wait()
        }
        var last: Bitmap?
        for k in times.indices {
            let (drawn, partial, planning, raster) = slots.take(k)
            held.signal()
            let bitmap: Bitmap
            if let drawn {
                bitmap = drawn
                stats.rasterized += 1
                if partial { stats.redrawnInPart += 1 }
            } else {
                // Frame 0 always has a list of its own, so a repeat has a frame before it.
                bitmap = last!
            }
            last = bitmap
            stats.planning += planning
            stats.raster += raster
            stats.count(bitmap, isLast: k == times.count - 1, since: began)
            try sink(k, bitmap)
        }
        return stats
    }
}

extension SceneRenderer {
    /// `render(times:threads:sink:)` on one thread, the caller's: each frame planned, drawn as
    /// one lane draws it (a repeat not drawn again) and handed over before the next, with no
    /// thread to hand it between.
    func renderInOrder(times: [Double], sink: (Int, Bitmap) throws -> Void) throws -> RenderStats {
        let lane = RenderLane(label: "flipbook.render.0")
        var stats = RenderStats()
        let began = Date()
        var previous: DrawList?
        var last: Bitmap?
        for (k, t) in times.enumerated() {
            let t0 = Date()
            let list = plan.sample(at: t, scale: scale)
            stats.planning += Date().timeIntervalSince(t0)
            let bitmap: Bitmap
            if list.repeats(previous), let last {
                bitmap = last
            } else {
                previous = list
                let t1 = Date()
                let (drawn, partial) = lane.render(list, with: compositor)
                stats.raster += Date().timeIntervalSince(t1)
                stats.rasterized += 1
                if partial { stats.redrawnInPart += 1 }
                bitmap = drawn
            }
            last = bitmap
            stats.count(bitmap, isLast: k == times.count - 1, since: began)
            try sink(k, bitmap)
        }
        return stats
    }
}

extension DrawList {
    /// Whether it draws exactly what `previous` drew: a frame that need not be drawn again.
    fileprivate func repeats(_ previous: DrawList?) -> Bool {
        guard let previous else { return false }
        return previous.size == size && previous.commands == commands
    }
}

public struct RenderStats: Sendable {
    public var frames = 0
    /// Frames rasterized; the others repeat the frame before (the same draw list).
    public var rasterized = 0
    /// Rasterized frames painted only where they differ from the lane's last frame, the rest
    /// copied from it.
    public var redrawnInPart = 0
    public var pixels = 0
    /// Sampling the plan into draw lists.
    public var planning = 0.0
    /// Compositing draw lists into pixels.
    public var raster = 0.0
    /// Wall time of the parallel render batches (not the consumer's time).
    public var renderWall = 0.0

    /// One frame handed to the sink, counted; the wall time is taken at the last.
    mutating func count(_ bitmap: Bitmap, isLast: Bool, since began: Date) {
        frames += 1
        pixels += bitmap.width * bitmap.height
        if isLast { renderWall = Date().timeIntervalSince(began) }
    }
}

/// Frames handed from the render workers to the sink, each slot written once; `take` waits
/// for its frame. A repeated frame's slot holds no bitmap.
final class FrameSlots: Sendable {
    typealias Slot = (Bitmap?, Bool, Double, Double)
    private let slots: Mutex<(frames: [Slot?], stopped: Bool)>
    private let ready: [DispatchSemaphore]

    init(count: Int) {
        slots = Mutex((Array(repeating: nil, count: count), false))
        ready = (0..<count).map { _ in DispatchSemaphore(value: 0) }
    }

    var cancelled: Bool { slots.withLock { $0.stopped } }

    func cancel() { slots.withLock { $0.stopped = true } }

    func set(_ k: Int, _ bitmap: Bitmap, partial: Bool, planning: Double, raster: Double) {
        slots.withLock { $0.frames[k] = (bitmap, partial, planning, raster) }
        ready[k].signal()
    }

    /// Marks frame `k` as the same pixels as frame `k - 1`.
    func setRepeat(_ k: Int, planning: Double) {
        slots.withLock { $0.frames[k] = (nil, false, planning, 0) }
        ready[k].signal()
    }

    /// Waits for frame `k` and hands it over (the slot lets go of it); nil pixels repeat
    /// the frame before.
    func take(_ k: Int) -> Slot {
        ready[k].wait()
        return slots.withLock { state in
            defer { state.frames[k] = nil }
            return state.frames[k]!
        }
    }
}

/// One render thread's serial queue and the last frame it drew, which its next frame starts
/// from. Only its own queue touches `last`.
final class RenderLane: @unchecked Sendable {
    let queue: DispatchQueue
    private var last: (list: DrawList, frame: Bitmap)?

    init(label: String) {
        queue = DispatchQueue(label: label)
    }

    /// Renders `list` from the lane's last frame when their lists match; true when it did.
    func render(_ list: DrawList, with compositor: Compositor) -> (Bitmap, Bool) {
        var partial = false
        let frame: Bitmap
        if let last, let redrawn = compositor.redraw(list, after: last.list, drawn: last.frame) {
            frame = redrawn
            partial = true
        } else {
            frame = compositor.render(list)
        }
        last = (list, frame)
        return (frame, partial)
    }
}

/// A counting semaphore that can be opened for good: a cancelled render releases whoever
/// waits, whatever the count. (A dispatch semaphore traps when it is freed below its initial
/// count, which a render that stops early on an error can leave it at.) Its state is touched
/// only under `condition`, which `Mutex` cannot wait on.
final class CountingGate: @unchecked Sendable {
    private let condition = NSCondition()
    private var count: Int
    private var isOpen = false

    init(_ count: Int) {
        self.count = count
    }

    func wait() {
        condition.lock()
        while count == 0 && !isOpen { condition.wait() }
        if !isOpen { count -= 1 }
        condition.unlock()
    }

    func signal() {
        condition.lock()
        count += 1
        condition.signal()
        condition.unlock()
    }

    /// Lets every waiter through, now and from now on.
    func open() {
        condition.lock()
        isOpen = true
        condition.broadcast()
        condition.unlock()
    }
}
