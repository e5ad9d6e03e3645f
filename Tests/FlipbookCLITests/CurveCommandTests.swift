import Codecs
import Foundation
import Testing

@Suite("flipbook curve, run as a user runs it")
struct CurveCommandTests {
    func rows(_ csv: String) -> [(Double, Double)] {
        csv.split(separator: "\n").dropFirst().map { line in
            let parts = line.split(separator: ",")
            return (Double(parts[0])!, Double(parts[1])!)
        }
    }

    @Test("The system spring prints its reference samples")
    func system() throws {
        let run = try Tool.run(["curve", "system", "--fps", "20"])
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("t,progress\n"))
        let r = rows(run.stdout)
        #expect(r.count == 11)
        #expect(abs(r[1].1 - 0.2322) < 5e-5 && abs(r[2].1 - 0.5448) < 5e-5 && abs(r[4].1 - 0.8793) < 5e-5)
        #expect(r.last! == (0.5, 1.0))
    }

    @Test("--duration extends past the curve; progress holds at 1")
    func duration() throws {
        let r = rows(try Tool.run(["curve", "easeIn:duration=0.4", "--fps", "10", "--duration", "1"]).stdout)
        #expect(r.count == 11)
        #expect(r.filter { $0.0 >= 0.4 }.allSatisfy { $0.1 == 1 })
    }

    @Test("--plot writes a 960x600 PNG")
    func plot() throws {
        let path = temporaryFolder() + "/c.png"
        let run = try Tool.run(["curve", "spring:duration=0.6,damping=0.7", "--plot", path])
        #expect(run.status == 0)
        let image = try PNGCodec.read(path: path)
        #expect(image.width == 960 && image.height == 600)
    }

    @Test(
        "A bad spec exits non-zero and says what was expected",
        arguments: [
            ("spring:duration=0.6", "missing damping"), ("wobble", "expected one of linear"),
        ])
    func badSpec(spec: String, message: String) throws {
        let run = try Tool.run(["curve", spec])
        #expect(run.status != 0)
        #expect(run.stderr.contains(message), "\(run.stderr)")
    }
}
