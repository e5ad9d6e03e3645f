@testable import Fit
import Geometry
import Foundation
import Testing

/// The score's tracker, capture model and stroke fit on synthetic frames whose answers are
/// known: a bar's edge, a sliding patch and a tinted card drawn at known positions, a copy one
/// frame later, a 25 fps capture of a 60 Hz display, and a pull of known stroke.
@Suite("Features are followed, aligned and fitted where the answer is known")
struct TrackingTests {
    static let (width, height, dt) = (120, 240, 0.04)
    static let blue = (48, 103, 244), brown = (163, 115, 74)

    /// Rests, moves over frames 10-20 on a smooth curve, then rests.
    static func ease(_ i: Int) -> Double {
        let k = min(1, max(0, Double(i - 10) / 10))
        return k * k * (3 - 2 * k)
    }

    /// A frame with the bar's bottom at 20...100, a noise patch's top at 120...180 and a brown
    /// card's left edge at 10...60.
    static func frame(_ i: Int) -> ScoreImage {
        var rgb = [UInt8](repeating: 255, count: width * height * 3)
        func paint(_ x: Int, _ y: Int, _ c: (Int, Int, Int)) {
            let o = (y * width + x) * 3
            (rgb[o], rgb[o + 1], rgb[o + 2]) = (UInt8(c.0), UInt8(c.1), UInt8(c.2))
        }
        let e = ease(i)
        for y in 0..<20 + Int((80 * e).rounded()) { for x in 0..<width { paint(x, y, blue) } }
        var seed: UInt64 = 7
        let top = 120 + Int((60 * e).rounded())
        for y in 0..<30 {
            for x in 0..<60 {
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let v = Int(seed >> 56)
                paint(30 + x, top + y, (v, v, v))
            }
        }
        for y in 205...230 { for x in 10 + Int((50 * e).rounded())..<width { paint(x, y, brown) } }
        return ScoreImage(width: width, height: height, rgb: rgb)
    }

    static let recording = (0..<32).map(frame)
    static func track(_ kind: RecordingFeature.Kind, _ frames: [ScoreImage] = recording) -> [Double?] {
        FeatureTracker(feature: RecordingFeature(name: "f", kind: kind), frames: frames.count, interval: dt) {
            frames[$0]
        }.positions()
    }
    static let bar = RecordingFeature.Kind.extent(
        start: (5, 0), to: 239, axis: .y, colour: .given(r: 48, g: 103, b: 244), until: false)

