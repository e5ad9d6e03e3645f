import Foundation
import Synchronization

import struct Flipbook.FrameSequence
import struct Flipbook.Bitmap
import struct Geometry.Color
import struct Planner.Plan
import class Flipbook.ImageCache
import struct Flipbook.Transition

/// Where a move happens on the screen, as a change's frames show it: its rectangle, in points,
/// a colour there (`#RRGGBB`), and how far a scrolling band's page moves.
struct Placement: Sendable {
    var rect: [Double]
    var color: String
    var shift: [Double]? = nil
    /// The height of a bar at the top that stays while a parted screen's rows ride under it.
    var bar: Double? = nil
    /// The dimming over the screen above a panel, as the still that shows the panel has it.
    var dim: Double? = nil
    /// How far down the other still shows a panel, where it shows it on the screen too.
    var travel: Double? = nil
}

/// Each move's placement for one change, and where its frames place the screen it slides,
/// once found.
final class FoundRects: Sendable {
    let found = Mutex<[ScreenChange: Placement?]>([:])
    let places = Mutex<[ScreenChange: [LayerTracker.Match?]?]>([:])
    /// Each sliding move's numbers (its dimming, its parallax) as its best try on the frames
    /// found them, which its places are found with.
    let looks = Mutex<[ScreenChange: [String: Double]]>([:])
    /// Each try's timing by its screen's places (its values, and the recording's start in its
    /// storyboard), by the text of the scene it was fitted in: the one taken, whose numbers
    /// are then searched on the frames, is not timed again.
    let timings = Mutex<[String: (values: [String: Double], offset: Double)]>([:])
    /// The fits' passes over the change's frames: every try reads them once.
    let passes = FitPasses()
}

/// One change of a recording fitted as each move and curve tried: a scene of its two screens,
/// its params searched by fit's own search against the change's frames.
struct ChangeFit: Sendable {
    /// A try's answer, where its fit found one: the change and its residual.
    typealias Attempt = (change: MadeChange, score: Double)?

    /// The made scene with no changes, of the change's length.
    let base: MadeSceneText
    /// The change's frames, from its window's first.
    let recording: FrameSequence
    /// Seconds the storyboard holds before it moves, and the window's start in the recording.
    let hold: Double
    let origin: Double
    /// The recording's frames' size.
    let frame: Crop
    let from: Int
    let to: Int
    let seconds: ClosedRange<Double>
    /// The height of the status bar that stays at the top through the change's frames, in
    /// points (`StatusBar`); nil where none does.
    let statusBar: Double?
    /// Where each try's scene file is written (`PATH-N.yaml`), beside the screens' images.
    let folder: String
    let images: ImageCache
    /// Whether the change comes back to the screen it left (`to` is then the screen it
    /// uncovers on its way): only a finger's moves let go short explain it.
    var returns = false
    /// The frame (of `recording`'s) a change that comes back goes farthest in, where screen
    /// `to` is that frame: a band pulled and let go shows a page of its own there.
    var farthest: Int? = nil
    /// Where screen `from` is another pulled down under a bar (`PulledScreen`): that screen and
    /// the gap above it, in points, which a row that closes from it starts from.
    var pulled: (screen: Int, gap: Double)? = nil
    /// When the next change starts, in the recording's seconds: a change still moving then
    /// would hold it back (a made scene's steps follow one another).
    var next: Double? = nil

    /// The moves it is fitted with.
    var moves: [ScreenChange] {
        returns ? ScreenChange.goingBack(pulled: farthest != nil) : ScreenChange.moving
    }
    /// Each move's rectangle once found: every try of a move starts from it.
    let rects = FoundRects()

    /// The change `kind` with `curve` (after a finger's part, with `drag`, moving as `finger`
    /// does; its rectangle's size by `size` where given), starting after the hold, with the
    /// rectangle the recording shows where the move has one; nil where it shows none.
    func change(
        _ kind: ScreenChange, _ curve: MadeChange.Curve, drag: (Double, Double)?, finger: FingerMotion = .drag,
        size: MadeChange.Curve? = nil
    ) -> MadeChange? {
        var change = MadeChange(
            kind: kind, from: from, to: to, start: hold, curve: curve, drag: drag, seconds: seconds)
        change.size = size
        change.finger = finger
        change.returns = returns && drag != nil
        // A row that closes from a pulled screen closes from the screen before the pull, under a
        // status bar that stays over the pulled screen's bar.
        if kind == .collapse { change.pull = pulled }
        if kind.keepsStatusBar || change.pull != nil { change.statusBar = statusBar }
        if kind.hasRect {
            guard let placement = rect(kind) else { return nil }
            (change.rect, change.shift, change.bar) = (placement.rect, placement.shift, placement.bar)
            if kind.fadesIn || kind.parts { change.color = placement.color }
            if kind.fadesIn { change.fade = MadeSceneText.fadeStart }
            // A panel's search starts from the dimming its still shows.
            let dimming = ScreenChange.Number.dim
            if let dim = placement.dim { change.numbers[dimming.suffix] = min(dimming.range.upperBound, dim) }
            change.travel = placement.travel
        }
        return change
    }

    /// Where `kind` happens, found once: the rectangle a screen or a circle grows out of (where
    /// its first moving frames differ from the still before) or a screen shrinks into (where its
    /// last ones differ from the still after), with the colour at its middle; the row a screen
    /// parts at (`ScreenParting`); the band that scrolls and its page's shift (`PageShift`); the
    /// panel that slides (`PanelTop`). Nil where the frames show none.
    func rect(_ kind: ScreenChange) -> Placement? {
        if let found = rects.found.withLock({ $0[kind] }) { return found }
        let found = findRect(kind)
        rects.found.withLock { $0[kind] = found }
        return found
    }

    /// How far apart two partings' tops may be, as a share of the top, and be one row: a top
    /// follows from the ratio of two whole-pixel shifts, which a part barely moved leaves rough.
    static let sameTop = 0.05

    /// The least share of a row's (or a column's) pixels that change for it to be a card's (one
    /// that grows or shrinks): an MP4's noise at text a frame away changes a few.
    static let cardLines = 0.025

