import Geometry
import Testing
@testable import Planner

@Suite("Layers, timelines and sampling")
struct TimelineTests {
    func builder() -> PlanBuilder { PlanBuilder(canvas: Size(width: 375, height: 667)) }

    @Test("Sequences add up, parallels take the longest, delays count")
    func durations() {
        let a = Step.animate(.spring(duration: 0.6, damping: 1), [])
        let b = Step.animate(.bezier(.easeIn, duration: 0.4), delay: 0.1, changes: [])
        #expect(Step.sequence([a, .hold(1), b]).duration == 2.1)
        #expect(abs(Step.parallel([a, b]).duration - 0.6) < 1e-12)
    }

    @Test("A layer follows its curve exactly, from its initial value")
    func followsCurve() throws {
        var p = builder()
        let card = try p.addLayer(
            "card", content: .color(.white), initial: LayerState(frame: Rect(x: 0, y: 169, width: 375, height: 70)))
        p.append(.hold(1))
        let curve = Curve.spring(duration: 0.6, damping: 1)
        p.append(.animate(curve, Change.frame(card, Rect(x: 0, y: 0, width: 375, height: 667))))
        let plan = p.build()
        for t in stride(from: 0.0, through: 2.0, by: 0.05) {
            let f = plan.state(of: card, at: t).frame
            let k = curve.progress(at: t - 1)
            #expect(abs(f.minY - 169 * (1 - k)) < 1e-9 && abs(f.height - (70 + 597 * k)) < 1e-9)
        }
    }

    @Test(
        "The screen shows a change two refreshes after it is made, already that far in; the model has it at once; changes at 0 show at once"
    )
    func presentationLatency() throws {
        var p = builder()
        let l = try p.addLayer(
            "l", content: .color(.black), initial: LayerState(frame: Rect(x: 0, y: 0, width: 10, height: 10)))
        p.append(.set([Change(l, .alpha, .number(0.5))]))
        p.append(.hold(1))
        p.append(.set([Change(l, .hidden, .flag(true))]))
        p.append(.animate(.bezier(.linear, duration: 1), [Change(l, .alpha, .number(1))]))
        let plan = p.build()
        let latency = Plan.presentationLatency
        #expect(latency == 2.0 / 60)
        #expect(plan.state(of: l, at: 0).alpha == 0.5)
        // Made at 1 s: not on screen until 1 s + latency, then already `latency` into it.
        for t in [1.0, 1.01, 1.0 + latency * 0.99] {
            #expect(plan.state(of: l, at: t).alpha == 0.5 && !plan.state(of: l, at: t).isHidden)
            #expect(abs(plan.modelState(of: l, at: t).alpha - (0.5 + 0.5 * (t - 1))) < 1e-9)
            #expect(plan.modelState(of: l, at: t).isHidden)
        }
        #expect(abs(plan.state(of: l, at: 1 + latency).alpha - (0.5 + 0.5 * latency)) < 1e-9)
        #expect(plan.state(of: l, at: 1 + latency).isHidden)
        #expect(abs(plan.state(of: l, at: 1.5).alpha - 0.75) < 1e-9)
    }

    @Test("A later animation starts from the presentation value (beginFromCurrentState)")
    func interrupts() throws {
        var p = builder()
        let l = try p.addLayer(
            "l", content: .color(.black), initial: LayerState(frame: Rect(x: 0, y: 0, width: 10, height: 10)))
        p.append(
            .parallel([
                .animate(.bezier(.linear, duration: 1), [Change(l, .alpha, .number(0))]),
                .animate(.bezier(.linear, duration: 1), delay: 0.5, changes: [Change(l, .alpha, .number(1))]),
            ]))
        let plan = p.build()
        #expect(abs(plan.state(of: l, at: 0.25).alpha - 0.75) < 1e-12)
        #expect(abs(plan.state(of: l, at: 0.5).alpha - 0.5) < 1e-12)
        #expect(abs(plan.state(of: l, at: 1.0).alpha - 0.75) < 1e-12)
        #expect(plan.state(of: l, at: 1.5).alpha == 1)
    }

