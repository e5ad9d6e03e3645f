import Geometry
import Planner

/// Builds the expanding-cells plan phase by phase, on the shared planner.
///
/// Layers, bottom to top: the list screen; the row highlight; the container (clipped, white)
/// holding the row's snapshot, its highlight and the detail; the regions above and below the
/// row; the navigation bar (bottom-aligned on the bar colour, so it slides up as it shrinks
/// and fills the gap when the detail is pulled); the two status bars. The slices leave out
/// the status bar strip: the status bar stays put, as UIKit's own does.
struct ExpandingCellsChoreography {
    let c: ExpandingCellsConfig
    var builder: PlanBuilder
    let list, highlight, container, cell, cellHighlight, detail, top, bottom, navbar, statusLight, statusDark: LayerID
    let w: Double, h: Double, row: Rect, sb: Double
    /// The detail's resting position.
    let detailRest: Point
    /// Where the content is: shown (detail) and pulled by how much, and by what gesture.
    var showingDetail = false
    var pulled: (distance: Double, drive: GestureDrive)? = nil
    var statusIsLight = true

    init(_ c: ExpandingCellsConfig, sizes: ImageSizes) throws {
        self.c = c
        let canvas = c.settings.canvas
        (w, h, row, sb) = (canvas.width, canvas.height, c.layout.tappedRow, c.layout.statusBarHeight)
        try requireInside(row, canvas, key: "layout.tappedRow")
        guard c.layout.barHeight >= sb, c.layout.barHeight <= row.minY else {
            throw SceneError.invalid(key: "layout.barHeight", message: "\(c.layout.barHeight) must be between statusBarHeight (\(sb)) and the tapped row's top (\(row.minY))")
        }
        let images = ExpandingCells.images(c)
        let listScale = try screenScale(images[0], sizes, canvas: canvas)
        let detailScale = try screenScale(images[1], sizes, canvas: canvas)
        let lightScale = try stripScale(images[2], sizes, canvas: canvas, height: sb)
        let darkScale = try stripScale(images[3], sizes, canvas: canvas, height: sb)

        func listSlice(_ r: Rect, mode: ContentMode = .scaleToFill) -> LayerContent {
            .snapshot(Snapshot(image: "list", source: r.scaled(by: listScale), pixelsPerPoint: listScale, mode: mode))
        }
        func state(_ r: Rect, hidden: Bool = false, alpha: Double = 1) -> LayerState {
            var s = LayerState(frame: r)
            s.isHidden = hidden
            s.alpha = alpha
            return s
        }
        var b = PlanBuilder(canvas: canvas)
        list = try b.addLayer("list", content: listSlice(Rect(x: 0, y: 0, width: w, height: h)), initial: state(Rect(x: 0, y: 0, width: w, height: h)))
        highlight = try b.addLayer("highlight", content: .color(c.layout.highlight), initial: state(row, alpha: 0))
        var box = state(row, hidden: true)
        box.clipsToBounds = true
        box.backgroundColor = c.layout.detailBackground
        container = try b.addLayer("container", content: .none, initial: box)
        cell = try b.addLayer("cell", content: listSlice(row), initial: state(Rect(x: 0, y: 0, width: w, height: row.height)), parent: container)
        cellHighlight = try b.addLayer("cell-highlight", content: .color(c.layout.highlight),
                                       initial: state(Rect(x: 0, y: 0, width: w, height: row.height), alpha: 0), parent: container)
        let detailFrame = Rect(x: 0, y: sb, width: w, height: h - sb)
        detailRest = detailFrame.center
        detail = try b.addLayer("detail", content: .snapshot(Snapshot(image: "detail", source: detailFrame.scaled(by: detailScale), pixelsPerPoint: detailScale)),
                                initial: state(detailFrame, alpha: 0), parent: container)
        top = try b.addLayer("top", content: listSlice(Rect(x: 0, y: sb, width: w, height: row.minY - sb)),
                             initial: state(Rect(x: 0, y: sb, width: w, height: row.minY - sb), hidden: true))
        bottom = try b.addLayer("bottom", content: listSlice(Rect(x: 0, y: row.maxY, width: w, height: h - row.maxY)),
                                initial: state(Rect(x: 0, y: row.maxY, width: w, height: h - row.maxY), hidden: true))
        var bar = state(Rect(x: 0, y: 0, width: w, height: c.layout.barHeight), hidden: true)
        bar.backgroundColor = c.layout.barColor
        bar.clipsToBounds = true
        navbar = try b.addLayer("navbar", content: listSlice(Rect(x: 0, y: sb, width: w, height: c.layout.barHeight - sb), mode: .bottom), initial: bar)
        let strip = Rect(x: 0, y: 0, width: w, height: sb)
        statusLight = try b.addLayer("status-light", content: .snapshot(Snapshot(image: "status-light", source: strip.scaled(by: lightScale), pixelsPerPoint: lightScale)),
                                     initial: state(strip, hidden: true))
        statusDark = try b.addLayer("status-dark", content: .snapshot(Snapshot(image: "status-dark", source: strip.scaled(by: darkScale), pixelsPerPoint: darkScale)),
                                    initial: state(strip, hidden: true, alpha: 0))
        builder = b
    }

