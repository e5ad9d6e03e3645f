import Foundation
import struct Flipbook.Bitmap
import struct Flipbook.Transition

/// Where each frame of a change shows the screen a move slides whole (a push's, a sheet's): the
/// point of the move, drawn at every step of its way, whose drawing lays over the frame best,
/// and the screen's place there. A fit of the screen's place finds the curve its motion follows;
/// a fit of whole frames cannot, where the screens are plain (a sheet of grey rows differs from
/// itself moved a few rows by a few levels, as it does from the end of its move).
enum SlideTrack {
    /// The steps of the move's way it is drawn at: a few points apart on an iPhone's screen.
    static let steps = 128

    /// How many steps either side of the best the drawing must differ from the frame by at
    /// least `pinned` levels for the frame to place the screen: where it does not (a sheet gone
    /// past the bottom, over rows as plain as its own top), the frame does not say where it is.
    static let reach = 4
    static let pinned = 0.25

    /// The most a frame's place is moved from its best step's by the screen's own pixels, in
    /// pixels at the working width: short of the shift's reach, where its best is a minimum
    /// and not the edge of what it looked at.
    static let refinement = Double(SlideOffset.reach) - 0.5
    /// Placements this close (points, RMS) are as good: a quarter of a point is past what a
    /// frame shows of a screen's place.
    static let samePlace = 0.25

    /// The fewest frames that must place a screen for its places to time its move: a curve
    /// of two or three values goes through any fewer.
    static let leastPlaced = 4

    /// How many drawings a frame's place is looked for from.
    static let refinements = 3

    /// The step nearest the drawings' best match of one frame (`differences[i]`: its mean
    /// difference from the drawing at step i), to a fraction of a step; nil where the
    /// differences do not rise `pinned` within `reach` steps either side (one side at an end).
    static func best(_ differences: [Double]) -> Double? {
        guard let i = differences.indices.min(by: { differences[$0] < differences[$1] }) else { return nil }
        let least = differences[i]
        let sides = [i - reach, i + reach].filter { differences.indices.contains($0) }
        guard !sides.isEmpty, sides.allSatisfy({ differences[$0] >= least + pinned }) else { return nil }
        // Between whole steps: the parabola through the best and its neighbours.
        guard i > 0, i < differences.count - 1 else { return Double(i) }
        let (a, b, c) = (differences[i - 1], least, differences[i + 1])
        let curve = a - 2 * b + c
        return Double(i) + (curve > 0 ? min(0.5, max(-0.5, 0.5 * (a - c) / curve)) : 0)
    }
}

extension ChangeFit {
    /// The layer the frames place, in a made scene of the change alone: the screen a slide moves
    /// whole, the next's (a push, a presentation) or the first's (a pop, a dismissal); the
    /// rectangle held down or let go.
    func trackedLayer(_ kind: ScreenChange) -> String? {
        if kind.holdsDown { return PressLayers(base: kind.rawValue).card }
        return kind.slide.map { MadeSceneText.layer($0.next ? to : from) }
    }

    /// `change` alone, started at once and moving linearly over a second (the scene written as
    /// `PATH-NAME.yaml`), drawn at `width` x `height` at each of `steps` steps of its way: the
    /// move's last instant, not its end, for the last (the storyboard's next step may put what
    /// it moved back where it started, hidden).
    func drawnWay(_ change: MadeChange, as name: String, steps: Int, width: Int, height: Int) throws -> (
        transition: Transition, way: [Double], drawings: [LumaImage]
    ) {
        let transition = try overASecond(change, at: "\(folder)-\(name).yaml", width: width)
        let last = transition.duration.nextDown
        let way = (0...steps).map { min(last, Double($0) / Double(steps)) }
        let drawings = try Cores.each(way) { LumaImage(transition.frame(at: $0).bitmap, width: width, height: height) }
            .map(\.1)
        return (transition, way, drawings)
    }

