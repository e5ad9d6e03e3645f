import Foundation
import Geometry
import Synchronization

import struct Flipbook.Bitmap
import struct Flipbook.FrameSequence
import class Flipbook.ImageCache
import struct Flipbook.Transition
import struct Planner.Plan

/// Makes a scene from a recording: its still stretches become screens, each change between
/// them the stock move (`ScreenChange`) and UIKit curve that fit's own search says explains it
/// best, timed as the recording shows it.
enum SceneMaker {
    /// The width thumbnails are compared at to find stillness and change.
    static let outlineWidth = 80
    /// The width a change's frames are kept at for its fit: past the fit's working width.
    static let windowWidth = 320
    /// Seconds of stillness each change's fit sees before it and after it (a spring's tail).
    static let lead = 0.2
    static let tail = 0.4
    /// The most bytes the first pass keeps of frames for the fits, for windows and for screens
    /// each (`PassFrames`): past it, frames are read again.
    static let keptBudget = 256 << 20

    /// The height a change's frames are kept at, for frames `width` x `height` pixels of a
    /// screen `points` wide: the canvas's at the window's width.
    static func windowHeight(width: Int, height: Int, points: Double) -> Int {
        let canvasHeight = (Double(height) / (Double(width) / points)).rounded()
        return Int((Double(windowWidth) * canvasHeight / points).rounded())
    }
    /// The least share of a change's frame-to-frame differences a move must explain.
    static let leastExplained = 0.5
    /// The most a change's render may differ from the recording (RMS over its frames of the mean
    /// difference per frame, levels of 255, at the outline's width): far past a codec's noise
    /// and a palette's, well short of a move that is not the recording's.
    static let mostUnlike = 6.0

    /// The farthest a sliding screen (or a scrolling band's pages) may be drawn from where the
    /// recording shows it, in the recording's pixels, RMS over its change's frames
    /// (`MadeSceneCheck.Offset`).
    static let mostOffset = 4.0

    /// The most of a band pulled's residual a move over another screen may keep and be taken
    /// in its place (`make`).
    static let bandMargin = 0.95

    /// A screen as frames are compared: box-filtered to twice the outline's width (which is
    /// the fit's), so that a render at that width averages each two by two exactly and shows
    /// about the greys a recording's frame of it has there. (Drawn from a size that is no power
    /// of two of it, the rasterizer's bilinear samples miss much of a screen of text.)
    static func compared(_ screen: Bitmap) -> Bitmap {
        let height = max(1, Int((Double(outlineWidth) * Double(screen.height) / Double(screen.width)).rounded()))
        return screen.boxFiltered(width: 2 * outlineWidth, height: 2 * height)
    }

    /// What a recording made: the scene's text, its screens' images, and each change.
    struct Made {
        var text: MadeSceneText
        /// The screens as the recording shows them, and the screenshots given for some (by
        /// index), which the written scene shows instead.
        var images: [Bitmap]
        var screenshots: [(screen: Int, image: Bitmap)]
        var outline: RecordingOutline
        /// The part of each frame that is the screen, and whether it was found (no crop given).
        var crop: Crop
        var foundScreen: Crop?
        /// Each change fitted, by what it was fitted on: made again (split elsewhere), it is
        /// made as found.
        var fitted: [FittedChange: MadeChange] = [:]
    }

