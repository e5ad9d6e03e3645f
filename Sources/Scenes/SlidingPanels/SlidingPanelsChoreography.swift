import Geometry
import Planner

/// Builds the sliding-panels plan on the shared planner.
///
/// Each room is drawn by a "room view": the full-screen detail at progress p (photo at alpha
/// p under its colour overlay, title at y = lerp(20, H/2 − 44, p), subtitle at
/// y = lerp(64, H/2, p)). Carousel cards are room views at p = 1 and scale 0.6, inside a
/// carousel layer that moves with the content offset. The presented room is its own room view
/// on top; under it the dim; over it the panel and the close button.
struct SlidingPanelsChoreography {
    let c: SlidingPanelsConfig
    let g: SlidingPanels.Geometry
    var builder: PlanBuilder
    let w: Double, h: Double
    let carousel: LayerID
    let cards: [LayerID]
    let views: [RoomView]
    let dim: LayerID, panel: LayerID, close: LayerID
    var card = 0

    /// The layers of one room view, and how progress moves them.
    struct RoomView {
        let root: LayerID, image: LayerID, title: LayerID, subtitle: LayerID
        let w: Double, h: Double

        /// Every change that puts the view at detail progress `p`.
        func at(_ p: Double) -> [Change] {
            [Change(image, .alpha, .number(p)),
             Change(title, .position, .point(Point(x: w / 2, y: lerp(20, h / 2 - 44, p) + 22))),
             Change(subtitle, .position, .point(Point(x: w / 2, y: lerp(64, h / 2, p) + 12)))]
        }
    }

    init(_ c: SlidingPanelsConfig, sizes: ImageSizes) throws {
        self.c = c
        g = SlidingPanels.geometry(c)
        let canvas = c.settings.canvas
        (w, h) = (canvas.width, canvas.height)
        let images = SlidingPanels.images(c)
        func snapshot(_ index: Int, _ rectPoints: Rect, strip height: Double? = nil) throws -> LayerContent {
            let k = try height.map { try stripScale(images[index], sizes, canvas: canvas, height: $0) } ?? screenScale(images[index], sizes, canvas: canvas)
            return .snapshot(Snapshot(image: images[index].name, source: rectPoints.scaled(by: k), pixelsPerPoint: k))
        }
        var b = PlanBuilder(canvas: canvas)
        let full = Rect(x: 0, y: 0, width: w, height: h)
        var carouselState = LayerState(frame: full)
        carouselState.position.x = w / 2 - g.offset(0)
        carousel = try b.addLayer("carousel", content: .none, initial: carouselState)

        let width = canvas.width, height = canvas.height
        func addRoomView(_ name: String, room i: Int, parent: LayerID?, center: Point, scale: Double, hidden: Bool) throws -> RoomView {
            var s = LayerState(frame: full)
            s.position = center
            s.scale = scale
            s.clipsToBounds = true
            s.isHidden = hidden
            s.backgroundColor = .white
            let root = try b.addLayer(name, content: .none, initial: s, parent: parent)
            let image = try b.addLayer("\(name)-image", content: snapshot(i * 3, full), initial: LayerState(frame: full), parent: root)
            try b.addLayer("\(name)-overlay", content: .color(c.rooms[i].overlay), initial: LayerState(frame: full), parent: root)
            let title = try b.addLayer("\(name)-title", content: snapshot(i * 3 + 1, Rect(x: 0, y: 0, width: width, height: 44), strip: 44),
                                       initial: LayerState(frame: Rect(x: 0, y: height / 2 - 44, width: width, height: 44)), parent: root)
            let subtitle = try b.addLayer("\(name)-subtitle", content: snapshot(i * 3 + 2, Rect(x: 0, y: 0, width: width, height: 24), strip: 24),
                                          initial: LayerState(frame: Rect(x: 0, y: height / 2, width: width, height: 24)), parent: root)
            return RoomView(root: root, image: image, title: title, subtitle: subtitle, w: width, h: height)
        }

        var cards: [LayerID] = [], views: [RoomView] = []
        for i in c.rooms.indices {
            let slot = Rect(x: Double(i) * g.stride, y: g.top, width: g.cardWidth, height: g.cardHeight)
            var shadow = LayerState(frame: Rect(x: slot.minX - c.carousel.shadowRadius, y: slot.minY - c.carousel.shadowRadius,
                                                width: slot.width + 2 * c.carousel.shadowRadius, height: slot.height + 2 * c.carousel.shadowRadius))
            shadow.alpha = c.carousel.shadowOpacity
            try b.addLayer("shadow-\(i + 1)", content: .color(.black), initial: shadow, parent: carousel)
            let view = try addRoomView("card-\(i + 1)", room: i, parent: carousel, center: slot.center, scale: c.carousel.cardScale, hidden: false)
            cards.append(view.root)
        }
        var dimState = LayerState(frame: full)
        dimState.alpha = 0
        dim = try b.addLayer("dim", content: .color(c.dim), initial: dimState)
        for i in c.rooms.indices {
            views.append(try addRoomView("room-\(i + 1)", room: i, parent: nil, center: full.center, scale: c.carousel.cardScale, hidden: true))
        }
        let bar = c.carousel.bar
        let panelScale = try stripScale(images[9], sizes, canvas: canvas, height: h - bar)
        panel = try b.addLayer("panel", content: .snapshot(Snapshot(image: "panel", source: Rect(x: 0, y: 0, width: w, height: h - bar)
            .scaled(by: panelScale), pixelsPerPoint: panelScale)),
                               initial: LayerState(frame: Rect(x: 0, y: h, width: w, height: h - bar)))
        var closeState = LayerState(frame: Rect(x: 6, y: 24, width: 32, height: 32))
        closeState.alpha = 0
        let closeScale = (sizes["close"]?.width ?? 88) / 44
        close = try b.addLayer("close", content: .snapshot(Snapshot(image: "close", source: Rect(x: 0, y: 0, width: 44 * closeScale, height: 44 * closeScale),
                                                                    pixelsPerPoint: closeScale)), initial: closeState)
        self.cards = cards
        self.views = views
        builder = b
    }

