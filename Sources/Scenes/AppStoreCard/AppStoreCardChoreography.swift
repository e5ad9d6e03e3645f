import Geometry
import Planner

/// Builds the app-store-card plan on the shared planner.
///
/// Layers, bottom to top: the home screen (below its status bar strip); a cover for each
/// card's slot (the home background, over the card and its flat shadow, while that card is
/// lifted); the light wash; the status bar strip, which slides away; the cards. A card is a
/// clipping, rounded container whose content is its detail page fitted to the card's width
/// and top-aligned: at rest it shows the card, and as it grows it reveals the detail.
struct AppStoreCardChoreography {
    let c: AppStoreCardConfig
    var builder: PlanBuilder
    let overlay: LayerID, status: LayerID
    let cards: [LayerID], covers: [LayerID], slots: [Rect]
    let w: Double, h: Double

    init(_ c: AppStoreCardConfig, sizes: ImageSizes) throws {
        self.c = c
        let canvas = c.settings.canvas
        (w, h) = (canvas.width, canvas.height)
        let images = AppStoreCard.images(c)
        let homeScale = try screenScale(images[0], sizes, canvas: canvas)
        slots = [c.layout.card1, c.layout.card2]
        for (i, slot) in slots.enumerated() {
            guard slot.minX >= 0, slot.minY >= 0, slot.maxX <= w, slot.minY < h, !slot.isEmpty else {
                throw SceneError.outsideCanvas(key: "layout.card\(i + 1)", rect: slot, canvas: canvas)
            }
        }
        let sb = c.layout.statusBarHeight
        var b = PlanBuilder(canvas: canvas)
        let below = Rect(x: 0, y: sb, width: w, height: h - sb)
        try b.addLayer("home", content: .snapshot(Snapshot(image: "home", source: below.scaled(by: homeScale), pixelsPerPoint: homeScale)),
                       initial: LayerState(frame: below))
        var covers: [LayerID] = []
        for (i, slot) in slots.enumerated() {
            var s = LayerState(frame: Rect(x: slot.minX - c.layout.shadowMargin, y: slot.minY - c.layout.shadowMargin,
                                           width: slot.width + 2 * c.layout.shadowMargin, height: slot.height + 2 * c.layout.shadowMargin))
            s.isHidden = true
            covers.append(try b.addLayer("slot-\(i + 1)", content: .color(c.layout.homeBackground), initial: s))
        }
        var wash = LayerState(frame: Rect(x: 0, y: 0, width: w, height: h))
        wash.alpha = 0
        overlay = try b.addLayer("overlay", content: .color(c.overlay.color), initial: wash)
        let strip = Rect(x: 0, y: 0, width: w, height: sb)
        status = try b.addLayer("status-bar", content: .snapshot(Snapshot(image: "home", source: strip.scaled(by: homeScale), pixelsPerPoint: homeScale)),
                                initial: LayerState(frame: strip))
        var cards: [LayerID] = []
        for (i, slot) in slots.enumerated() {
            let detailScale = try screenScale(images[i + 1], sizes, canvas: canvas)
            var s = LayerState(frame: slot)
            s.cornerRadius = c.layout.cornerRadius
            s.clipsToBounds = true
            s.isHidden = true
            let full = Rect(x: 0, y: 0, width: w, height: h)
            cards.append(try b.addLayer("card-\(i + 1)", content: .snapshot(Snapshot(image: "detail-\(i + 1)", source: full.scaled(by: detailScale),
                                                                                     pixelsPerPoint: detailScale, mode: .fitWidth)),
                                        initial: s))
        }
        self.covers = covers
        self.cards = cards
        builder = b
    }

    mutating func rest() {
        builder.append(.hold(c.timing.restHold))
    }

    /// Press, release, and the present: the position springs to the top with damping and
    /// duration set by the distance, while size and corners run linearly over 0.6 of it.
    mutating func open(card i: Int) {
        let card = cards[i], slot = slots[i]
        builder.append(.set([Change(card, .hidden, .flag(false)), Change(covers[i], .hidden, .flag(false)), Change(card, .zIndex, .number(1))]))
        builder.append(.animate(c.press.curve, [Change(card, .scale, .number(0.96))]))
        builder.append(.hold(c.timing.pressHold))
        let (damping, duration) = AppStoreCard.presentSpring(distance: slot.minY, height: h, c.present)
        let linear = Curve.bezier(.linear, duration: duration * c.present.sizeFraction)
        builder.append(.parallel([
            .animate(c.press.curve, [Change(card, .scale, .number(1))]),
            .animate(.spring(duration: duration, damping: damping), [Change(card, .position, .point(Point(x: w / 2, y: h / 2)))]),
            .animate(linear, [Change(card, .size, .size(Size(width: w, height: h))), Change(card, .cornerRadius, .number(0))]),
            .animate(.bezier(.easeInEaseOut, duration: c.overlay.fade), [Change(overlay, .alpha, .number(1))]),
            .animate(.spring(duration: duration, damping: damping),
                     [Change(status, .position, .point(Point(x: w / 2, y: -c.layout.statusBarHeight / 2)))]),
        ]))
        builder.append(.hold(c.timing.detailHold))
    }

    /// The finger drags down from the top of the detail (or pans in from the left edge); the
    /// card shrinks linearly with progress = translation / 100 pt, its corners rounding, and at
    /// progress 1 the dismissal fires: back to the slot on a 0.6 s, damping-0.7 spring.
    mutating func dragDismiss(card i: Int, edgePan: Bool) {
        let card = cards[i], slot = slots[i]
        let axis: Axis = edgePan ? .x : .y
        let start = edgePan ? Point(x: 2, y: h / 2) : Point(x: w / 2, y: 120)
        let track = GestureTrack(pressAt: start).dragging(by: edgePan ? c.drag.distance : 0, edgePan ? 0 : c.drag.distance,
                                                         over: c.drag.duration, easing: .easeIn)
        let drive = GestureDrive(track: track, axis: axis, distance: c.drag.distance)
        builder.append(.interactive(drive, changes: [Change(card, .scale, .number(c.drag.minimumScale)),
                                                     Change(card, .cornerRadius, .number(c.layout.cornerRadius))]))
        builder.append(.parallel([
            .animate(c.dismiss.curve, Change.frame(card, slot) + [Change(card, .scale, .number(1)),
                                                                  Change(card, .cornerRadius, .number(c.layout.cornerRadius))]),
            .animate(.bezier(.easeInEaseOut, duration: c.overlay.fade), [Change(overlay, .alpha, .number(0))]),
            .animate(c.dismiss.curve, [Change(status, .position, .point(Point(x: w / 2, y: c.layout.statusBarHeight / 2)))]),
        ]))
        builder.append(.set([Change(card, .hidden, .flag(true)), Change(covers[i], .hidden, .flag(true)), Change(card, .zIndex, .number(0))]))
    }
}