    /// The scene `request` makes of `source`'s recording, its changes starting at the frames of
    /// `splits` too (`RecordingOutline`'s), each change fitted as `known` found it where it
    /// knows it.
    static func make(
        _ request: SceneMakingRequest, source: RecordingSource, progress: @escaping @Sendable (String) -> Void,
        splits: Set<Int> = [], known: [FittedChange: MadeChange] = [:]
    ) throws -> Made {
        // First pass: a thumbnail of each frame's screen, to find the still stretches; and,
        // where no crop is given, the first and last frames, whose flat border (if any) is
        // around the screen (read again with it).
        var crop = request.crop
        var frameSize: (Int, Int)?
        var ends: (first: Bitmap?, last: Bitmap?)
        // The frames the fits will want are kept as the pass reads them (`PassFrames`).
        var passFrames: PassFrames?
        func outlinePass() throws -> RecordingPass<LumaImage> {
            passFrames = nil
            let pass = try RecordingPass(source.open(), frameInterval: request.frameInterval) {
                bitmap, index, start, _ -> LumaImage in
                if let crop, !crop.fits(width: bitmap.width, height: bitmap.height) {
                    throw FitError.crop(crop, width: bitmap.width, height: bitmap.height)
                }
                if crop == nil { (ends.first, ends.last) = (ends.first ?? bitmap, bitmap) }
                let c = crop ?? Crop(x: 0, y: 0, width: bitmap.width, height: bitmap.height)
                frameSize = (c.width, c.height)
                let height = max(1, Int((Double(outlineWidth) * Double(c.height) / Double(c.width)).rounded()))
                let picture = LumaImage(bitmap, crop: c, width: outlineWidth, height: height)
                if passFrames == nil {
                    let points = request.pointWidth ?? Self.pointWidth(pixels: c.width)
                    passFrames = PassFrames(
                        rect: PixelRect(x: c.x, y: c.y, width: c.width, height: c.height),
                        small: (windowWidth, Self.windowHeight(width: c.width, height: c.height, points: points)),
                        lead: lead, tail: tail, budget: keptBudget)
                }
                passFrames?.tell(bitmap, index: index, start: start, picture: picture)
                return picture
            }
            passFrames?.finish()
            return pass
        }
        var pass = try outlinePass()
        var foundScreen: Crop?
        if crop == nil, let first = ends.first, let last = ends.last,
            let screen = ScreenBorder.screen(first: first, last: last)
        {
            foundScreen = screen
            crop = screen
            ends = (nil, nil)
            passFrames = nil
            progress("found the screen at \(screen.x),\(screen.y),\(screen.width),\(screen.height) (--crop gives it)")
            pass = try outlinePass()
        }
        pass.suspectedRate.map(source.suspected)
        crop = crop ?? Crop(x: 0, y: 0, width: pass.width, height: pass.height)
        guard let crop, let (pixelWidth, pixelHeight) = frameSize else { throw FitError.tooShort(frames: 0) }
        let pointWidth = request.pointWidth ?? Self.pointWidth(pixels: pixelWidth)
        let scale = Double(pixelWidth) / pointWidth
        let canvas = (width: pointWidth, height: (Double(pixelHeight) / scale).rounded())
        // Each frame at its capture's time: a GIF's frames start on whole centiseconds, up to
        // half of one from when they were drawn, when a sliding screen moves a few points.
        let outline = RecordingOutline(
            pictures: pass.kept, starts: CaptureRate.captureTimes(starts: pass.starts), duration: pass.duration,
            splits: splits)
        guard !outline.changes.isEmpty else { throw FitError.noMotion }
        // A change back to the screen it left is a finger's move let go short: over a screen the
        // recording shows elsewhere, or a band pulled and let go, whose page is its farthest
        // frame, shown as a screen of its own where it is taken.
        let pulled = Dictionary(
            uniqueKeysWithValues: outline.changes.indices.filter(outline.returns).map { ($0, outline.farthest(of: $0)) }
        )
        let shown = outline.screens + pulled.keys.sorted().map { pulled[$0]! }
        // Screenshots are checked before any fit; the fits compare the recording's own cuts.
        let screenshots = try request.screenshots.map { end, path in
            (outline.screen(at: end), try request.screenshot(end, path, outline: outline, crop: crop))
        }

        // The screens at full size, and each change's frames at the window width: as the first
        // pass kept them, and what it did not keep from a second.
        let windows = outline.changes.indices.map { outline.window(of: $0, lead: lead, tail: tail) }
        let windowHeight = Self.windowHeight(width: pixelWidth, height: pixelHeight, points: pointWidth)
        var screens = [Bitmap?](repeating: nil, count: shown.count)
        var fromPass = [Int: Bitmap]()
        for i in Set(shown + windows.flatMap { Array($0) }) {
            if let s = shown.firstIndex(of: i) { screens[s] = passFrames?.screen(i) }
            if windows.contains(where: { $0.contains(i) }) { fromPass[i] = passFrames?.smallFrame(i) }
        }
        passFrames = nil
        let wanted = Set(
            shown.indices.filter { screens[$0] == nil }.map { shown[$0] }
                + windows.flatMap { Array($0) }.filter { fromPass[$0] == nil }
        ).sorted()
        let rereader = try wanted.isEmpty ? nil : RecordingRereader(source.open())
        let small = Mutex(fromPass)
        // A window's frame is cut and made small on another core while the next is read, two
        // at most at once: memory holds a few frames whatever the recording's length.
        let slots = DispatchSemaphore(value: 2)
        let resizing = DispatchGroup()
        defer { resizing.wait() }
        let rect = PixelRect(x: crop.x, y: crop.y, width: crop.width, height: crop.height)
        for i in wanted {
            guard let frame = try rereader?.frame(i) else { break }
            if let s = shown.firstIndex(of: i), screens[s] == nil { screens[s] = frame.cropped(to: rect) }
            guard windows.contains(where: { $0.contains(i) }), small.withLock({ $0[i] == nil }) else { continue }
            slots.wait()
            DispatchQueue.global().async(group: resizing) {
                let resized = frame.cropped(to: rect).resized(width: windowWidth, height: windowHeight)
                small.withLock { $0[i] = resized }
                slots.signal()
            }
        }
        resizing.wait()
        let windowFrames = small.withLock { frames in windows.map { $0.map { frames[$0]! } } }
        let images = screens.map { $0! }

        // Each change fitted on its own window: a scene of its two screens only.
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // Made small as a window's frames are, for renders at the fit's width.
        for (s, image) in images.enumerated() {
            try compared(image.resized(width: windowWidth, height: windowHeight))
                .writePNG(to: folder.path + "/" + MadeSceneText.imageFile(s + 1))
        }
        let fps = Self.fps(interval: outline.interval)
        // Each change's status bar: the strip at the top none of its frames moves.
        let statusBars = outline.changes.indices.map { k in
            outline.changes[k].isCut ? nil : StatusBar.height(in: windowFrames[k], canvasWidth: canvas.width)
        }
        let screenTops =
            statusBars.compactMap { $0 }.max().map { height in
                images.map { StatusBar.color(of: $0, height: height, canvasWidth: canvas.width) }
            } ?? []
        /// The scene of `changes`, showing the screens of `shown` at `kept` (all, where nil),
        /// each step showing first in the frame of `starts` (in its seconds) its time does.
        @Sendable func text(_ changes: [MadeChange], length: Double, kept: [Int]? = nil, starts: [Double])
            -> MadeSceneText
        {
            let kept = kept ?? Array(shown.indices)
            var text = MadeSceneText(
                name: request.name, summary: "made from \((request.recording as NSString).lastPathComponent)",
                canvas: canvas, scale: scale, fps: fps,
                screens: kept.enumerated().map { (MadeSceneText.imageFile($0 + 1), outline.starts[shown[$1]]) },
                changes: changes, length: length, header: [],
                screenTops: screenTops.isEmpty ? [] : kept.map { screenTops[$0] })
            text.edges = FrameEdges(starts: starts)
            return text
        }
        // A screen that is the one before the change that led to it pulled down under a bar: a
        // row that closes from it closes from the one before the pull.
        let pulls = outline.changes.indices.map { k -> (screen: Int, gap: Double)? in
            guard k > 0, !outline.changes[k].isCut, !outline.changes[k - 1].isCut else { return nil }
            let (before, from) = (outline.stills[k - 1].screen, outline.stills[k].screen)
            guard before != from else { return nil }
            let luma = { LumaImage(images[$0], width: windowWidth, height: windowHeight) }
            return PulledScreen.gap(pulled: luma(from), screen: luma(before)).map {
                (before + 1, (Double($0) * canvas.width / Double(windowWidth)).rounded())
            }
        }
        let imageCache = ImageCache()
        /// Change `k` as made at once where it is a cut, else its fit on its own window; one that
        /// comes back to the screen it left, over the screen its moves drawn over it look likest,
        /// or a band pulled over its farthest frame (`pulled`).
        @Sendable func fitting(_ k: Int) throws -> CutOrFit {
            let change = outline.changes[k]
            let from = outline.stills[k].screen + 1, to = outline.stills[k + 1].screen + 1
            if let farthest = pulled[k] {
                var band = changeFit(k, to: shown.firstIndex(of: farthest)! + 1)
                (band.returns, band.farthest) = (true, farthest - windows[k].lowerBound)
                let fits = outline.screens.indices.map { $0 + 1 }.filter { $0 != from }.map {
                    var fit = changeFit(k, to: $0)
                    fit.returns = true
                    return fit
                }
                guard !fits.isEmpty else { return .fit(band) }
                let likeness = try fits.map { fit in
                    try fit.drawnDifferences(ScreenChange.returning).map { $0.sharp.values.min() ?? .infinity }
                        ?? .infinity
                }
                return .either(fits[likeness.indices.min { likeness[$0] < likeness[$1] }!], band)
            }
            let seconds = outline.seconds(of: change)
            if change.isCut {
                // Made a quarter frame before the frame that shows it, less the time the screen
                // takes to show a change.
                return .made(
                    MadeChange(
                        kind: .cut, from: from, to: to,
                        start: max(0, outline.starts[change.after] - outline.interval / 4 - Plan.presentationLatency),
                        curve: .system, seconds: seconds))
            }
            // One fitted before, on the same frames between the same screens, is as it was found.
            if var found = known[fitted(k)] {
                (found.from, found.to) = (from, to)
                found.pull = found.pull.flatMap { _ in pulls[k] }
                return .made(found)
            }
            return .fit(changeFit(k, to: to))
        }
        /// What change `k`'s fit between its own two screens is fitted on.
        @Sendable func fitted(_ k: Int) -> FittedChange {
            let screens = [outline.stills[k].screen, outline.stills[k + 1].screen]
            return FittedChange(
                change: outline.changes[k], window: windows[k], screens: screens.map { shown[$0] },
                tops: screenTops.isEmpty || statusBars[k] == nil ? [] : screens.map { screenTops[$0] },
                statusBar: statusBars[k],
                pulled: pulls[k].map { (shown[$0.screen - 1], $0.gap) },
                next: k + 1 < outline.changes.count ? outline.changes[k + 1].before : nil)
        }
        /// Change `k` fitted on its own window, to screen `to` (from 1).
        @Sendable func changeFit(_ k: Int, to: Int) -> ChangeFit {
            let change = outline.changes[k]
            let from = outline.stills[k].screen + 1, seconds = outline.seconds(of: change)
            let window = windows[k]
            let origin = outline.starts[window.lowerBound]
            let end =
                window.upperBound + 1 < outline.starts.count ? outline.starts[window.upperBound + 1] : outline.duration
            let recording = FrameSequence(
                frames: zip(window, windowFrames[k]).map {
                    .init(start: outline.starts[$0] - origin, bitmap: $1, label: "frame \($0)")
                },
                duration: end - origin)
            // The storyboard holds until a frame's time before the first frame that moves (a
            // GIF's held frame lasts the whole hold), then moves.
            let hold = outline.starts[change.before + 1] - origin - outline.interval / 2
            var fit = ChangeFit(
                base: text([], length: end - origin, starts: recording.frames.map(\.start)), recording: recording,
                hold: hold,
                origin: origin, frame: Crop(x: 0, y: 0, width: windowWidth, height: windowHeight), from: from,
                to: to, seconds: seconds, statusBar: statusBars[k], folder: folder.path + "/change-\(k)",
                images: imageCache)
            fit.pulled = pulls[k]
            // The next change starts where its storyboard holds until, as this one does (`hold`).
            if k + 1 < outline.changes.count {
                fit.next = outline.starts[outline.changes[k + 1].before + 1] - outline.interval / 2
            }
            return fit
        }
        let fits = try outline.changes.indices.map(fitting)
        for fit in fits.compactMap(\.fit) {
            progress(
                String(format: "fitting the change at %.2f-%.2f s", fit.seconds.lowerBound, fit.seconds.upperBound))
        }
        // The bands pulled are fitted beside the rest, sharing the cores; of a change fitted
        // both ways, the one of the lower residual is taken.
        let bands = fits.indices.filter { if case .either = fits[$0] { true } else { false } }
        let found = try ChangeFit.fitted(
            fits.map(\.fit)
                + bands.map { k -> ChangeFit? in
                    if case .either(_, let band) = fits[k] { band } else { nil }
                })
        // The changes fitted, here or before, between two of the recording's screens.
        let fittedChanges = Dictionary(
            outline.changes.indices.compactMap { k -> (FittedChange, MadeChange)? in
                switch fits[k] {
                case .fit: found[k].map { (fitted(k), $0) }
                case .made(let change) where change.kind != .cut: (fitted(k), change)
                default: nil
                }
            }
        ) { first, _ in first }
        var made: [MadeChange] = []
        for k in outline.changes.indices {
            if case .made(let change) = fits[k] {
                made.append(change)
                continue
            }
            let band = bands.firstIndex(of: k).flatMap { found[fits.count + $0] }
            // A move over another screen is taken over a band pulled only where it comes clearly
            // nearer: the band shows the recording's own page where the other draws a screen
            // the recording does not show there.
            let over = found[k].flatMap { other in
                band.map { (other.residual ?? .infinity) < Self.bandMargin * ($0.residual ?? .infinity) } ?? true
                    ? other : nil
            }
            guard let change = over ?? band else {
                let refusal = SceneMakingError.unexplained(
                    seconds: outline.seconds(of: outline.changes[k]),
                    region: outline.region(of: outline.changes[k], width: canvas.width),
                    letGoShort: fits[k].letGoShort)
                // A change whose motion, nearly stopped, jumps may be two moves: made again,
                // split there; where that explains no more, this is the answer.
                let jumps = outline.jumps(in: k)
                guard splits.isEmpty, !jumps.isEmpty else { throw refusal }
                progress(Self.splitting(k, at: jumps, outline: outline))
                // The other changes' fits are taken as found.
                do {
                    return try make(request, source: source, progress: progress, splits: jumps, known: fittedChanges)
                } catch {
                    throw refusal
                }
            }
            made.append(change)
        }
        // The screens shown: the recording's, and the pulled bands' pages taken, numbered on.
        let pages = made.filter { $0.returns && ScreenChange.pulledOver.contains($0.kind) }.map { $0.to - 1 }
        let kept = Array(outline.screens.indices) + pages
        for k in made.indices where made[k].returns && ScreenChange.pulledOver.contains(made[k].kind) {
            made[k].to = kept.firstIndex(of: made[k].to - 1)! + 1
        }
        var scene = text(made, length: outline.duration, kept: kept, starts: outline.starts)
        scene.header = [
            "\(request.name): made by `flipbook scene --from` from \((request.recording as NSString).lastPathComponent)",
            String(
                format: "(%d frames, %.3f s): %d screens, %d changes. Each change's curve was fitted to the recording;",
                outline.starts.count, outline.duration, kept.count, made.count),
            "change any value here, or in `flipbook studio`, and render it with `flipbook render`.",
        ]
        return Made(
            text: scene, images: kept.map { images[$0] }, screenshots: screenshots, outline: outline, crop: crop,
            foundScreen: foundScreen, fitted: fittedChanges)
    }