    /// Where each of the recording's frames shows the screen `kind` slides, as a tracked
    /// layer's place at the fit's working width (`SlideTrack`); nil for a frame that does not
    /// place it, and for a move that slides no screen or fewer than `SlideTrack.leastPlaced`
    /// frames place. The move is drawn linearly over a second, dimming and shifting what it
    /// uncovers as its tries on the frames found (`looks`; else undimmed): the frames are
    /// matched whole, and a dimming darkens the screen underneath by a share that changes
    /// along the way.
    func slidePlaces(_ kind: ScreenChange) throws -> [LayerTracker.Match?]? {
        if let found = rects.places.withLock({ $0[kind] }) { return found }
        let found = try findSlidePlaces(kind).flatMap {
            $0.compactMap { $0 }.count >= SlideTrack.leastPlaced ? $0 : nil
        }
        rects.places.withLock { $0[kind] = found }
        return found
    }

    /// `slidePlaces(kind)`, found.
    private func findSlidePlaces(_ kind: ScreenChange) throws -> [LayerTracker.Match?]? {
        if kind.holdsDown { return try heldPlaces(kind) }
        guard let layer = trackedLayer(kind), let slide = kind.slide,
            var change = change(kind, .bezier("linear", duration: 1), drag: nil)
        else { return nil }
        change.start = 0
        if kind.numbers.contains(.dim) { change.numbers[ScreenChange.Number.dim.suffix] = 0 }
        if let looks = rects.looks.withLock({ $0[kind] }) { change.numbers.merge(looks) { _, found in found } }
        let width = Fitter.workingWidth
        let height = max(1, Int((Double(width) * Double(frame.height) / Double(frame.width)).rounded()))
        let (transition, way, drawings) = try drawnWay(
            change, as: "slide-\(kind.rawValue)", steps: SlideTrack.steps, width: width, height: height)
        let last = transition.duration.nextDown
        let k = Double(width) / transition.canvas.width
        // The screen's place (points along the slide) in each drawing.
        let along = way.map { at in
            transition.contentBounds(ofLayer: layer, at: at).map { slide.axis == .x ? $0.x : $0.y }
        }
        let bar = change.statusBar ?? 0
        /// The place frame `i` shows.
        @Sendable func place(_ i: Int) -> LayerTracker.Match? {
            let frame = recording.frames[i]
            let picture = LumaImage(frame.bitmap, width: width, height: height)
            let differences = drawings.map { $0.meanDifference(picture) }
            // A frame that shows either end of the way places the screen nowhere between: from
            // before the move, the move's first step puts it there, where a scene may keep it
            // elsewhere before, hidden; at the end, a sheet gone past the edge may be anywhere
            // past it, and one drawn a little unlike the app's looks gone while a strip of it
            // shows. The frames that move say when it starts and how it ends.
            let place = SlideTrack.best(differences).flatMap { step -> LayerTracker.Match? in
                guard step > 0, step < Double(SlideTrack.steps) else { return nil }
                guard var b = transition.contentBounds(ofLayer: layer, at: min(last, step / Double(SlideTrack.steps)))
                else { return nil }
                // Where the screen's own pixels, inside its edges, lay over the frame's best: a
                // whole frame's match is pulled by what the scene does not draw as the app does
                // (a shadow it casts at the screen's edge, the screen underneath shifted by
                // another parallax). From the best step's drawing, then, where that shift
                // reaches as far as it looks, from the drawing it points to.
                var j = Int(step.rounded())
                for _ in 0..<SlideTrack.refinements {
                    guard let drawn = transition.drawnBounds(ofLayer: layer, at: way[j]),
                        let placed = transition.contentBounds(ofLayer: layer, at: way[j]),
                        let box = SlideOffset.box(
                            inside: (drawn.x, drawn.y, drawn.width, drawn.height), k: k, bar: bar,
                            width: width, height: height),
                        let shift = SlideOffset.shift(render: drawings[j], picture: picture, box: box, axis: slide.axis)
                    else { break }
                    if abs(shift.shift) <= SlideTrack.refinement {
                        b = placed
                        if slide.axis == .x { b.x += shift.shift / k } else { b.y += shift.shift / k }
                        break
                    }
                    // The step whose drawing puts the screen where the shift says.
                    guard let here = along[j] else { break }
                    let target = here + shift.shift / k
                    let next = way.indices.min { i, m in
                        abs((along[i] ?? .infinity) - target) < abs((along[m] ?? .infinity) - target)
                    }
                    guard let next, next != j else { break }
                    j = next
                }
                return LayerTracker.Match(
                    x: b.x * k, y: b.y * k, width: b.width * k, height: b.height * k,
                    error: differences[Int(step.rounded())])
            }
            return place
        }
        // Runs of consecutive frames side by side, each in order on one core, where a frame
        // the capture repeats (the same pixels again) takes the place found for it before.
        let count = recording.frames.count, runs = min(count, 8)
        let bounds = (0...runs).map { $0 * count / runs }
        return try Cores.each(Array(0..<runs)) { run -> [LayerTracker.Match?] in
            var places: [LayerTracker.Match?] = []
            var previous: (bitmap: Bitmap, place: LayerTracker.Match?)?
            for i in bounds[run]..<bounds[run + 1] {
                let bitmap = recording.frames[i].bitmap
                let found = previous.flatMap { $0.bitmap == bitmap ? $0.place : nil } ?? place(i)
                places.append(found)
                previous = (bitmap, found)
            }
            return places
        }
        .flatMap(\.1)
    }
}

