import Testing
@testable import GIFCore

@Suite("Frame scheduling: centisecond delays")
struct FrameSchedulerTests {
    /// Runs frames 0..<n at `fps` (all distinct unless `same` says so) and returns the delays.
    func delays(_ n: Int, fps: Double, same: (Int, Int) -> Bool = { _, _ in false }) -> (
        [Int], [Int], FrameScheduler<Int>
    ) {
        var s = FrameScheduler<Int>()
        var out: [FrameScheduler<Int>.Scheduled] = []
        for i in 0..<n { out += s.add(i, at: Double(i) / fps, sameAsShowing: same) }
        out += s.finish(at: Double(n) / fps)
        return (out.map(\.delay), out.map(\.frame), s)
    }

    @Test("30 fps: cumulative rounding gives 3, 4, 3 and an exact total")
    func thirty() {
        let (d, frames, _) = delays(36, fps: 30)
        #expect(d.reduce(0, +) == 120)
        #expect(Array(d.prefix(6)) == [3, 4, 3, 3, 4, 3])
        #expect(frames == Array(0..<36))
    }

    @Test("Any rate: every delay ≥ 2 cs and the total is exact", arguments: [24.0, 25, 50, 59.94, 60, 100, 120, 240])
    func anyRate(fps: Double) {
        for n in [1, 2, 3, 7, 72, 100, 301] {
            let (d, frames, _) = delays(n, fps: fps)
            let total = Int((Double(n) / fps * 100).rounded())
            #expect(d.reduce(0, +) == total)
            if total >= 2 { #expect(d.allSatisfy { $0 >= 2 }) }
            #expect(frames.last == n - 1, "the final frame is always shown")
        }
    }

    @Test("60 fps drops a third of the frames and keeps 2 and 3 cs delays")
    func sixty() {
        let (d, _, s) = delays(72, fps: 60)
        #expect(Set(d) == [2, 3])
        #expect(s.dropped == 72 - d.count)
        #expect(d.count == 48)
    }

    @Test("Identical neighbours merge into one longer delay")
    func merge() {
        // Frames 0-9, where 3, 4, 5 show the same picture as 2.
        let (d, frames, s) = delays(10, fps: 10, same: { a, b in (2...5).contains(a) && (2...5).contains(b) })
        #expect(frames == [0, 1, 2, 6, 7, 8, 9])
        #expect(d == [10, 10, 40, 10, 10, 10, 10])
        #expect(s.merged == 3)
    }
}