    /// What the progress says as change `k` is made again split at `jumps`.
    static func splitting(_ k: Int, at jumps: Set<Int>, outline: RecordingOutline) -> String {
        let seconds = outline.seconds(of: outline.changes[k])
        let at = jumps.sorted().map { String(format: "%.2f", outline.starts[$0 + 1]) }.joined(separator: ", ")
        return String(
            format: "the change at %.2f-%.2f s: making it again as moves split at ", seconds.lowerBound,
            seconds.upperBound)
            + at + " s, where its motion jumps"
    }

    /// A change made without a fit (a cut), or its fit.
    enum CutOrFit {
        case made(MadeChange)
        case fit(ChangeFit)
        /// A change that comes back, fitted over another screen and as a band pulled.
        case either(ChangeFit, ChangeFit)

        /// Its fit, where it has one: over another screen, where it has two.
        var fit: ChangeFit? {
            switch self {
            case .made: nil
            case .fit(let fit), .either(let fit, _): fit
            }
        }

        /// The moves let go short it was fitted with, where it comes back.
        var letGoShort: [ScreenChange]? {
            switch self {
            case .made: nil
            case .fit(let fit): fit.returns ? fit.moves : nil
            case .either(let over, let band): over.moves + band.moves
            }
        }
    }

    /// The screen's width in points for frames `pixels` wide: an iPhone's at 1x, 2x or 3x (a
    /// pixel either way: a found screen's edge), else the nearest whole scale to a 375-point
    /// screen.
    static func pointWidth(pixels: Int) -> Double {
        let widths = [320.0, 375, 390, 393, 402, 414, 428, 430, 440]
        for scale in [1.0, 2, 3] {
            if let w = widths.first(where: { abs($0 * scale - Double(pixels)) <= 1 }) { return w }
        }
        return Double(pixels) / max(1, (Double(pixels) / 375).rounded())
    }