    @Test("Two curves on one layer: position on a spring, size linear over 0.6 of it (the App Store card)")
    func twoCurves() throws {
        var p = builder()
        var start = LayerState(frame: Rect(x: 20, y: 300, width: 335, height: 402))
        start.cornerRadius = 16
        let card = try p.addLayer("card", content: .color(.white), initial: start)
        let spring = Curve.spring(duration: 0.7, damping: 0.8)
        let linear = Curve.bezier(.linear, duration: 0.42)
        p.append(
            .parallel([
                .animate(spring, [Change(card, .center, .point(Point(x: 187.5, y: 333.5)))]),
                .animate(
                    linear,
                    [
                        Change(card, .size, .size(Size(width: 375, height: 667))),
                        Change(card, .cornerRadius, .number(0)),
                    ]),
            ]))
        let plan = p.build()
        for t in [0.05, 0.2, 0.35, 0.5, 0.69] {
            let s = plan.state(of: card, at: t)
            let k = spring.progress(at: t), m = linear.progress(at: t)
            #expect(abs(s.position.y - (501 + (333.5 - 501) * k)) < 1e-9)
            #expect(abs(s.size.width - (335 + 40 * m)) < 1e-9)
            #expect(abs(s.cornerRadius - 16 * (1 - m)) < 1e-9)
        }
        #expect(plan.state(of: card, at: 0.6).size == Size(width: 375, height: 667))
    }

    @Test(
        "An interactive step scrubs linearly with the gesture, shown two refreshes late without a jump; a release spring continues from the finger's last position"
    )
    func interactiveAndRelease() throws {
        var p = builder()
        let card = try p.addLayer(
            "card", content: .color(.white), initial: LayerState(frame: Rect(x: 0, y: 0, width: 375, height: 667)))
        let track = GestureTrack(pressAt: Point(x: 100, y: 100)).dragging(by: 0, 60, over: 0.5).releasing(
            velocity: Point(x: 0, y: 200))
        let drive = GestureDrive(track: track, axis: .y, distance: 100)
        p.append(.hold(1))
        p.append(.interactive(drive, changes: [Change(card, .scale, .number(0.86))]))
        let back = Curve.spring(duration: 0.6, damping: 0.7, velocity: drive.releaseVelocity(toward: 0))
        p.append(.animate(back, [Change(card, .scale, .number(1))]))
        let plan = p.build()
        let latency = Plan.presentationLatency
        #expect(abs(drive.releaseProgress - 0.6) < 1e-12)
        #expect(abs(drive.releaseVelocity(toward: 0) - (2.0 / -0.6)) < 1e-9)
        // Touch-down at 1 s: the screen shows the card where it was until then, and from then
        // on where the finger was `latency` before, starting from rest.
        for t in [1.0, 1.0 + latency * 0.99, 1.0 + latency] {
            #expect(plan.state(of: card, at: t).scale == 1)
        }
        #expect(abs(plan.modelState(of: card, at: 1.25).scale - (1 - 0.14 * 0.3)) < 1e-9)
        #expect(abs(plan.state(of: card, at: 1.25 + latency).scale - (1 - 0.14 * 0.3)) < 1e-9)
        // Lift at 1.5 s: the finger's last stretch still shows until the spring does, which
        // starts from where the finger lifted.
        let atRelease = 1 - 0.14 * 0.6
        #expect(abs(plan.modelState(of: card, at: 1.5).scale - atRelease) < 1e-9)
        #expect(abs(plan.state(of: card, at: 1.5).scale - (1 - 0.14 * 0.6 * (0.5 - latency) / 0.5)) < 1e-9)
        for after in [latency, 0.2] {
            let spring = atRelease + (1 - atRelease) * back.progress(at: after)
            #expect(abs(plan.state(of: card, at: 1.5 + after).scale - spring) < 1e-9)
        }
    }

    @Test("Samples are deterministic and frames independent")
    func deterministic() throws {
        var p = builder()
        let l = try p.addLayer(
            "l", content: .color(.black), initial: LayerState(frame: Rect(x: 0, y: 0, width: 100, height: 100)))
        p.append(.animate(.spring(duration: 0.6, damping: 0.7), [Change(l, .scale, .number(2))]))
        let plan = p.build()
        let times = frameTimes(fps: 30, duration: plan.duration)
        #expect(times.count == 18)
        let forward = times.map { plan.sample(at: $0, scale: 2) }
        let backward = times.reversed().map { plan.sample(at: $0, scale: 2) }.reversed()
        #expect(forward == Array(backward))
    }