    // MARK: Rest states

    /// The transition's list end: every piece where the list screen has it.
    var listEnd: [Change] {
        Change.frame(container, row) + Change.frame(top, Rect(x: 0, y: sb, width: w, height: row.minY - sb))
            + Change.frame(bottom, Rect(x: 0, y: row.maxY, width: w, height: h - row.maxY))
            + Change.frame(navbar, Rect(x: 0, y: 0, width: w, height: c.layout.barHeight))
            + [Change(cell, .alpha, .number(1)), Change(detail, .alpha, .number(0)), Change(detail, .position, .point(detailRest))]
    }

    /// The detail end: the container fills the screen, the regions have slid away.
    var detailEnd: [Change] {
        Change.frame(container, Rect(x: 0, y: 0, width: w, height: h))
            + Change.frame(top, Rect(x: 0, y: sb - row.minY, width: w, height: row.minY - sb))
            + Change.frame(bottom, Rect(x: 0, y: h, width: w, height: h - row.maxY))
            + Change.frame(navbar, Rect(x: 0, y: 0, width: w, height: 0))
            + [Change(cell, .alpha, .number(0)), Change(cellHighlight, .alpha, .number(0)), Change(detail, .alpha, .number(1)),
               Change(detail, .position, .point(detailRest))]
    }

    /// Shows the transition's pieces (or the plain list screen).
    func pieces(_ shown: Bool) -> [Change] {
        [Change(list, .hidden, .flag(shown)), Change(highlight, .alpha, .number(0))]
            + [container, top, bottom, navbar, statusLight, statusDark].map { Change($0, .hidden, .flag(!shown)) }
    }

    func statusBar(light: Bool) -> [Change] {
        [Change(statusLight, .alpha, .number(light ? 1 : 0)), Change(statusDark, .alpha, .number(light ? 0 : 1))]
    }

    var fade: Curve { .bezier(.easeInEaseOut, duration: max(0.01, c.timing.statusBarFade)) }

    // MARK: Phases