extension ChangeFit {
    /// How far `change`'s plan puts the screen it slides from where the recording's frames
    /// place it (`slidePlaces`): the RMS over those frames of its left, top and right edges'
    /// distances in points, each at most `Problem.cap`, as a tracked fit scores them. Nil for
    /// a move that slides no screen, or where no frame places it.
    func placementError(_ change: MadeChange) throws -> Double? {
        guard let layer = trackedLayer(change.kind), let places = try slidePlaces(change.kind),
            places.contains(where: { $0 != nil })
        else { return nil }
        let transition = try alone(change, at: "\(folder)-placed.yaml")
        let k = Double(Fitter.workingWidth) / transition.canvas.width
        var squares: [Double] = []
        for (frame, place) in zip(recording.frames, places) {
            guard let m = place,
                let b = transition.contentBounds(ofLayer: layer, at: min(frame.start, transition.duration))
            else { continue }
            let e = min(Problem.cap, m.distance(from: (b.x, b.y, b.width), k: k))
            squares.append(e * e)
        }
        return squares.isEmpty ? nil : (squares.reduce(0, +) / Double(squares.count)).squareRoot()
    }
}

extension ChangeFit {
    /// Where `taken`'s move slides a screen: of `answers`' tries of that move, led by a finger
    /// (moving as its does) or not as `taken` is, the one whose plan puts the screen nearest where
    /// the frames place it (`placementError`). A frame's levels tell which move it shows, but
    /// hardly a few points of where its screen is; the frames' places tell that. Of those within
    /// `SlideTrack.samePlace` of the nearest (a rectangle held down: `HeldTrack.samePlace`), the
    /// curve of fewest values wins (UIKit's system
    /// spring before a spring fitted to look like it), then the least residual in levels. Otherwise
    /// `taken`.
    func placed(_ answers: [(try: Try, answer: Attempt)], as taken: Attempt) throws -> Attempt {
        guard let taken, taken.change.kind.isTracked else { return taken }
        var placed: [(answer: (change: MadeChange, score: Double), error: Double)] = []
        for (t, answer) in answers
        where t.kind == taken.change.kind && (t.drag == nil) == (taken.change.drag == nil)
            && (t.drag == nil || t.finger == taken.change.finger)
        {
            guard let answer, (answer.change.explained ?? 1) >= SceneMaker.leastExplained,
                let error = try placementError(answer.change)
            else { continue }
            placed.append((answer, error))
        }
        guard let nearest = placed.map(\.error).min() else { return taken }
        let same = taken.change.kind.holdsDown ? HeldTrack.samePlace : SlideTrack.samePlace
        return placed.filter { $0.error <= nearest + same }.min { a, b in
            (a.answer.change.curve.parts.count, a.answer.score) < (b.answer.change.curve.parts.count, b.answer.score)
        }?.answer
    }
}