    @Test("Sampling resolves nesting: transforms, clips, alpha, z-order, content modes, output scale")
    func sampling() throws {
        var p = builder()
        var containerState = LayerState(frame: Rect(x: 10, y: 100, width: 200, height: 100))
        containerState.clipsToBounds = true
        containerState.cornerRadius = 8
        containerState.alpha = 0.5
        containerState.backgroundColor = .white
        let container = try p.addLayer("container", content: .none, initial: containerState)
        var top = LayerState(frame: Rect(x: 0, y: 0, width: 200, height: 40))
        top.zIndex = 1
        try p.addLayer("above", content: .color(.black), initial: top, parent: container)
        var child = LayerState(frame: Rect(x: 50, y: 20, width: 100, height: 200))
        child.scale = 0.5
        try p.addLayer(
            "detail",
            content: .snapshot(
                Snapshot(image: "detail", source: Rect(x: 0, y: 0, width: 200, height: 400), pixelsPerPoint: 2)),
            initial: child, parent: container)
        var bar = LayerState(frame: Rect(x: 0, y: 0, width: 375, height: 30))
        bar.clipsToBounds = true
        try p.addLayer(
            "bar",
            content: .snapshot(
                Snapshot(
                    image: "list", source: Rect(x: 0, y: 0, width: 750, height: 128), pixelsPerPoint: 2, mode: .bottom)),
            initial: bar)
        let list = p.build().sample(at: 0, scale: 2)
        #expect(list.size == Size(width: 750, height: 1334))
        #expect(list.commands.map(\.layer) == ["container", "detail", "above", "bar"])
        let detail = list.commands[1]
        // Centre (100, 120) in the container, half size: (75, 70, 50, 100) → screen (85, 170) → ×2.
        #expect(detail.rect == Rect(x: 170, y: 340, width: 100, height: 200))
        #expect(detail.scale == 0.5 && detail.alpha == 0.5)
        #expect(detail.clip == DrawCommand.Clip(rect: Rect(x: 20, y: 200, width: 400, height: 200), cornerRadius: 16))
        #expect(list.commands[0].kind == .fill(.white) && list.commands[0].cornerRadius == 16)
        let barCommand = list.commands[3]
        // Natural 64 pt, bottom-aligned in a 30 pt layer: starts at −34 pt, clipped to the layer.
        #expect(barCommand.rect == Rect(x: 0, y: -68, width: 750, height: 128))
        #expect(barCommand.clip?.rect == Rect(x: 0, y: 0, width: 750, height: 60))
    }

    @Test("contentOffset scrolls a snapshot up and left inside its layer, which then clips it, whatever its mode")
    func contentOffset() throws {
        var p = builder()
        var page = LayerState(frame: Rect(x: 0, y: 100, width: 200, height: 300))
        page.contentOffset = Point(x: 5, y: 40)
        let layer = try p.addLayer(
            "page",
            content: .snapshot(
                Snapshot(image: "detail", source: Rect(x: 0, y: 0, width: 400, height: 600), pixelsPerPoint: 2)),
            initial: page)
        p.append(.animate(.bezier(.linear, duration: 1), [Change(layer, .contentOffset, .point(Point(x: 0, y: 0)))]))
        let plan = p.build()
        let start = plan.sample(at: 0, scale: 2).commands[0]
        #expect(start.rect == Rect(x: -10, y: 120, width: 400, height: 600))
        #expect(start.clip?.rect == Rect(x: 0, y: 200, width: 400, height: 600))
        #expect(plan.sample(at: 0.5, scale: 2).commands[0].rect.minY == 160)
        // Back at zero, a scale-to-fill snapshot fills its layer exactly and needs no clip.
        let end = plan.sample(at: 1, scale: 2).commands[0]
        #expect(end.rect == Rect(x: 0, y: 200, width: 400, height: 600) && end.clip == nil)
    }

    @Test("Hidden layers and their children draw nothing; a name is used once")
    func hiddenAndNames() throws {
        var p = builder()
        var s = LayerState(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        s.isHidden = true
        let parent = try p.addLayer("hidden", content: .color(.black), initial: s)
        try p.addLayer(
            "child", content: .color(.white), initial: LayerState(frame: Rect(x: 0, y: 0, width: 5, height: 5)),
            parent: parent)
        #expect(p.build().sample(at: 0, scale: 1).commands.isEmpty)
        #expect(throws: PlanError.self) { try p.addLayer("child", content: .none, initial: s) }
    }
}