    /// The panel's centre when its top is at `y`.
    func panelCenter(top y: Double) -> Point { Point(x: w / 2, y: y + (h - c.carousel.bar) / 2) }

    mutating func build() throws {
        let bar = c.carousel.bar
        builder.append(.hold(c.timing.restHold))

        // Swipe: the content follows the finger, then snaps where the projection says.
        let (target, targetOffset) = SlidingPanels.snapTarget(from: card, c)
        let swipe = GestureTrack(pressAt: Point(x: w * 0.8, y: h / 2)).dragging(by: -c.swipe.distance, 0, over: c.swipe.duration)
            .releasing(velocity: Point(x: -c.swipe.velocity, y: 0))
        let startX = w / 2 - g.offset(card)
        builder.append(.interactive(GestureDrive(track: swipe, axis: .x, distance: -c.swipe.distance),
                                    changes: [Change(carousel, .position, .point(Point(x: startX - c.swipe.distance, y: h / 2)))]))
        let remaining = targetOffset - (g.offset(card) + c.swipe.distance)
        let snapVelocity = abs(remaining) > 1e-9 ? c.swipe.velocity / remaining : 0
        builder.append(.animate(c.swipe.snap.curve.with(velocity: snapVelocity),
                                [Change(carousel, .position, .point(Point(x: w / 2 - targetOffset, y: h / 2)))]))
        card = target
        builder.append(.hold(c.timing.snappedHold))

        // Tap and present.
        let view = views[card]
        builder.append(.set([Change(cards[card], .hidden, .flag(true)), Change(view.root, .hidden, .flag(false))] + view.at(1)))
        builder.append(.parallel([
            .animate(c.present.curve, [Change(view.root, .scale, .number(1)), Change(dim, .alpha, .number(1))] + view.at(0)),
            .animate(c.panel.curve, [Change(panel, .position, .point(panelCenter(top: bar))), Change(close, .alpha, .number(1))]),
        ]))
        builder.append(.hold(c.timing.presentedHold))

        // Drag the panel down past half, release: it collapses; drag it up under half: it returns.
        dragPanel(view, from: 0, to: c.drag.downTo)
        builder.append(.hold(c.timing.panelHold))
        dragPanel(view, from: 1, to: 1 - (1 - c.drag.upTo))
        builder.append(.hold(c.timing.panelHold))

        // Close: the panel goes down, then the scale transition plays in reverse.
        builder.append(.animate(c.panelClose.curve, [Change(panel, .position, .point(panelCenter(top: h)))]))
        builder.append(.animate(c.present.curve, [Change(view.root, .scale, .number(c.carousel.cardScale)), Change(dim, .alpha, .number(0)),
                                                  Change(close, .alpha, .number(0))] + view.at(1)))
        builder.append(.set([Change(cards[card], .hidden, .flag(false)), Change(view.root, .hidden, .flag(true))]))
        builder.append(.hold(c.timing.endHold))
    }

    /// Drags the panel from progress `from` to `to` (progress = (panel.y − 64)/(H − 128)), the
    /// header following live; on release it settles at 1 past half, else at 0, taking
    /// remaining fraction × 1.4 s with damping 0.7.
    mutating func dragPanel(_ view: RoomView, from: Double, to: Double) {
        let bar = c.carousel.bar, travel = h - 2 * bar
        let endState = from == 0 ? 1.0 : 0.0
        let track = GestureTrack(pressAt: Point(x: w / 2, y: bar + from * travel + 20))
            .dragging(by: 0, (to - from) * travel, over: c.drag.duration, easing: .easeInEaseOut)
        // Progress of this drive runs 0 → 1 from `from` toward the opposite end.
        let drive = GestureDrive(track: track, axis: .y, distance: (endState - from) * travel)
        builder.append(.interactive(drive, changes: [Change(panel, .position, .point(panelCenter(top: bar + endState * travel)))] + view.at(endState)))
        let settled: Double = to > 0.5 ? 1 : 0
        let duration = max(0.05, abs(settled - to) * c.drag.settleDuration)
        builder.append(.animate(.spring(duration: duration, damping: c.drag.settleDamping),
                                [Change(panel, .position, .point(panelCenter(top: bar + settled * travel)))] + view.at(settled)))
    }
}