    /// `rect(kind)`, found.
    private func findRect(_ kind: ScreenChange) -> Placement? {
        let frames = recording.frames
        guard let first = frames.firstIndex(where: { $0.start + origin >= seconds.lowerBound - 1e-9 }),
            let last = frames.lastIndex(where: { $0.start + origin <= seconds.upperBound + 1e-9 }),
            first >= 1, last - first >= 2
        else { return nil }
        let (a, b) = kind.endsInRect ? (last, last - 2) : (first - 1, first + 1)
        let width = frame.width, height = frame.height
        let k = base.canvas.width / Double(width)
        if kind.parts {
            // The row a screen parts at, as the moving frames a quarter, half and three quarters
            // through show it against the still with the row (before an opening, after a
            // closing): of the row most of them agree on, the one whose parts have moved
            // furthest, the surest of the shifts.
            let still = LumaImage(frames[a].bitmap, width: width, height: height)
            let looked = [1, 2, 3].map { first + (last - 1 - first) * $0 / 4 }
            func parted(_ indices: [Int]) -> [ScreenParting] {
                indices.compactMap {
                    ScreenParting.find(
                        still: still, moving: LumaImage(frames[$0].bitmap, width: width, height: height))
                }
            }
            // Where fewer than two of those show both parts (a slow capture's, whose rows above
            // are under a bar a frame or two into the opening, or out from under it a frame or
            // two before the closing's end), the first two moving frames and the last two are
            // looked at too.
            var partings = parted(looked)
            if partings.count < 2 {
                let ends = Set([first, first + 1, last - 2, last - 1]).filter { $0 >= first && $0 < last }
                partings += parted(ends.subtracting(looked).sorted())
            }
            // Partings that disagree (a bar's rows matched at a shift by chance, a part barely
            // moved whose top is rough): the row most of them put it at, then the one borne out
            // by the most rows moved the furthest.
            let agreeing = partings.map { p in
                partings.filter { abs($0.top - p.top) <= Self.sameTop * p.top && abs($0.bottom - p.bottom) <= 3 }
            }
            let weight = { (group: [ScreenParting]) in
                (group.count, group.map { $0.evidence * min($0.up, $0.down) }.reduce(0, +))
            }
            partings = agreeing.max { weight($0) < weight($1) } ?? []
            guard let parting = partings.max(by: { min($0.up, $0.down) < min($1.up, $1.down) }) else { return nil }
            // A bar's height is surest where the row is about half open: its edge is then about
            // halfway down it. Closing from a pulled screen, the bar covers the rows above
            // until the row is nearly closed: its own rows are the pulled screen's gap's last.
            let bar: Double
            if kind == .collapse, let pulled {
                let screen = LumaImage(frames[first - 1].bitmap, width: width, height: height)
                let gap = Int((pulled.gap / k).rounded())
                bar = Double(PulledScreen.bar(pulled: screen, gap: gap, next: still) ?? 0) * k
            } else {
                bar = (partings.min { abs($0.open - 0.5) < abs($1.open - 0.5) }?.bar ?? 0) * k
            }
            let (top, bottom) = ((parting.top * k).rounded(), (parting.bottom * k).rounded())
            let middle = Int((parting.top + parting.bottom) / 2)
            return Placement(
                rect: [0, top, base.canvas.width, bottom - top],
                color: Self.color(of: frames[a].bitmap, x: 1, y: middle),
                bar: bar > 0 ? bar.rounded() : nil)
        }
        if kind == .scroll {
            // The band where the stills before and after differ by far more than a codec's noise
            // (a page's content moves whole), and how far its page moved: for a band pulled and
            // let go, the still before and its farthest frame.
            let (before, after) = (frames[first - 1].bitmap, frames[farthest ?? last].bitmap)
            let (pa, pb) = (
                LumaImage(before, width: width, height: height), LumaImage(after, width: width, height: height)
            )
            guard let box = pb.changedBox(from: pa, by: 60),
                let shift = PageShift.find(first: pa, next: pb, in: box)
            else { return nil }
            let rect = [box.x.lowerBound, box.y.lowerBound, box.x.count, box.y.count].map { (Double($0) * k).rounded() }
            return Placement(
                rect: rect, color: Self.color(of: after, x: box.x.lowerBound, y: box.y.lowerBound),
                shift: [shift.x, shift.y].map { (Double($0) * k * 100).rounded() / 100 })
        }
        if kind.holdsDown {
            // Where the stills before and after differ: the rectangle and the ring its size let
            // go covers held down, about the same middle.
            let luma = { (bitmap: Bitmap) in LumaImage(bitmap, width: width, height: height) }
            let (before, after) = (frames[first - 1].bitmap, frames[last].bitmap)
            guard let box = luma(after).changedBox(from: luma(before), by: 20) else { return nil }
            let area = Double(box.x.count * box.y.count) / Double(width * height)
            guard area > 0.0005, area < 0.8 else { return nil }
            let rect = [box.x.lowerBound, box.y.lowerBound, box.x.count, box.y.count].map { (Double($0) * k).rounded() }
            return Placement(rect: rect, color: Self.color(of: before, x: box.x.lowerBound, y: box.y.lowerBound))
        }
        if kind.slidesPanel {
            // The panel as the still that shows it has it over the other, dimmed: the one after
            // a panel slides up, the one before it slides down (pulled and let go, over its
            // farthest frame, which shows what is under it).
            let (before, after) = (frames[first - 1].bitmap, frames[farthest ?? (frames.count - 1)].bitmap)
            let luma = { (bitmap: Bitmap) in LumaImage(bitmap, width: width, height: height) }
            let (panel, backdrop) = kind == .panelUp ? (luma(after), luma(before)) : (luma(before), luma(after))
            guard let found = PanelTop.find(panel: panel, backdrop: backdrop) else { return nil }
            let y = (Double(found.top) * k).rounded()
            // Where the other still shows the panel lower down (a detent, a peek), it slides
            // between the two places; pulled, the move ends where the farthest frame shows it.
            let travel = PanelTop.travel(panel: panel, other: backdrop, top: found.top)
            if farthest != nil, travel == nil { return nil }
            return Placement(
                rect: [0, y, base.canvas.width, base.canvas.height - y],
                color: Self.color(of: kind == .panelUp ? after : before, x: width / 2, y: found.top), dim: found.dim,
                travel: travel.map { (Double($0) * k).rounded() })
        }
        let pa = LumaImage(frames[a].bitmap, width: width, height: height)
        let pb = LumaImage(frames[b].bitmap, width: width, height: height)
        // A circle of one colour grows over the screen by far more than a codec's noise. A card
        // is the rows and columns many of whose pixels change (`cardLines`); one that grows, as
        // its first moving frame shows it, nearest its start.
        let changed =
            kind == .reveal
            ? pb.changedBox(from: pa, by: 60)
            : (kind == .grow ? LumaImage(frames[first].bitmap, width: width, height: height) : pb)
                .changedBox(from: pa, by: 20, share: Self.cardLines)
        guard let box = changed else { return nil }
        let (minX, minY, maxX, maxY) = (box.x.lowerBound, box.y.lowerBound, box.x.upperBound, box.y.upperBound)
        let area = Double((maxX - minX + 1) * (maxY - minY + 1)) / Double(width * height)
        guard area > 0.01, area < 0.8 else { return nil }
        let (cx, cy) = ((minX + maxX) / 2, (minY + maxY) / 2)
        let color = Self.color(of: frames[b].bitmap, x: cx, y: cy)
        // A circle starts as the patch of its colour the first screen has where it grows, which
        // it covers: at the pixel of the box in the circle's colour nearest the circle's middle
        // (`GrowingCircle`: a slow capture's circle runs off the screen, and its box's middle is
        // not its own).
        if kind == .reveal {
            let circle = Self.rgb(of: frames[b].bitmap, at: (cx, cy))
            let middle = GrowingCircle.middle(still: pa, moving: pb, by: 60)
            // Within the box: a circle whose middle is off it grows from the box's nearest pixel
            // of its colour.
            let from =
                middle.map {
                    (
                        Int(min(max($0.x, Double(minX)), Double(maxX)).rounded(.down)),
                        Int(min(max($0.y, Double(minY)), Double(maxY)).rounded(.down))
                    )
                } ?? (cx, cy)
            let seed = Self.nearest(in: frames[a].bitmap, to: from, within: [minX, minY, maxX, maxY]) {
                Self.near($0, circle)
            }
            if let patch = Self.patch(of: frames[a].bitmap, at: seed ?? (cx, cy)) {
                return Placement(rect: patch.map { ($0 * k * 100).rounded() / 100 }, color: color)
            }
        }
        let rect = [Double(minX), Double(minY), Double(maxX - minX + 1), Double(maxY - minY + 1)].map {
            ($0 * k).rounded()
        }
        return Placement(rect: rect, color: color)
    }

    /// The red, green and blue of `bitmap`'s pixel at `point`.
    static func rgb(of bitmap: Bitmap, at point: (Int, Int)) -> (Int, Int, Int) {
        let i = point.1 * bitmap.rowBytes + point.0 * 4
        return (Int(bitmap.pixels[i]), Int(bitmap.pixels[i + 1]), Int(bitmap.pixels[i + 2]))
    }