    /// The frames per second a made scene renders at: the recording's, to the nearest whole.
    static func fps(interval: Double) -> Double { min(120, max(1, (1 / interval).rounded())) }
}

extension RecordingOutline {
    /// The seconds between frames as they were captured.
    var interval: Double { Self.interval(of: starts) }

    /// The step frames starting at `starts` were captured at (`CaptureRate.step`): a GIF keeps a
    /// still screen as one frame, so in a short one its median step may be a still's.
    static func interval(of starts: [Double]) -> Double {
        let gaps = zip(starts, starts.dropFirst()).map { $1 - $0 }.sorted()
        return gaps.isEmpty ? 1.0 / 30 : CaptureRate.step(starts: starts, median: gaps[gaps.count / 2])
    }

    /// The recording's seconds change `change` moves in.
    func seconds(of change: Change) -> ClosedRange<Double> { starts[change.before + 1]...starts[change.after] }

    /// The frames change `k` is fitted on: `lead` seconds of stillness before it and `tail`
    /// after, within the stillness around it.
    func window(of k: Int, lead: Double, tail: Double) -> ClosedRange<Int> {
        let change = changes[k]
        let floor = k > 0 ? changes[k - 1].after : 0
        let ceiling = k + 1 < changes.count ? changes[k + 1].before : starts.count - 1
        var first = change.before, last = change.after
        while first > floor && starts[change.before] - starts[first - 1] <= lead { first -= 1 }
        while last < ceiling && starts[last + 1] - starts[change.after] <= tail { last += 1 }
        return first...last
    }
}

/// A folder of this process's own under the system's temporary folder, removed when done.
struct TemporaryFolder {
    let path: String

    init() throws {
        let base = FileManager.default.temporaryDirectory.path
        path = (base as NSString).appendingPathComponent("flipbook-scene-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}
