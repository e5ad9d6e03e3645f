import Foundation
import struct Flipbook.Transition

/// Where each frame of a change shows a rectangle held down or let go (`ScreenChange.holdsDown`):
/// the point of the move, drawn at every step of its way, whose drawing lays over the frame best
/// about the rectangle, and the rectangle's place there. A card pressed shrinks by a few points
/// each side, which moves a whole frame's levels by a fraction of one: about the rectangle, at
/// the window's width, the frames tell where its edges are to a fraction of a pixel.
enum HeldTrack {
    /// The steps of the move's way it is drawn at: a fraction of a pixel apart at the window's
    /// width for a card pressed by a few percent, and a few steps a pixel, which
    /// `SlideTrack.best` wants its differences to rise over.
    static let steps = 32

    /// Pixels around the rectangle compared too: where it grows past its place let go.
    static let margin = 4

    /// How far past its scale held the way is drawn, as a share of the scale's change.
    static let reach = 1.5

    /// Placements this close (points, RMS) are as good (`ChangeFit.placed`): the frames place a
    /// rectangle's edges to a small fraction of a pixel, and a press's curves differ by far less
    /// than a slide's (`SlideTrack.samePlace`), so the nearest wins.
    static let samePlace = 0.0
}

extension ChangeFit {
    /// `slidePlaces(kind)` for a rectangle held down or let go: drawn linearly over a second
    /// between its size let go and its scale held (as the move's tries on the frames found it,
    /// `looks`), each frame placed at the step whose drawing, about the rectangle, lays over it
    /// best (to a fraction of a step); nil for a frame that shows either end of the way.
    func heldPlaces(_ kind: ScreenChange) throws -> [LayerTracker.Match?]? {
        guard let layer = trackedLayer(kind), var change = change(kind, .bezier("linear", duration: 1), drag: nil),
            let rect = change.rect
        else { return nil }
        change.start = 0
        if let looks = rects.looks.withLock({ $0[kind] }) { change.numbers.merge(looks) { _, found in found } }
        // Drawn half as far again past its scale held, so that frames held a little further
        // than its tries found still fall inside the way, not at its end.
        let scale = ScreenChange.Number.scale
        let held = change.numbers[scale.suffix] ?? scale.start
        change.numbers[scale.suffix] = min(
            scale.range.upperBound, max(scale.range.lowerBound, 1 - HeldTrack.reach * (1 - held)))
        let (width, height) = (frame.width, frame.height)
        let (transition, _, drawings) = try drawnWay(
            change, as: "held-\(kind.rawValue)", steps: HeldTrack.steps, width: width, height: height)
        let last = transition.duration.nextDown
        let k = Double(width) / transition.canvas.width
        // The rectangle at its larger size, and a few pixels round it.
        let grown = 1 + max(0, (change.numbers[scale.suffix] ?? 1) - 1)
        let (cx, cy) = ((rect[0] + rect[2] / 2) * k, (rect[1] + rect[3] / 2) * k)
        let (hw, hh) = (rect[2] * k * grown / 2, rect[3] * k * grown / 2)
        let (x0, x1) = (max(0, Int(cx - hw) - HeldTrack.margin), min(width - 1, Int(cx + hw) + HeldTrack.margin))
        let (y0, y1) = (max(0, Int(cy - hh) - HeldTrack.margin), min(height - 1, Int(cy + hh) + HeldTrack.margin))
        // A rectangle off the frame (a rounding's, a picture's edge) places nothing.
        guard x0 <= x1, y0 <= y1 else { return nil }
        let box: LumaImage.Box = (x0...x1, y0...y1)
        let working = Double(Fitter.workingWidth) / transition.canvas.width
        return try Cores.each(Array(recording.frames.indices)) { i -> LayerTracker.Match? in
            let picture = LumaImage(recording.frames[i].bitmap, width: width, height: height)
            let differences = drawings.map {
                $0.meanDifference(picture, in: box, shiftedBy: 0, 0, within: box)?.mean ?? .infinity
            }
            guard let step = SlideTrack.best(differences), step > 0, step < Double(HeldTrack.steps),
                let b = transition.contentBounds(ofLayer: layer, at: min(last, step / Double(HeldTrack.steps)))
            else { return nil }
            return LayerTracker.Match(
                x: b.x * working, y: b.y * working, width: b.width * working, height: b.height * working,
                error: differences[Int(step.rounded())])
        }
        .map(\.1)
    }
}
