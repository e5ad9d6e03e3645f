import Flipbook
import Foundation
import Synchronization
import Testing

/// `flipbook encode` is an `EncodeRequest`: a library user encodes frames the same way, with
/// the same checks, warnings and report.
@Suite("Encode requests: frames in, one animation out, checked first, warnings as events")
struct EncodeRequestTests {
    @Test("A folder of frames becomes a GIF and an APNG equal to it; above 50 fps the GIF's note is an event")
    func encodes() throws {
        let dir = temporaryFolder()
        let render = try Tool.run(["render", "expanding-view", "--fps", "60", "-o", dir + "/frames/", "--quiet"])
        #expect(render.status == 0, "\(render.stderr)")
        let warnings = Mutex<[String]>([])
        let events = ExportEvents(warning: { w in warnings.withLock { $0.append(w.description) } })
        var gif = EncodeRequest(frames: dir + "/frames", output: dir + "/a.gif")
        gif.fps = 60
        let written = try gif.run(events)
        #expect(written.line.contains("frames from 180") && written.gif != nil, "\(written.line)")
        #expect(
            warnings.withLock { $0 } == [
                "60 fps asks for GIF delays under 2 cs; frames are dropped to keep 2 cs and the exact duration"
            ])
        var apng = gif
        apng.output = dir + "/a.apng"
        _ = try apng.run()
        #expect(try Tool.run(["compare", dir + "/a.apng", dir + "/a.gif", "--max-delta", "255"]).status == 0)
    }

    @Test(
        "Refused before any work, naming the option: the frame rate, the format, a setting it would not use, an input as output"
    )
    func refused() throws {
        func failure(_ change: (inout EncodeRequest) -> Void) -> String? {
            var request = EncodeRequest(frames: "frames", output: "out.gif")
            change(&request)
            do { try request.check() } catch let error as ExportError { return error.message.description } catch {
                return "\(error)"
            }
            return nil
        }
        #expect(failure { $0.fps = 0 } == "fps 0: expected a number in 0.1...1000")
        #expect(
            failure { $0.output = "out.mov" } == "output out.mov: expected a path ending in .gif, .webp, .mp4 or .apng")
        #expect(failure { ($0.output, $0.fps) = ("out.mp4", 200) } == "fps 200: an MP4 plays at 1...120 fps")
        #expect(
            failure { ($0.output, $0.encoding.quality) = ("out.apng", 80) }?.contains("an APNG is lossless") == true)
        #expect(failure { $0.output = "frames" }?.contains("frames") == true)
        #expect(failure { _ in } == nil)
    }
}