    /// Whether two colours are within a few levels of each other: one patch's.
    static func near(_ a: (Int, Int, Int), _ b: (Int, Int, Int)) -> Bool {
        abs(a.0 - b.0) + abs(a.1 - b.1) + abs(a.2 - b.2) <= 24
    }

    /// The pixel of `bitmap` within `box` (min x, min y, max x, max y) nearest `point` whose
    /// colour `matches`; nil where none does.
    static func nearest(
        in bitmap: Bitmap, to point: (Int, Int), within box: [Int], _ matches: ((Int, Int, Int)) -> Bool
    ) -> (Int, Int)? {
        if (box[0]...box[2]).contains(point.0), (box[1]...box[3]).contains(point.1), matches(rgb(of: bitmap, at: point))
        {
            return point
        }
        var best: (point: (Int, Int), distance: Int)?
        for y in box[1]...box[3] {
            for x in box[0]...box[2] where matches(rgb(of: bitmap, at: (x, y))) {
                let d = (x - point.0) * (x - point.0) + (y - point.1) * (y - point.1)
                if d < best?.distance ?? .max { best = ((x, y), d) }
            }
        }
        return best?.point
    }

    /// The box (x, y, width, height, in pixels) around the pixels of `bitmap` joined to `point`
    /// through pixels within a few levels of its colour; nil where that is a sliver or most of
    /// the picture.
    static func patch(of bitmap: Bitmap, at point: (Int, Int)) -> [Double]? {
        let (w, h) = (bitmap.width, bitmap.height)
        guard point.0 >= 0, point.1 >= 0, point.0 < w, point.1 < h else { return nil }
        func rgb(_ x: Int, _ y: Int) -> (Int, Int, Int) { Self.rgb(of: bitmap, at: (x, y)) }
        let seed = rgb(point.0, point.1)
        var seen = [Bool](repeating: false, count: w * h)
        var stack = [point]
        seen[point.1 * w + point.0] = true
        var (minX, minY, maxX, maxY) = (point.0, point.1, point.0, point.1)
        while let (x, y) = stack.popLast() {
            (minX, minY, maxX, maxY) = (min(minX, x), min(minY, y), max(maxX, x), max(maxY, y))
            for (nx, ny) in [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)]
            where nx >= 0 && ny >= 0 && nx < w && ny < h && !seen[ny * w + nx] {
                guard near(rgb(nx, ny), seed) else { continue }
                seen[ny * w + nx] = true
                stack.append((nx, ny))
            }
        }
        let area = Double((maxX - minX + 1) * (maxY - minY + 1)) / Double(w * h)
        guard area > 0.0005, area < 0.5 else { return nil }
        return [Double(minX), Double(minY), Double(maxX - minX + 1), Double(maxY - minY + 1)]
    }

    /// The mean colour of the 3x3 pixels around (x, y) of `bitmap`, over white, as a scene file
    /// writes it (`#RRGGBB`).
    static func color(of bitmap: Bitmap, x: Int, y: Int) -> String {
        var sums = [0, 0, 0], n = 0
        for yy in max(0, y - 1)...min(bitmap.height - 1, y + 1) {
            for xx in max(0, x - 1)...min(bitmap.width - 1, x + 1) {
                let i = yy * bitmap.rowBytes + xx * 4
                for c in 0..<3 { sums[c] += Int(bitmap.pixels[i + c]) + 255 - Int(bitmap.pixels[i + 3]) }
                n += 1
            }
        }
        let mean = sums.map { UInt8(min(255, ($0 + n / 2) / max(1, n))) }
        return Color(r: mean[0], g: mean[1], b: mean[2]).description
    }

    /// The moves that look likeliest, drawn at every tenth of their way with their params'
    /// defaults against the change's frames a quarter, half and three quarters through it (no
    /// time, so no fit): the likeliest (with the next where it looks nearly as likely) as the
    /// frames are, then as the fits' thorough search sees them, blurred over about a line of
    /// text, at every twentieth (a screen of text moved by a few lines looks like itself there).
    func likeliest(_ kinds: [ScreenChange]) throws -> [ScreenChange] {
        guard let (differences, blurred) = try drawnDifferences(kinds) else { return Array(kinds.prefix(2)) }
        /// The likeliest by `differences`, with the next where it looks nearly as likely.
        func ranked(_ differences: [ScreenChange: Double]) -> [ScreenChange] {
            let sorted = kinds.filter { differences[$0] != nil }.sorted { differences[$0]! < differences[$1]! }
            guard !sorted.isEmpty else { return [] }
            return sorted.count > 1 && differences[sorted[0]]! > Self.decisive * differences[sorted[1]]!
                ? Array(sorted.prefix(2)) : [sorted[0]]
        }
        // Two stills a page apart in a band are a scroll's mark: a quick scroll is over before
        // its frames a quarter through, where every move's last drawing looks alike.
        let paged = kinds.contains(.scroll) && differences[.scroll] != nil ? [ScreenChange.scroll] : []
        let sharp = ranked(differences)
        let likely = sharp + ranked(blurred).filter { !sharp.contains($0) }
        return likely + paged.filter { !likely.contains($0) }
    }

    /// How far each of `kinds`, drawn at every tenth of its way with its params' defaults, is
    /// from the change's frames a quarter, half and three quarters through it: the least
    /// difference of each frame from any drawing, added up, as the frames are and blurred
    /// over about a line of text (drawn at every twentieth); of a change caught in fewer
    /// frames (a slow capture's), each of them. Nil where it has none.
    func drawnDifferences(_ kinds: [ScreenChange]) throws -> (
        sharp: [ScreenChange: Double], blurred: [ScreenChange: Double]
    )? {
        let moving = recording.frames.filter { seconds.contains($0.start + origin) }
        guard !moving.isEmpty else { return nil }
        let width = SceneMaker.outlineWidth
        let height = max(1, Int((Double(width) * Double(frame.height) / Double(frame.width)).rounded()))
        let sampled = Set([1, 2, 3].map { moving.count * $0 / 4 }).sorted()
        let samples = sampled.map { LumaImage(moving[$0].bitmap, width: width, height: height) }
        let blurredSamples = samples.map { $0.boxBlurred(radius: Problem.blur) }
        var differences: [ScreenChange: Double] = [:], blurred: [ScreenChange: Double] = [:]
        /// The least difference of each sample from any of `renders`, added up.
        func least(_ samples: [LumaImage], _ renders: [LumaImage]) -> Double {
            samples.map { sample in renders.map { $0.meanDifference(sample) }.min()! }.reduce(0, +)
        }
        for (i, kind) in kinds.enumerated() {
            guard var change = change(kind, .bezier("linear", duration: 1), drag: nil) else { continue }
            change.start = 0
            // A move that dims is drawn dimmed (as found, else at a guess) and not: a dimming
            // darkens a whole screen, so drawn at a guess it can outweigh where the screens are.
            var sharp: [LumaImage] = [], all: [LumaImage] = []
            let dims: [Double?] =
                kind.numbers.contains(.dim) ? [change.numbers[ScreenChange.Number.dim.suffix], 0] : [nil]
            for dim in dims {
                change.numbers[ScreenChange.Number.dim.suffix] = dim
                let transition = try overASecond(change, at: "\(folder)-ranked-\(to)-\(i).yaml", width: width)
                let renders = stride(from: 0.0, through: 1.0, by: 0.05).map {
                    LumaImage(transition.frame(at: $0).bitmap, width: width, height: height)
                }
                sharp += renders.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
                all += renders
            }
            differences[kind] = least(samples, sharp)
            blurred[kind] = least(blurredSamples, all.map { $0.boxBlurred(radius: Problem.blur) })
        }
        return (differences, blurred)
    }

    /// The likeliest move is fitted alone when its least difference is at most this share of
    /// the next one's.
    static let decisive = 0.7

    /// One try: a move by a curve (its rectangle's size by `size` where given), after a
    /// finger's part (its starting values) where given, moving as `finger` does; `tracked`:
    /// timed by where the frames place the screen it slides (`SlideTrack`).
    typealias Try = (
        kind: ScreenChange, curve: MadeChange.Curve, drag: (Double, Double)?, finger: FingerMotion, thorough: Bool,
        tracked: Bool, size: MadeChange.Curve?
    )

    /// The change's length, the curves' first duration.
    var guess: Double { min(2, max(0.15, seconds.upperBound - seconds.lowerBound)) }

    /// The curves each move is tried by, each after a finger's part where `drag` is given: a
    /// spring, UIKit's system spring and easeInEaseOut; thoroughly, also easeIn and easeOut.
    /// A finger-led slide timed by its screen's places (`tracked`) starts the system spring at
    /// the finger's speed, as UIKit does a pop let go: the places tell a speed, where whole
    /// frames hardly do. A move let go short goes back at its own pace: the finger was moving
    /// away.
    func curves(drag: (Double, Double)?, finger: FingerMotion = .drag, thorough: Bool, tracked: Bool = false)
        -> [MadeChange.Curve]
    {
        [
            .spring(duration: guess, dampingRatio: 1, velocity: drag == nil ? nil : returns ? 0 : finger.start.speed),
            drag != nil && tracked && !returns ? .launched(velocity: 0) : .system,
            .bezier("easeInEaseOut", duration: guess),
        ] + (thorough ? [.bezier("easeIn", duration: guess), .bezier("easeOut", duration: guess)] : [])
    }

    /// Each likely move's tries, led by a finger too where one can lead it: quick (the frames
    /// as they are, three curves) or thorough (searched blurred, every curve). A move that
    /// slides a screen whole is tried quickly timed by the screen's place too, and on the
    /// frames only by UIKit's system spring, which has no values of its own: the frames find
    /// how it dims and shifts what it uncovers, and its places time its other curves.
    func tries(_ kinds: [ScreenChange], thorough: Bool) -> [Try] {
        kinds.flatMap { kind -> [Try] in
            // A move that goes back is a finger's let go short, never a move alone.
            let drags: [((Double, Double)?, FingerMotion)] =
                returns
                ? [(fingerStart(.drag), .drag)]
                : kind.followsFinger
                    ? [(nil, .drag)] + FingerMotion.allCases.map { (fingerStart($0), $0) } : [(nil, .drag)]
            return drags.flatMap { drag, finger in
                // A finger-led slide is tried quickly only timed by its screen's places: its
                // tries alone have found how it dims and shifts what it uncovers.
                let tracking =
                    thorough || !kind.isTracked ? [false] : drag == nil || returns ? [false, true] : [true]
                return tracking.flatMap { tracked in
                    // Timed by the places, a curve with no values and no finger has nothing to fit;
                    // on the frames, a slide's curve with values is timed by its places instead.
                    curves(drag: drag, finger: finger, thorough: thorough, tracked: tracked).filter {
                        (!tracked || !$0.parts.isEmpty || drag != nil)
                            && (tracked || drag != nil || thorough || returns || !kind.isTracked || $0.parts.isEmpty)
                    }
                    .map { (kind, $0, drag, finger, thorough, tracked, nil) as Try }
                }
            }
        }
    }

    /// A card's tries with its size on a curve of its own (`ScreenChange.resizesApart`), led by no
    /// finger: its place on a spring, its size linear or eased, as UIKit code that animates the
    /// two in blocks of their own runs them.
    func apart(_ kind: ScreenChange) -> [Try] {
        guard kind.resizesApart, !returns else { return [] }
        return Self.sizeCurves.map { name in
            (
                kind, .spring(duration: guess, dampingRatio: 1), nil, .drag, false, false,
                .bezier(name, duration: guess) as MadeChange.Curve
            )
        }
    }

    /// The curves a card's size is tried on beside its place's spring.
    static let sizeCurves = ["linear", "easeInEaseOut"]

    /// The finger's part a finger-led try starts from, moving as `finger` does
    /// (`FingerMotion.start`): its seconds and how far it takes the move.
    func fingerStart(_ finger: FingerMotion) -> (Double, Double) { (guess * finger.start.share, finger.start.progress) }

    /// Each change of `fits` (nil where it needs none) as the move and curve that explain it
    /// best, or nil where none does, with its values' ranges. Every change's work shares the
    /// cores, a round at a time, so that one change's long fits do not wait for another's:
    /// - each likely move by three curves, quickly (one that slides a screen whole by UIKit's
    ///   system spring alone, which finds how it dims and shifts what it uncovers);
    /// - each likely move that slides a screen whole, by the curves with values timed by where
    ///   the frames place its screen (`slidePlaces`, drawn as the first tries found it looks,
    ///   and measured with the dimming and parallax they found);
    /// - the best alone wins where it explains `wellExplained` of the change; otherwise a card
    ///   that grows is tried with its size on a curve of its own too (`apart`), and
    ///   each move a finger can lead is tried led by one too, dragging and flicking
    ///   (`FingerMotion`; a slide only timed by its places), and a finger leads where its best
    ///   leaves at most `fingerMargin` of the best alone's residual (so a finger's tries, which
    ///   never win over a move alone that explains the change well, are made only where one
    ///   may): of its motions, the one whose render, along its path where that comes nearer, is
    ///   likest the recording over the change's window;
    /// - where the one taken slides a screen, the try of its move (led by a finger or not, as
    ///   it is) that puts the screen nearest the frames' places (`placed`); where that try was
    ///   timed by the places, it again with its dimming and parallax searched on the frames;
    /// - led by a finger, the one taken along the finger's own path where that brings its render
    ///   nearer the recording than the finger's part eased (`followingFinger`); where the
    ///   one taken is led by none and stays unlike the recording, the best led by one, along its
    ///   path, where that comes nearer;
    /// - where none is taken, or its render is further than `SceneMaker.mostUnlike` from the
    ///   recording, the same thoroughly (`tries`), and the winner of all;
    /// - the winner's ranges.
    /// A change that comes back to the screen it left (`returns`) is each move a finger lets go
    /// short, led by one from the first round: its tries on the frames find how the move looks,
    /// then the same timed by its screen's places.
    static func fitted(_ fits: [ChangeFit?]) throws -> [MadeChange?] {
        let changes = fits.indices.filter { fits[$0] != nil }
        let likeliest = try Cores.each(changes) {
            try fits[$0]!.likeliest(fits[$0]!.moves)
        }
        /// Change `k`'s tries so far: quick, then thorough too.
        func tries(_ k: Int, thorough: Bool) -> [Try] {
            let kinds = likeliest.first { $0.0 == k }?.1 ?? []
            return fits[k]!.tries(kinds, thorough: false) + (thorough ? fits[k]!.tries(kinds, thorough: true) : [])
        }
        var round: [(fit: Int, work: Work)] = changes.flatMap { k in
            // A change that comes back starts with a finger's tries: it has no others.
            tries(k, thorough: false).filter { ($0.drag == nil || fits[k]!.returns) && !$0.tracked }.map {
                (k, Work.attempt($0))
            }
        }
        var answers: [Int: [(try: Try, answer: Attempt)]] = [:]
        var best = [MadeChange?](repeating: nil, count: fits.count)
        var thorough: Set<Int> = []
        var searched: Set<Int> = []
        while !round.isEmpty {
            // The costliest first (most values searched, over the most frames), so that the
            // round's last work is short.
            let work = round.enumerated().sorted { a, b in
                let (x, y) = (fits[a.element.fit]!.cost(a.element.work), fits[b.element.fit]!.cost(b.element.work))
                return x != y ? x > y : a.offset < b.offset
            }.map(\.element)
            // A round of fewer works than cores (the winners' ranges) renders each on several.
            let threads = max(1, ProcessInfo.processInfo.activeProcessorCount / work.count)
            let done = try Cores.each(Array(work.indices)) { i -> Attempt in
                let fit = fits[work[i].fit]!
                switch work[i].work {
                case .attempt(let t):
                    // A try timed by its screen's places takes its other numbers as found so
                    // far; the one taken has them searched (`Work.numbers`).
                    return try fit.attempt(
                        t.kind, t.curve, drag: t.drag, finger: t.finger, size: t.size,
                        path: "\(fit.folder)-\(i).yaml", thorough: t.thorough,
                        tracked: t.tracked, searchesNumbers: false, threads: threads)
                case .ranges(let found): return try fit.ranged(found, threads: threads)
                case .numbers(let t):
                    return try fit.attempt(
                        t.kind, t.curve, drag: t.drag, finger: t.finger, size: t.size,
                        path: "\(fit.folder)-\(i).yaml", tracked: true,
                        threads: threads)
                }
            }
            round = []
            for (i, answer) in done {
                switch work[i].work {
                case .attempt(let t): answers[work[i].fit, default: []].append((t, answer))
                case .numbers(let t):
                    // In place of its answer with the numbers as found before.
                    let j = answers[work[i].fit]!.firstIndex {
                        Self.same($0.try, t) && ($0.try.drag == nil) == (t.drag == nil)
                    }!
                    answers[work[i].fit]![j].answer = answer
                case .ranges:
                    guard let answer else { break }
                    best[work[i].fit]!.ranges = answer.change.ranges
                    // Along the finger's path, its residual is the one measured with it.
                    if best[work[i].fit]!.fingerPath != nil { best[work[i].fit]!.residual = answer.score }
                }
            }
            for k in Set(work.map(\.fit)).sorted() where work.contains(where: { $0.fit == k && $0.work.isAttempt }) {
                let mine = answers[k] ?? []
                // A move that slides a screen is timed by where the frames place it too, once
                // its tries on the frames have found how it dims and shifts what it uncovers.
                let unplaced = tries(k, thorough: false).filter { t in
                    t.tracked && t.drag == nil && !mine.contains { Self.same($0.try, t) }
                }
                if !unplaced.isEmpty {
                    var placeless: Set<ScreenChange> = []
                    for kind in Set(unplaced.map(\.kind)) {
                        let looks = mine.filter { $0.try.kind == kind && !$0.try.tracked }.map(\.answer)
                            .reduce(Attempt.none, better)
                        fits[k]!.rects.looks.withLock { $0[kind] = looks?.change.numbers }
                        // Found once here, for the move's tracked tries that then run side by side.
                        if try fits[k]!.slidePlaces(kind) == nil { placeless.insert(kind) }
                    }
                    // Where the frames place no screen, its curves are tried on the frames instead
                    // (its tries timed by the places, answered: there are none).
                    for t in unplaced where placeless.contains(t.kind) { answers[k, default: []].append((t, nil)) }
                    round += unplaced.map { t in
                        (
                            k,
                            Work.attempt(
                                placeless.contains(t.kind)
                                    ? (t.kind, t.curve, t.drag, t.finger, t.thorough, false, t.size) : t)
                        )
                    }
                    continue
                }
                let alone = mine.filter { $0.try.drag == nil }.map(\.answer).reduce(Attempt.none, better)
                // Where no move alone explains the change well, a finger may lead it: each
                // finger-led try not made yet is made before any is weighed.
                let led = tries(k, thorough: thorough.contains(k)).filter { t in
                    t.drag != nil && !mine.contains { $0.try.drag != nil && Self.same($0.try, t) }
                }
                // Nor, where a card's move is likely, on one curve: its size may run on its own.
                let apart = (likeliest.first { $0.0 == k }?.1 ?? []).flatMap { fits[k]!.apart($0) }.filter { t in
                    !mine.contains { Self.same($0.try, t) }
                }
                if (alone?.change.explained ?? 0) < wellExplained, !led.isEmpty || !apart.isEmpty {
                    round += apart.map { (k, Work.attempt($0)) }
                    // A move let go short has no tries alone: its finger's tries timed by the
                    // places are drawn as its finger's tries on the frames found it looks.
                    for kind in Set(led.filter(\.tracked).map(\.kind)) where fits[k]!.returns {
                        let looks = mine.filter { $0.try.kind == kind && !$0.try.tracked }.map(\.answer)
                            .reduce(Attempt.none, better)
                        fits[k]!.rects.looks.withLock { $0[kind] = looks?.change.numbers }
                        _ = try fits[k]!.slidePlaces(kind)
                    }
                    round += led.map { (k, Work.attempt($0)) }
                    continue
                }
                // Each motion a finger may lead with (a drag, a flick), its best try: the quick
                // tries' answers before the thorough ones', however their rounds came (of two as
                // close, the first counts).
                let fingerLed = FingerMotion.allCases.compactMap { motion -> Attempt in
                    let answers = mine.filter { $0.try.drag != nil && $0.try.finger == motion }
                    return (answers.filter { !$0.try.thorough } + answers.filter(\.try.thorough)).map(\.answer)
                        .reduce(Attempt.none, better)
                }
                // A finger's part is two values more: a finger leads only where no move alone
                // explains the change well, and one of its motions comes clearly closer. Which
                // motion is the one whose render (along its finger's own path, where that comes
                // nearer) is likest the recording: a part eased the wrong way may score better
                // at the fit's width and still draw the change further off.
                let leads = fingerLed.contains { led in
                    (alone?.change.explained ?? 0) < wellExplained
                        && led.score < fingerMargin * (alone?.score ?? .infinity)
                }
                var followedLed: [(change: MadeChange, unlikeness: Double)?] = []
                if leads, fingerLed.count > 1 {
                    followedLed = try fingerLed.map { led in
                        try fits[k]!.placed(mine, as: led).map { try fits[k]!.followingFinger($0.change) }
                    }
                }
                // Measured over the change's whole window: one may start moving sooner or stop
                // later than another, where the recording is still.
                let overWindow = try followedLed.map { try $0.map { try fits[k]!.unlikeness($0.change, whole: true) } }
                let nearest = overWindow.indices.min { (overWindow[$0] ?? .infinity) < (overWindow[$1] ?? .infinity) }
                let taken = try fits[k]!.placed(
                    mine, as: nearest.map { fingerLed[$0] } ?? (leads ? fingerLed.first : alone))
                // A try timed by its screen's places measured its move's dimming and parallax
                // as the tries on the frames found them: the one taken has them searched, once.
                // (The answer taken is one of `mine`'s, copied: its values are its own.)
                if let taken, !taken.change.kind.numbers.isEmpty, !searched.contains(k),
                    let t = mine.first(where: { entry in
                        entry.try.tracked
                            && entry.answer.map { $0.score == taken.score && $0.change.start == taken.change.start }
                                == true
                    })?.try
                {
                    searched.insert(k)
                    round.append((k, Work.numbers(t)))
                    continue
                }
                // Led by a finger, it follows the finger's own path where that comes nearer.
                var followed =
                    try nearest.flatMap { followedLed[$0] } ?? taken.map { try fits[k]!.followingFinger($0.change) }
                // Where the one taken stays unlike the recording, the best led by a finger may
                // come nearer along its own path: eased, a finger's tries lose to a curve that
                // only looks alike.
                if let unlike = followed?.unlikeness, unlike > SceneMaker.mostUnlike, taken?.change.drag == nil {
                    for led in fingerLed {
                        guard let placed = try fits[k]!.placed(mine, as: led) else { continue }
                        let along = try fits[k]!.followingFinger(placed.change)
                        if along.unlikeness < followed?.unlikeness ?? .infinity { followed = along }
                    }
                }
                // Where no quick try explains the change, or its render stays unlike the
                // recording (as the made scene's check would find), every curve is tried
                // thoroughly.
                if followed.map({ $0.unlikeness > SceneMaker.mostUnlike }) ?? true,
                    !thorough.contains(k)
                {
                    thorough.insert(k)
                    let thoroughly = tries(k, thorough: true).filter { t in
                        t.thorough && (t.drag == nil || fits[k]!.returns) && !mine.contains { Self.same($0.try, t) }
                    }
                    round += thoroughly.map { (k, Work.attempt($0)) }
                    continue
                }
                best[k] = followed?.change
                if let found = best[k] { round.append((k, Work.ranges(found))) }
            }
        }
        return best
    }

    /// Whether a card's rectangle (x, y, width, height, in points) is one it can grow out of or
    /// shrink into: its middle on the screen. One whose middle is off it is a screen leaving by
    /// an edge, which the slides explain.
    static func onScreen(_ rect: [Double], canvas: (width: Double, height: Double)) -> Bool {
        (0...canvas.width).contains(rect[0] + rect[2] / 2) && (0...canvas.height).contains(rect[1] + rect[3] / 2)
    }

    /// Whether two tries are one move by one curve, searched alike.
    static func same(_ a: Try, _ b: Try) -> Bool {
        a.kind == b.kind && a.curve == b.curve && a.finger == b.finger && a.thorough == b.thorough
            && a.tracked == b.tracked && a.size == b.size
    }

    /// How far `change`'s render is from the recording over the frames it moves in (or, where
    /// `whole`, every frame of its window, the stillness either side too), as the made scene's
    /// check figures it: the RMS of each frame's mean difference at the outline's width.
    func unlikeness(_ change: MadeChange, whole: Bool = false) throws -> Double {
        let width = SceneMaker.outlineWidth
        let height = max(1, Int((Double(width) * Double(frame.height) / Double(frame.width)).rounded()))
        let moving = whole ? recording.frames : recording.frames.filter { seconds.contains($0.start + origin) }
        guard !moving.isEmpty else { return 0 }
        let transition = try alone(change, at: "\(folder)-check.yaml", width: width)
        var squares: [Double] = []
        try transition.forEachFrame(at: moving.map { min($0.start, transition.duration) }, threads: 1) {
            let d = LumaImage(moving[squares.count].bitmap, width: width, height: height).meanDifference($0.bitmap)
            squares.append(d * d)
        }
        return (squares.reduce(0, +) / Double(squares.count)).squareRoot()
    }

    /// `change` following its finger's own path (`fingerFollowed`), where that brings its render
    /// clearly nearer the recording than its finger's part eased does (a finger is no
    /// curve, but a path is many numbers more): to at most `pathMargin` of its unlikeness;
    /// with the unlikeness of the one returned.
    func followingFinger(_ change: MadeChange) throws -> (change: MadeChange, unlikeness: Double) {
        let eased = try unlikeness(change)
        guard let followed = try fingerFollowed(change) else { return (change, eased) }
        let along = try unlikeness(followed)
        return along < Self.pathMargin * eased ? (followed, along) : (change, eased)
    }

    /// The most of its unlikeness eased a change along its finger's path may keep.
    static let pathMargin = 0.95

    /// The width, in pixels, a finger's path is read at: a few per point's move of a band.
    static let pathWidth = 160
    /// The progress steps a finger's path is read in (a finer one is read between them), and
    /// the farthest a point of it left out may be from the straight line between those kept
    /// (about a point and a half of a phone's width).
    static let (pathSteps, pathTolerance) = (200, 0.004)
    /// How long before its fitted touch a finger's part is read: a curve's start trades
    /// against its shape, and a finger's frames may show it moving already.
    static let pathLead = 0.1

    /// `change` along the path its finger takes, as the recording's frames show it: for each
    /// frame about its finger's part, the progress at which the change alone, its finger moving
    /// steadily, draws the nearest picture (read between steps where the differences either
    /// side say). Where frames before the fitted touch show it moving, the finger touches
    /// where the first two moving ones point back to, not before the last still one, and its
    /// part lasts that much longer to the same lift. Its path (`MadeChange.fingerPath`) keeps
    /// the points a straight line between others passes far from. Nil where it has no
    /// finger's part, or no frame falls inside it.
    func fingerFollowed(_ change: MadeChange) throws -> MadeChange? {
        guard let drag = change.drag, drag.duration > 0, drag.progress > 0 else { return nil }
        // The screen shows the finger where it was a presentation's latency before.
        let touch = change.start - origin + Plan.presentationLatency
        let lift = touch + drag.duration
        let read = recording.frames.filter { $0.start > touch - Self.pathLead && $0.start < lift }
        guard read.contains(where: { $0.start > touch }) else { return nil }
        var steady = change
        (steady.drag, steady.fingerPath) = ((1, 1), [(1, 1)])
        let width = Self.pathWidth
        let height = max(1, Int((Double(width) * Double(frame.height) / Double(frame.width)).rounded()))
        let transition = try alone(steady, at: "\(folder)-path.yaml", width: width)
        // At `touch` plus k steps, the steady finger has taken the move k steps of the way.
        let moments = (0...Self.pathSteps).map { min(touch + Double($0) / Double(Self.pathSteps), transition.duration) }
        var renders: [LumaImage] = []
        try transition.forEachFrame(at: moments, threads: 1) {
            renders.append(LumaImage($0.bitmap, width: width, height: height))
        }
        // Each frame's time and progress (a share of the whole move).
        let seen = read.map { picture -> (time: Double, progress: Double) in
            let seen = LumaImage(picture.bitmap, width: width, height: height)
            let d = renders.map { seen.meanDifference($0) }
            let k = d.indices.min { d[$0] < d[$1] }!
            // The parabola through the nearest and its neighbours places the least between steps.
            var between = 0.0
            if k > 0, k < d.count - 1 {
                let curvature = d[k - 1] - 2 * d[k] + d[k + 1]
                if curvature > 0 { between = max(-0.5, min(0.5, (d[k - 1] - d[k + 1]) / (2 * curvature))) }
            }
            return (picture.start, (Double(k) + between) / Double(Self.pathSteps))
        }
        // The touch: the fitted one, or earlier where the frames show the finger moving already.
        var touched = touch
        if let first = seen.firstIndex(where: { $0.progress > Self.pathTolerance }), seen[first].time <= touch,
            first + 1 < seen.count
        {
            let (a, b) = (seen[first], seen[first + 1])
            let back =
                b.progress > a.progress
                ? a.time - a.progress * (b.time - a.time) / (b.progress - a.progress) : a.time
            // Not before the window: the change starts after the hold before it.
            touched = max(back, first > 0 ? seen[first - 1].time : touch - Self.pathLead, Plan.presentationLatency)
        }
        let duration = lift - touched
        var points = [(time: 0.0, progress: 0.0)]
        for point in seen where point.time > touched {
            points.append(((point.time - touched) / duration, point.progress / drag.progress))
        }
        points.append((1, 1))
        let kept = Self.simplified(points, tolerance: Self.pathTolerance / drag.progress)
        // Shares to four places, as the scene writes them: the steps between sum to the whole.
        let place = FitResult.rounded
        var followed = change
        followed.start -= touch - touched
        followed.drag = (duration, drag.progress)
        followed.fingerPath = kept.dropFirst().map { (place($0.time), place($0.progress)) }
        return followed
    }

    /// `points` with those a straight line between two kept ones passes within `tolerance` of
    /// (in progress) left out (Douglas–Peucker); the first and last stay.
    static func simplified(
        _ points: [(time: Double, progress: Double)], tolerance: Double
    ) -> [(time: Double, progress: Double)] {
        guard points.count > 2 else { return points }
        let (a, b) = (points.first!, points.last!)
        let span = b.time - a.time
        var (far, farthest) = (0, 0.0)
        for i in 1..<(points.count - 1) {
            let along = span > 0 ? (points[i].time - a.time) / span : 0
            let off = abs(points[i].progress - (a.progress + (b.progress - a.progress) * along))
            if off > farthest { (far, farthest) = (i, off) }
        }
        guard farthest > tolerance else { return [a, b] }
        return simplified(Array(points[...far]), tolerance: tolerance).dropLast()
            + simplified(Array(points[far...]), tolerance: tolerance)
    }

    /// The change's scene with `change` (timed in the recording) alone, in the window's time,
    /// written at `path` and loaded at `width`.
    func alone(_ change: MadeChange, at path: String, width: Int? = nil) throws -> Transition {
        var scene = base
        var c = change
        c.start = change.start - origin
        scene.changes = [c]
        try scene.text.write(toFile: path, atomically: true, encoding: .utf8)
        return try Transition(path, width: width, images: images)
    }

    /// The change's scene with `change` (started at once, its curve over a second) alone and a
    /// second long, written at `path` and loaded at `width`: how the move looks along its way.
    func overASecond(_ change: MadeChange, at path: String, width: Int) throws -> Transition {
        var scene = base
        scene.changes = [change]
        scene.length = 1
        try scene.text.write(toFile: path, atomically: true, encoding: .utf8)
        return try Transition(path, width: width, images: images)
    }

    /// A round's work on one change: a try, a try timed by its screen's places again with its
    /// other numbers searched on the frames, or the winner's ranges.
    private enum Work: Sendable {
        case attempt(Try)
        case numbers(Try)
        case ranges(MadeChange)

        /// Whether it answers a try, which the change's choice then weighs.
        var isAttempt: Bool { if case .ranges = self { false } else { true } }
    }

    /// A guess at what `work` costs: the values it searches times the frames it renders (a
    /// winner's ranges search none).
    private func cost(_ work: Work) -> Int {
        if case .numbers(let t) = work { return (t.kind.numbers.count + 1) * recording.frames.count }
        guard case .attempt(let t) = work else { return recording.frames.count }
        let extras = (t.drag == nil ? 0 : 2) + (t.kind.fitsRect ? 4 : 0) + (t.kind.fadesIn ? 1 : 0)
        return (t.curve.parts.count + (t.size?.parts.count ?? 0) + extras + t.kind.numbers.count + 1)
            * recording.frames.count
    }

    /// The least share of the recording's moving seconds a move's own must last.
    static let leastLength = 0.5

    /// The share of a change's frame-to-frame differences a move alone must explain for no
    /// finger-led try to be taken over it; and the most of the best alone's residual a
    /// finger-led try may leave to be taken.
    static let wellExplained = 0.85
    static let fingerMargin = 0.85

    /// The better of two tries: the lower residual, of those that explain enough of the change.
    static func better(_ a: Attempt, _ b: Attempt) -> Attempt {
        guard let b, (b.change.explained ?? 1) >= SceneMaker.leastExplained else { return a }
        guard let a else { return b }
        return b.score < a.score ? b : a
    }

    /// The change found, with the ranges of its curve's values and a finger's part: its values
    /// are not searched again, only probed around (the winner's alone, since each value probed
    /// costs its pairs with all the others).
    func ranged(_ found: MadeChange, threads: Int) throws -> Attempt {
        try attempt(
            found.kind, found.curve, drag: found.drag.map { ($0.duration, $0.progress) }, finger: found.finger,
            size: found.size, path: "\(folder)-ranged.yaml", from: found, thorough: true, threads: threads)
    }

    /// A reveal's fade's seconds, searched within.
    static let fades = 0.02...1.5

    /// The change as `kind` by `curve` (after a finger's part, with `drag`, moving as `finger`
    /// does, which bounds the speed a spring after it starts at; its rectangle's size by `size`,
    /// both curves' parts searched, where given), fitted; or, where
    /// `found` is given, `found` with its values' ranges. `thorough`: searched, and its motion's
    /// match judged, blurred over about a line of text (`FitRequest.blursText`). `tracked`: its
    /// curve and a finger's part fitted to where the frames place the screen it slides
    /// (`slidePlaces`), its other numbers (a dimming, a parallax) then to the frames as they
    /// are (or, unless `searchesNumbers`, as its move's first tries found them), and its
    /// residual theirs, as every try's is. One that would still run when the next change starts
    /// (`next`) is fitted again to be over by then, where its fade, its curve or its finger's
    /// part can be shorter (`within`).
    func attempt(
        _ kind: ScreenChange, _ curve: MadeChange.Curve, drag: (Double, Double)?, finger: FingerMotion = .drag,
        size: MadeChange.Curve? = nil, path: String, from found: MadeChange? = nil, thorough: Bool = false,
        tracked: Bool = false,
        searchesNumbers: Bool = true,
        threads: Int, within: (curve: Double?, finger: Double?, fade: Double?)? = nil
    ) throws -> Attempt {
        // Fitted again with its curve, or its finger's part, lasting at most `within`'s seconds,
        // where it ran into the next change.
        var (curve, size) = (curve, size)
        let duration = curve.parts.firstIndex { $0.part == "duration" }
        if let most = within?.curve {
            if duration != nil { curve = curve.with(duration: min(curve.duration, most)) }
            size = size.map { $0.with(duration: min($0.duration, most)) }
        }
        let drag = drag.map { drag in (min(drag.0, within?.finger ?? drag.0), drag.1) }
        guard var candidate = change(kind, curve, drag: drag, finger: finger, size: size) else { return nil }
        if let most = within?.fade { candidate.fade = candidate.fade.map { min($0, most) } }
        if let found {
            // Its own values and start (in the window's time), so that only their ranges are
            // worked out.
            (candidate.numbers, candidate.rect) = (found.numbers, found.rect ?? candidate.rect)
            (candidate.fade, candidate.color) = (found.fade, found.color)
            candidate.fingerPath = found.fingerPath
            candidate.start = found.start - origin
        }
        var scene = base
        scene.changes = [candidate]
        let names = scene.paramNames[0]
        let placeKeys = curve.parts.map { curve.key($0.part, animation: names.animation) }
        // A size on a curve of its own: its parts too, beside the place's.
        let sizeKeys = size.map { size in size.parts.map { size.key($0.part, animation: names.params["Size"]!) } } ?? []
        let curveKeys = placeKeys + sizeKeys
        var keys = curveKeys
        var ranges = Dictionary(
            uniqueKeysWithValues: zip(keys, curve.parts.map(\.range) + (size?.parts.map(\.range) ?? [])))
        if drag != nil, let v = curve.parts.firstIndex(where: { $0.part == "velocity" }) {
            ranges[curveKeys[v]] = curve.parts[v].range.lowerBound...finger.fastest
        }
        if let most = within?.curve {
            for (key, part) in zip(curveKeys, curve.parts + (size?.parts ?? [])) where part.part == "duration" {
                ranges[key] = part.range.lowerBound...max(part.range.lowerBound, min(part.range.upperBound, most))
            }
        }
        for number in kind.numbers {
            keys.append(names.params[number.suffix]!)
            ranges[names.params[number.suffix]!] = number.range
        }
        if kind.fitsRect { keys += ScreenChange.rect.map { names.params[$0]! } }
        if let reveal = names.reveal {
            keys.append(reveal.fade + ".duration")
            let most = max(Self.fades.lowerBound, min(Self.fades.upperBound, within?.fade ?? Self.fades.upperBound))
            ranges[reveal.fade + ".duration"] = Self.fades.lowerBound...most
        }
        // A finger's part: its seconds and how far it takes the move.
        let fingerKeys = names.drag.map { [$0.duration, $0.progress] } ?? []
        if let drag = names.drag {
            keys += [drag.duration, drag.progress]
            ranges[drag.duration] = 0.05...max(0.05, min(2, within?.finger ?? 2))
            // Let go short, it may go back from its farthest.
            ranges[drag.progress] = 0.05...(returns ? 1 : 0.95)
        }
        // The ranges are those of the values handed back to UIKit, the move's own numbers held.
        if found != nil {
            let handed = fingerKeys + (names.reveal.map { [$0.fade + ".duration"] } ?? [])
            keys = keys.filter { curveKeys.contains($0) || handed.contains($0) }
            ranges = ranges.filter { keys.contains($0.key) }
        }
        guard !keys.isEmpty else { return nil }
        try scene.text.write(toFile: path, atomically: true, encoding: .utf8)
        let fit: FitResult
        // The change's start in the window's storyboard time, as the file the fit reads writes
        // it (to four places), and the values found.
        var start = scene.placed.changes[0].start
        var values: [String: Double] = [:]
        var searches = found == nil
        do {
            if tracked, found == nil {
                guard let layer = trackedLayer(kind), let places = try slidePlaces(kind) else { return nil }
                // A rectangle held down: its scale is a place, which the frames' places fit too.
                let placedKeys = kind.holdsDown ? [names.params[ScreenChange.Number.scale.suffix]!] : []
                let timing = keys.filter {
                    curveKeys.contains($0) || fingerKeys.contains($0) || placedKeys.contains($0)
                }
                let timed: (values: [String: Double], offset: Double)
                // Timed once by its scene and the ranges searched.
                let timingKey = scene.text + (within.map { "# within \($0)" } ?? "")
                if let known = rects.timings.withLock({ $0[timingKey] }) {
                    timed = known
                } else {
                    var request = FitRequest(
                        scene: path, storyboard: "recording", keys: timing,
                        ranges: ranges.filter { timing.contains($0.key) },
                        track: [layer], crop: frame)
                    (request.placed, request.determinesRanges, request.renderThreads) = (
                        [layer: places], false, threads
                    )
                    let placed = try Fitter.fit(
                        request, source: RecordingSource(recording, passes: rects.passes), images: images)
                    timed = (
                        Dictionary(uniqueKeysWithValues: placed.values.map { ($0.key, $0.after) }), placed.offsetAfter
                    )
                    rects.timings.withLock { $0[timingKey] = timed }
                }
                values = timed.values
                candidate.curve = curve.with(placeKeys.map { values[$0]! })
                candidate.drag = names.drag.map { (values[$0.duration]!, values[$0.progress]!) }
                guard start - timed.offset >= 0 else { return nil }
                candidate.start = start - timed.offset
                // Its other numbers (a dimming, a parallax) searched on the frames; or, unless
                // `searchesNumbers`, taken as its move's tries there found them. Either way, or
                // where it has none, its residual is measured there.
                if !searchesNumbers {
                    let looks: [String: Double] = rects.looks.withLock { $0[kind] } ?? [:]
                    candidate.numbers.merge(looks) { _, found in found }
                }
                // A scale held down is as the places fitted it.
                if kind.holdsDown { candidate.numbers[ScreenChange.Number.scale.suffix] = values[placedKeys[0]] }
                scene.changes = [candidate]
                try scene.text.write(toFile: path, atomically: true, encoding: .utf8)
                start = scene.placed.changes[0].start
                let others = keys.filter { !timing.contains($0) }
                (keys, searches) = others.isEmpty ? (timing, false) : (others, searchesNumbers)
                ranges = ranges.filter { keys.contains($0.key) }
            }
            var request = FitRequest(scene: path, storyboard: "recording", keys: keys, ranges: ranges, crop: frame)
            // Tries run side by side, each on its share of the cores; only their values are kept.
            (request.determinesRanges, request.searches, request.renderThreads) = (found != nil, searches, threads)
            request.looksAround = !tracked
            request.blursText = thorough
            fit = try Fitter.fit(request, source: RecordingSource(recording, passes: rects.passes), images: images)
        } catch is FitError {
            return nil
        }
        if var ranged = found {
            ranged.ranges = fit.values.map { ($0.key, $0.determined) }
            return (ranged, fit.residuals.first?.rmsAfter ?? .infinity)
        }
        values.merge(fit.values.map { ($0.key, $0.after) }) { _, fitted in fitted }
        candidate.curve = curve.with(placeKeys.map { values[$0]! })
        candidate.size = size?.with(sizeKeys.map { values[$0]! })
        for number in kind.numbers { candidate.numbers[number.suffix] = values[names.params[number.suffix]!] }
        if kind.fitsRect {
            let rect = ScreenChange.rect.map { values[names.params[$0]!]! }
            guard Self.onScreen(rect, canvas: base.canvas) else { return nil }
            candidate.rect = rect
        }
        candidate.drag = names.drag.map { (values[$0.duration]!, values[$0.progress]!) }
        candidate.fade = names.reveal.map { values[$0.fade + ".duration"]! }
        candidate.start = origin + start - fit.offsetAfter
        candidate.residual = fit.residuals.first?.rmsAfter
        candidate.explained = fit.explainedMotion
        // A move over well before the recording's stops (a cut in a curve's clothes) explains
        // none of its motion.
        guard candidate.length >= Self.leastLength * (seconds.upperBound - seconds.lowerBound) else { return nil }
        // A change still moving when the next starts would hold that change back: it is fitted
        // again to be over by then, its fade shorter (a reveal's, which follows its curve) as far
        // as it goes, then its curve, or its finger's part where its curve has no duration to
        // fit (UIKit's system spring).
        let over = candidate.start + candidate.length - (next ?? .infinity)
        if within == nil, over > 1e-9 {
            var shorter: (curve: Double?, finger: Double?, fade: Double?) = (nil, nil, nil)
            var left = over
            if let fade = candidate.fade {
                shorter.fade = max(Self.fades.lowerBound, fade - left)
                left -= fade - shorter.fade!
            }
            if left > 1e-9 {
                if let d = duration {
                    shorter.curve = max(candidate.curve.parts[d].start, candidate.size?.duration ?? 0) - left
                    guard shorter.curve! >= curve.parts[d].range.lowerBound else { return nil }
                } else if let finger = candidate.drag?.duration, finger - left >= 0.05 {
                    shorter.finger = finger - left
                } else if shorter.fade == nil {
                    return (candidate, fit.residuals.first?.rmsAfter ?? .infinity)
                }
            }
            return try attempt(
                kind, curve, drag: drag, finger: finger, size: size, path: path, thorough: thorough, tracked: tracked,
                searchesNumbers: searchesNumbers, threads: threads, within: shorter)
        }
        return (candidate, fit.residuals.first?.rmsAfter ?? .infinity)
    }
}