    @Test("Extent, shift and edge find the bar, the patch and the card at every frame")
    func kinds() throws {
        #expect(Self.track(Self.bar) == (0..<32).map { Double(20 + Int((80 * Self.ease($0)).rounded())) })
        let patch = Self.track(.shift(rect: Crop(x: 30, y: 120, width: 60, height: 30), at: 0, axis: .y, search: 80))
        for (i, p) in patch.enumerated() {
            #expect(
                p.map { abs($0 - Double(120 + Int((60 * Self.ease(i)).rounded()))) < 0.1 } == true,
                "\(i): \(String(describing: p))")
        }
        let tinted = try ColourTest("r - b > 50")
        #expect(
            Self.track(.edge(line: 218, axis: .x, from: 0, to: 119, band: 0, test: tinted))
                == (0..<32).map { Double(10 + Int((50 * Self.ease($0)).rounded())) })
        // A row that starts inside the card: its edge is off screen.
        #expect(
            Self.track(.edge(line: 218, axis: .x, from: 80, to: 119, band: 0, test: tinted), [Self.recording[31]]) == [
                nil
            ])
    }

    /// Frame `i` of a fade and a fall: black, a white 6 px square whose top is at 5 + i and
    /// whose left is at 20, over a strip along the bottom grey at 20·i levels.
    static func fading(_ i: Int) -> ScoreImage {
        let side = 40
        var rgb = [UInt8](repeating: 0, count: side * side * 3)
        for y in 0..<side {
            for x in 0..<side {
                let v = y >= 30 ? 20 * i : (20..<26).contains(x) && (5 + i..<11 + i).contains(y) ? 255 : 0
                for c in 0..<3 { rgb[(y * side + x) * 3 + c] = UInt8(v) }
            }
        }
        return ScoreImage(width: side, height: side, rgb: rgb)
    }

    @Test("A level is the way from one look to another, in per cent; an edge down a column finds what its band reaches")
    func levelsAndColumns() throws {
        let frames = (0...10).map(Self.fading)
        let tenths: [Double?] = (0...10).map { (i: Int) -> Double? in Double(10 * i) }
        #expect(Self.track(.level(rect: Crop(x: 0, y: 30, width: 40, height: 10), from: 0, to: 0.4), frames) == tenths)
        // From the 100 % look back to none: the scale runs the other way.
        #expect(Self.track(.level(rect: Crop(x: 0, y: 30, width: 40, height: 10), from: 0.4, to: 0), frames)[2] == 80)
        // One look twice gives no scale: nothing is measured.
        #expect(
            Self.track(.level(rect: Crop(x: 0, y: 0, width: 4, height: 4), from: 0, to: 0.4), frames)
                == [Double?](repeating: nil, count: 11))
        let white = try ColourTest("r > 200")
        let edges: [Double?] = (0...10).map { (i: Int) -> Double? in Double(5 + i) }
        #expect(Self.track(.edge(line: 10, axis: .y, from: 0, to: 29, band: 12, test: white), frames) == edges)
        // The line alone misses the square; a band that ends a pixel short of it too.
        #expect(
            Self.track(.edge(line: 10, axis: .y, from: 0, to: 29, band: 0, test: white), frames).allSatisfy {
                $0 == nil
            })
        #expect(
            Self.track(.edge(line: 10, axis: .y, from: 0, to: 29, band: 9, test: white), frames).allSatisfy {
                $0 == nil
            })
        #expect(Self.track(.edge(line: 10, axis: .y, from: 0, to: 29, band: 10, test: white), frames)[0] == 5)
    }

    @Test(
        "A copy one frame later has a lag of +1 frame and nothing left; a lag that drops the moving frames does not count"
    )
    func lags() {
        let bar = Self.track(Self.bar)
        let late = Self.track(Self.bar, [Self.recording[0]] + Self.recording.dropLast())
        let found = MotionScore.bestLag(bar, late, frames: Array(0..<32))
        #expect(found?.lag == 1 && found!.rms < 1e-9, "\(String(describing: found))")
        let errors = MotionScore.errors(bar, late)
        #expect(errors.map { $0.rms > 3 && abs($0.worst) > 10 && $0.count == 32 } == true)
        // Frames 11-20 move; the stretch is padded by three frames each side.
        #expect(MotionScore.stretches(bar) == [7..<24])
        // The recording moves only in its last tracked frame, ours the same: shifting ours a
        // frame later would drop that frame and leave still frames that agree.
        let last: [Double?] = [Double?](repeating: 30, count: 20) + [nil, 130, nil]
        let ours: [Double?] = [Double?](repeating: 30, count: 21) + [129, 246, nil]
        let frames = last.indices.filter { last[$0] != nil }
        let dropped = MotionScore.bestLag(last, ours, frames: frames)
        #expect(dropped?.lag == 0 && (0.2..<0.3).contains(dropped!.rms), "\(String(describing: dropped))")
    }

    @Test("A 25 fps capture keeps display frames 2 or 3 apart; the capture fit finds its phase and a 10 ms lag")
    func capture() {
        #expect(CaptureModel.stepsUnevenly(1 / 25))
        #expect(![1.0 / 30, 0.1, 0.3].contains(where: CaptureModel.stepsUnevenly))
        for p in 0..<10 {
            let phase = Double(p) / 10
            let drawn = (0..<50).map { CaptureModel.drawnAt($0, interval: 1 / 25, phase: phase) }
            #expect(drawn.enumerated().allSatisfy { i, t in (-1e-9..<1 / 60 + 1e-9).contains(Double(i) / 25 - t) })
            let kept = drawn.map { Int(($0 * 60 + phase).rounded()) }
            #expect(Set(zip(kept, kept.dropFirst()).map { $1 - $0 }) == [2, 3])
        }
        func move(_ t: Double) -> Double {
            let k = min(1, max(0, (t - 0.4) / 0.3))
            return 100 + 300 * k * k * (3 - 2 * k)
        }
        let captured: [Double?] = (0..<30).map { move(CaptureModel.drawnAt($0, interval: 1 / 25, phase: 0.3)) }
        let fine: [Double?] = (0..<144).map { move(Double($0) / 120 - 0.010) }
        let fit = CaptureModel.bestFit(captured, fine: fine, interval: 1 / 25, frames: Array(0..<30))
        #expect(
            fit.map { $0.phase == 0.3 && abs($0.lag - 0.010) <= 0.001 && $0.rms < 0.5 && abs($0.worst) < 1 } == true,
            "\(String(describing: fit))")
        // Sampled at even instants, no lag aligns the same motion within 2 px.
        let even: [Double?] = (0..<30).map { move(Double($0) / 25 - 0.010) }
        #expect((MotionScore.bestLag(captured, even, frames: Array(0..<30))?.rms ?? 0) > 2)
    }

    @Test("The stroke fit finds a pull of known stroke again, from a 25 fps capture and at an even 30 fps")
    func stroke() {
        let truth = Stroke(start: 1.2, duration: 0.5, distance: 110, profile: [0.4, 0.2, 0.5, 1.0])
        let half = 0.5 / 60
        let pull = Dictionary(
            uniqueKeysWithValues: (25...50).map {
                ($0, truth.shown(at: CaptureModel.drawnAt($0, interval: 0.04, phase: 0.3) + half, dimension: 667))
            })
        let fit = Scorer.fitStroke(to: pull, interval: 0.04, before: 2.0, dimension: 667)
        // A 25 fps capture tells the display's phase only to within the 0.2 of a frame that
        // keeps the same frames apart; the start takes up the rest.
        #expect(fit.rms < 0.1 && abs(fit.stroke.start - 1.2) < 0.005 && abs(fit.stroke.duration - 0.5) < 0.01, "\(fit)")
        #expect(abs(fit.stroke.distance - 110) < 0.5 && abs(fit.phase! - 0.3) <= 0.1 + 1e-9, "\(fit)")
        let even = Dictionary(
            uniqueKeysWithValues: (30...60).map { ($0, truth.shown(at: Double($0) / 30, dimension: 667)) })
        let evenFit = Scorer.fitStroke(to: even, interval: 1.0 / 30, before: 2.0, dimension: 667)
        #expect(evenFit.phase == nil && evenFit.rms < 0.1 && abs(evenFit.stroke.start - 1.2) < 0.005, "\(evenFit)")
        #expect(abs(evenFit.stroke.distance - 110) < 0.5)
        // Nothing shows until two refreshes after the start, and then no jump.
        #expect(truth.shown(at: 1.2 + 2.0 / 60, dimension: 667) == 0)
        #expect((0..<0.2).contains(truth.shown(at: 1.2 + 2.0 / 60 + 0.001, dimension: 667)))
    }

    @Test(
        "A feature read from the parts a score keeps finds what it finds in whole frames, for random features and frames"
    )
    func partsReadAsWholes() throws {
        var seed: UInt64 = 11
        func next(_ n: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(n))
        }
        let tests = [try ColourTest("r - b > 50"), try ColourTest("r > 200 and g > 200")]
        for round in 0..<120 {
            let (w, h) = (20 + next(90), 20 + next(90))
            // Moving blocks over noise: something for every kind to find.
            let frames = (0..<6).map { i -> ScoreImage in
                var rgb = (0..<w * h * 3).map { _ in UInt8(next(256)) }
                let (bx, by) = (next(w / 2) + i, next(h / 2) + i)
                for y in by..<min(h, by + h / 3) {
                    for x in bx..<min(w, bx + w / 3) { (rgb[(y * w + x) * 3], rgb[(y * w + x) * 3 + 2]) = (230, 40) }
                }
                return ScoreImage(width: w, height: h, rgb: rgb)
            }
            let axis: RecordingFeature.Axis = next(2) == 0 ? .x : .y
            let (along, across) = axis == .x ? (w, h) : (h, w)
            let rw = 1 + next(w / 2), rh = 1 + next(h / 2)
            let rect = Crop(x: next(w - rw + 1), y: next(h - rh + 1), width: rw, height: rh)
            let start = (x: next(w), y: next(h))
            let kind: RecordingFeature.Kind =
                switch round % 4 {
                case 0:
                    .extent(
                        start: start, to: next(along + 20) - 10, axis: axis,
                        colour: next(2) == 0 ? .given(r: 230, g: 0, b: 40) : .at(x: next(w), y: next(h), t: 0.04),
                        until: next(2) == 0)
                case 1:
                    .edge(
                        line: next(across), axis: axis, from: next(along), to: next(along + 20) - 10, band: next(8),
                        test: tests[next(2)])
                case 2: .level(rect: rect, from: 0, to: 0.16)
                default: .shift(rect: rect, at: 0.08, axis: axis, search: 1 + next(40))
                }
            let feature = RecordingFeature(name: "f", kind: kind)
            let region = feature.region(width: w, height: h)
            let parts = frames.map { $0.part(region) }
            func positions(_ f: [ScoreImage]) -> [Double?] {
                FeatureTracker(feature: feature, frames: f.count, interval: 0.04) { f[$0] }.positions()
            }
            #expect(positions(parts) == positions(frames), "round \(round): \(kind) in \(w)x\(h), part \(region)")
        }
    }

    @Test("A part of a render placed on the recording's frame is the whole placement there, byte for byte")
    func placedWithin() {
        var seed: UInt64 = 5
        func next(_ n: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(n))
        }
        for _ in 0..<100 {
            let (w, h) = (8 + next(60), 8 + next(60))
            let image = ScoreImage(width: w, height: h, rgb: (0..<w * h * 3).map { _ in UInt8(next(256)) })
            let size = (width: 10 + next(120), height: 10 + next(120))
            let screen =
                next(2) == 0
                ? nil
                : Crop(x: next(size.width / 2), y: next(size.height / 2), width: 4 + next(80), height: 4 + next(80))
            let within = PixelRect(
                x: next(size.width), y: next(size.height), width: 1 + next(size.width), height: 1 + next(size.height)
            ).intersection(PixelRect(x: 0, y: 0, width: size.width, height: size.height))
            let whole = image.placed(in: size, screen: screen)
            let part = image.placed(in: size, screen: screen, part: within)
            #expect(part == whole.part(within), "\(w)x\(h) into \(size) at \(String(describing: screen))")
        }
    }
}
