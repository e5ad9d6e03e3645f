@testable import FlipbookCLI
import Flipbook
import Foundation
import Video
import Testing

@Suite("--max-size: sizes, the ladder of settings, and the bisection over it")
struct SizeBudgetTests {
    @Test(
        "Sizes: decimal units are powers of 1000, binary ones of 1024; nonsense and tiny budgets are refused",
        arguments: [
            ("5MB", 5_000_000), ("5mb", 5_000_000), ("5M", 5_000_000), ("800KB", 800_000), ("1.5MiB", 1_572_864),
            ("10 MB", 10_000_000), ("2048", 2048), ("1GB", 1_000_000_000),
        ])
    func sizes(text: String, bytes: Int) {
        #expect(ByteSize(text)?.bytes == bytes)
    }

    @Test("Refused sizes", arguments: ["five", "", "-5MB", "0", "1000", "MB", "nanMB", "5TB"])
    func refused(text: String) {
        #expect(ByteSize(text) == nil)
    }

    @Test("A GIF's ladder: quality from the command's own down, then lossy LZW, then fewer fps, then fewer pixels")
    func gifLadder() {
        let rungs = SizeBudget.ladder(.gif, quality: nil, fps: 30, width: 375)
        #expect(rungs.first == BudgetRung(quality: 100, fps: 30, width: 375))
        #expect(rungs.map(\.quality).prefix(11) == [100, 95, 90, 85, 80, 70, 60, 50, 40, 30, 25])
        #expect(rungs[11...13].map(\.lossy) == [8, 16, 32])
        #expect(rungs[14...16].map(\.fps) == [20, 15, 10])
        #expect(rungs.suffix(2).map(\.width) == [281, 188])
        #expect(rungs.last == BudgetRung(quality: 25, lossy: 32, fps: 10, width: 188))
        // Never above the quality asked for.
        #expect(SizeBudget.ladder(.gif, quality: 60, fps: 30, width: 375).first?.quality == 60)
    }

    @Test("A WebP's ladder starts lossless unless a quality is given; no lossy LZW; no fps rungs above the render's")
    func webpLadder() {
        let rungs = SizeBudget.ladder(.webp, quality: nil, fps: 15, width: 320)
        #expect(rungs.first == BudgetRung(quality: nil, fps: 15, width: 320))
        #expect(rungs.allSatisfy { $0.lossy == 0 })
        #expect(rungs.map(\.fps).filter { $0 != 15 } == [10, 10, 10])
        #expect(SizeBudget.ladder(.webp, quality: 80, fps: 30, width: 320).first?.quality == 80)
    }

    @Test("An MP4's ladder runs x264's CRF from 18 to 38, then fps, then width")
    func mp4Ladder() {
        let rungs = SizeBudget.ladder(.mp4, quality: nil, fps: 30, width: 375)
        #expect(rungs.prefix(8).map { MP4Options.crf(quality: $0.quality!) } == [18, 20, 23, 26, 29, 32, 35, 38])
        #expect(rungs.count == 8 + 3 + 2)
    }

    @Test("The search finds the first rung that fits in about log2(n) + 1 tries, whatever that rung is")
    func search() {
        for n in 1...40 {
            for firstFit in 0...n {
                var tries = 0
                let found = SizeBudget.search(count: n) { i in
                    tries += 1
                    return i >= firstFit
                }
                #expect(found == (firstFit < n ? firstFit : nil), "n \(n), first fit \(firstFit)")
                #expect(Double(tries) <= (log2(Double(n)) + 2).rounded(.down), "n \(n): \(tries) tries")
            }
        }
    }

    @Test("A guess that fits leaves only the rungs above it; one that does not, those below; either way the first fit")
    func searchFromAGuess() {
        for n in 1...30 {
            for guess in 0..<n {
                for firstFit in 0...n {
                    var tries: [Int] = []
                    let found = SizeBudget.search(count: n, guess: guess) { i in
                        tries.append(i)
                        return i >= firstFit
                    }
                    #expect(found == (firstFit < n ? firstFit : nil), "n \(n), guess \(guess), first fit \(firstFit)")
                    #expect(Set(tries).count == tries.count, "no rung twice: \(tries)")
                    if guess > 0 && firstFit > 0 { #expect(tries.prefix(2) == [0, guess]) }
                    #expect(Double(tries.count) <= (log2(Double(n)) + 3).rounded(.down), "n \(n): \(tries.count) tries")
                }
            }
        }
        // WebP's budgets land near quality 90: lossless, q90, then q95 is the whole search.
        var tries: [Int] = []
        let rungs = SizeBudget.ladder(.webp, quality: nil, fps: 30, width: 375)
        let q90 = rungs.firstIndex { $0.quality == 90 }!
        _ = SizeBudget.search(count: rungs.count, guess: q90) { i in
            tries.append(i)
            return i >= 1
        }
        #expect(tries.map { rungs[$0].brief } == ["lossless", "q90", "q95"])
    }

    @Test(
        "render --max-size writes the best setting that fits, says which, and leaves no trial files; an impossible budget is an error"
    )
    func endToEnd() throws {
        let folder = temporaryFolder()
        let run = try Tool.run([
            "render", "expanding-view", "--storyboard", "small", "-o", "\(folder)/v.gif", "--max-size", "60KB",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let size = try FileManager.default.attributesOfItem(atPath: "\(folder)/v.gif")[.size] as! Int
        #expect(size <= 60_000 && size > 0)
        #expect(run.stdout.contains("within 60,000 B") && run.stdout.contains("with --quality"), "\(run.stdout)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["v.gif"])
        let impossible = try Tool.run([
            "render", "expanding-view", "--storyboard", "small", "-o", "\(folder)/w.gif", "--max-size", "2KB",
        ])
        #expect(impossible.status == 1)
        #expect(impossible.stderr.contains("--max-size 2,000 B"), "\(impossible.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["v.gif"])
    }

    @Test("An MP4 over its budget at CRF 23 comes back under it at a higher CRF")
    func mp4() throws {
        let folder = temporaryFolder()
        let run = try Tool.run([
            "render", "expanding-view", "--storyboard", "small", "-o", "\(folder)/v.mp4", "--max-size", "40KB",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let size = try FileManager.default.attributesOfItem(atPath: "\(folder)/v.mp4")[.size] as! Int
        #expect(size <= 40_000 && size > 10_000)
        // CRF 23 (quality 55) writes about 79 kB here, so the fit is a lower quality.
        let chosen = run.stdout.firstMatch(of: /with --quality (\d+)/).flatMap { Int($0.1) }
        #expect(chosen.map { $0 < 55 } == true, "\(run.stdout)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["v.mp4"])
    }
}