    mutating func append(_ phase: ExpandingCells.Phase) throws {
        switch phase {
        case .holdList:
            builder.append(.hold(c.timing.listHold))
        case .tap:
            try requireList(phase)
            builder.append(.set([Change(highlight, .alpha, .number(1)), Change(cellHighlight, .alpha, .number(1))]))
            builder.append(.hold(c.timing.tapHold))
        case .present:
            try requireList(phase)
            builder.append(.set(pieces(true) + listEnd + statusBar(light: true)))
            builder.append(.parallel([.animate(c.present.curve, detailEnd), .animate(fade, statusBar(light: false))]))
            showingDetail = true
            statusIsLight = false
        case .showDetail:
            builder.append(.set(pieces(true) + detailEnd + statusBar(light: false)))
            showingDetail = true
            statusIsLight = false
        case .holdDetail:
            builder.append(.hold(c.timing.detailHold))
        case .pull:
            try requireDetail(phase)
            let finger = fingerTravel(for: c.pull.distance)
            let track = GestureTrack(pressAt: Point(x: w / 2, y: h * 0.4)).dragging(by: 0, finger, over: c.pull.duration, easing: .easeInEaseOut)
                .holding(for: c.pull.hold)
            appendPull(track)
        case .bouncePull:
            try requireDetail(phase)
            let out = fingerTravel(for: c.bounce.distance), back = fingerTravel(for: c.bounce.returnTo)
            let track = GestureTrack(pressAt: Point(x: w / 2, y: h * 0.4)).dragging(by: 0, out, over: c.bounce.duration, easing: .easeInEaseOut)
                .holding(for: c.bounce.hold).dragging(by: 0, back - out, over: c.bounce.returnDuration, easing: .easeInEaseOut)
            appendPull(track)
        case .release:
            guard let (distance, drive) = pulled else {
                throw SceneError.invalid(key: "storyboard", message: "release needs a pull before it")
            }
            pulled = nil
            if distance > c.pull.threshold {
                // The finger's downward speed helps the container's top down into the row; as
                // a fraction of the pull per second (an approximation: the row is further away).
                appendDismiss(velocity: -drive.releaseVelocity(toward: 0))
            } else {
                var steps: [Step] = [.animate(c.pull.springBack.curve.with(velocity: drive.releaseVelocity(toward: 0)),
                                              [Change(detail, .position, .point(detailRest))] + Change.frame(navbar, Rect(x: 0, y: 0, width: w, height: 0)))]
                if statusIsLight { steps.append(.animate(fade, statusBar(light: false))) }
                statusIsLight = false
                builder.append(.parallel(steps))
            }
        case .close:
            try requireDetail(phase)
            appendDismiss(velocity: 0)
        case .holdEnd:
            builder.append(.hold(c.timing.endHold))
        }
    }

    /// The detail shrinks back into its row from wherever it is; then the list screen shows.
    mutating func appendDismiss(velocity: Double) {
        var steps: [Step] = [.animate(c.dismiss.curve.with(velocity: velocity), listEnd)]
        if !statusIsLight { steps.append(.animate(fade, statusBar(light: true))) }
        builder.append(.parallel(steps))
        builder.append(.set(pieces(false)))
        showingDetail = false
        statusIsLight = true
    }

    /// The content follows the finger through the rubber band; the bar fills the gap above it;
    /// the status bar changes style each time the pull crosses the threshold.
    mutating func appendPull(_ track: GestureTrack) {
        let drive = GestureDrive(track: track, axis: .y, distance: h, mapping: .rubberBand(dimension: h))
        let follow = Step.interactive(drive, changes: [Change(detail, .position, .point(Point(x: detailRest.x, y: detailRest.y + h)))]
            + Change.frame(navbar, Rect(x: 0, y: 0, width: w, height: h)))
        var steps: [Step] = [follow]
        var light = statusIsLight
        var t = 0.0
        while t <= track.duration {
            let isPast = drive.progress(at: t) * h > c.pull.threshold
            if isPast != light {
                light = isPast
                steps.append(.sequence([.hold(t), .animate(fade, statusBar(light: light))]))
            }
            t += 0.001
        }
        statusIsLight = light
        // The step lasts until the finger lifts or the last fade ends, whichever is later.
        builder.append(.parallel(steps))
        pulled = (drive.releaseProgress * h, drive)
    }

    /// How far the finger moves for the content to show `distance` through the rubber band:
    /// the inverse of b(x) = c·x·d/(d + c·x).
    func fingerTravel(for distance: Double) -> Double {
        let d = h, k = ScrollPhysics.rubberBandConstant
        let b = min(distance, d * 0.999)
        return b * d / (k * (d - b))
    }

    func requireList(_ phase: ExpandingCells.Phase) throws {
        if showingDetail { throw SceneError.invalid(key: "storyboard", message: "\(phase.rawValue) needs the list showing") }
    }

    func requireDetail(_ phase: ExpandingCells.Phase) throws {
        if !showingDetail { throw SceneError.invalid(key: "storyboard", message: "\(phase.rawValue) needs the detail showing") }
    }
}
