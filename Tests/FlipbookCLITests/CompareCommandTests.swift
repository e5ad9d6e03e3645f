import Foundation
import Testing

@Suite("flipbook compare, run as a user runs it")
struct CompareCommandTests {
    @Test(
        "Two renders of the same config match (exit 0); one changed duration differs (exit 1), naming the first differing frame and writing diff images"
    )
    func regression() throws {
        let folder = temporaryFolder()
        for name in ["a", "b"] {
            #expect(
                try Tool.run([
                    "render", "expanding-cells", "-o", "\(folder)/\(name).gif", "--frames", "25-60", "--quiet",
                ]).status == 0)
        }
        let same = try Tool.run(["compare", "\(folder)/a.gif", "\(folder)/b.gif"])
        #expect(same.status == 0, "\(same.stdout)\(same.stderr)")
        #expect(same.stdout.contains("exact (max channel difference 0") && same.stdout.hasSuffix("MATCH\n"))

        try "present: {duration: 0.7}\n".write(toFile: "\(folder)/slow.yaml", atomically: true, encoding: .utf8)
        #expect(
            try Tool.run([
                "render", "expanding-cells", "-o", "\(folder)/c.gif", "--config", "\(folder)/slow.yaml", "--frames",
                "25-60", "--quiet",
            ]).status == 0)
        let changed = try Tool.run(["compare", "\(folder)/c.gif", "\(folder)/a.gif", "--diff", "\(folder)/diffs"])
        #expect(changed.status == 1)
        // Frame 34 (1.13 s, the first to show the expand: it starts at 1.08 s and the screen
        // shows it a presentation latency later) is 0.30 s into a render of frames 25-60,
        // and the GIF's second frame (the list hold merged before it).
        #expect(
            changed.stdout.contains("first difference at 0.30 s: actual frame 1 vs expected frame 1"),
            "\(changed.stdout)")
        #expect(changed.stdout.contains("\nDIFFERENT\n"))
        let written = try FileManager.default.contentsOfDirectory(atPath: "\(folder)/diffs")
        #expect(
            written.contains("t0000.300s.actual.png") && written.contains("t0000.300s.expected.png")
                && written.contains("t0000.300s.diff.png") && written.contains("t0000.300s.sheet.png"), "\(written)")
    }

    @Test("Two renders at other widths differ in size, said once with both sizes, not once a frame")
    func otherSizes() throws {
        let folder = temporaryFolder()
        for (name, width) in [("a", "120"), ("b", "100")] {
            #expect(
                try Tool.run([
                    "render", "expanding-cells", "-o", "\(folder)/\(name).gif", "--width", width, "--fps", "10",
                    "--quiet",
                ]).status == 0)
        }
        let run = try Tool.run(["compare", "\(folder)/a.gif", "\(folder)/b.gif"])
        // 667 points tall at 120 and 100 of 375 points wide: 213.4 and 177.9 pixels.
        #expect(run.status == 1)
        #expect(
            run.stdout.hasSuffix(
                "  19 moments compared, 19 differ (0 on one side only)\n"
                    + "  every frame differs in size: actual 120×213, expected 100×178\nDIFFERENT\n"),
            "\(run.stdout)")
        let json = try Tool.run(["compare", "\(folder)/a.gif", "\(folder)/b.gif", "--json"])
        let report = try #require(
            JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], "\(json.stdout)")
        let moments = try #require(report["moments"] as? [[String: Any]])
        #expect(moments.count == 19)
        for moment in moments {
            #expect(moment["sizeMismatch"] as? Bool == true)
            #expect(moment["actualSize"] as? [Int] == [120, 213] && moment["expectedSize"] as? [Int] == [100, 178])
        }
    }

    @Test("One render compares the same in any container: a PNG folder against the GIF of the same frames")
    func anyContainer() throws {
        let folder = temporaryFolder()
        #expect(
            try Tool.run(["render", "expanding-cells", "-o", "\(folder)/a.gif", "--frames", "25-60", "--quiet"]).status
                == 0)
        #expect(
            try Tool.run(["render", "expanding-cells", "-o", "\(folder)/frames/", "--frames", "25-60", "--quiet"])
                .status == 0)
        // Frame k of the folder meets the GIF's frame k at each of the 36 frame starts; what
        // differs is the GIF's palette, within a quantizer's error (a pixel or two of a frame,
        // where dithering lands, may be a little further off).
        let run = try Tool.run([
            "compare", "\(folder)/frames", "\(folder)/a.gif", "--max-delta", "32", "--max-fraction", "0.0001",
        ])
        #expect(
            run.status == 0 && run.stdout.hasSuffix("MATCH\n") && run.stdout.contains("36 moments compared, 0 differ"),
            "\(run.stdout)")
    }

    @Test(
        "render -o x.mp4: H.264 with the render's frame count and length, that compare reads against the PNG frames within a lossy codec's tolerance"
    )
    func mp4() throws {
        let folder = temporaryFolder()
        let run = try Tool.run([
            "render", "expanding-cells", "--storyboard", "dismiss-final", "--fps", "15", "-o", "\(folder)/a.mp4",
        ])
        #expect(
            run.status == 0 && run.stdout.contains("51 frames, 3.40 s, H.264, CRF 23"), "\(run.stdout)\(run.stderr)")
        #expect(
            try Tool.run([
                "render", "expanding-cells", "--storyboard", "dismiss-final", "--fps", "15", "-o", "\(folder)/frames/",
                "--quiet",
            ]).status == 0)
        let close = try Tool.run([
            "compare", "\(folder)/a.mp4", "\(folder)/frames", "--fps", "15", "--max-delta", "48", "--max-fraction",
            "1%",
        ])
        #expect(
            close.status == 0 && close.stdout.contains("51 moments compared, 0 differ"),
            "\(close.stdout)\(close.stderr)")
        // Not exact: H.264 is lossy, and compare says so rather than passing it.
        #expect(try Tool.run(["compare", "\(folder)/a.mp4", "\(folder)/frames", "--fps", "15"]).status == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["a.mp4", "frames"])
    }

    @Test(
        "render -o x.webp: a lossless animated WebP that compare finds equal to the PNG frames of the same render; GIF settings are refused"
    )
    func webp() throws {
        let folder = temporaryFolder()
        let run = try Tool.run(["render", "expanding-view", "-o", "\(folder)/a.webp"])
        #expect(
            run.status == 0 && run.stdout.contains("24 frames from 90 (66 identical merged)")
                && run.stdout.contains("lossless"),
            "\(run.stdout)\(run.stderr)")
        #expect(try Tool.run(["render", "expanding-view", "-o", "\(folder)/frames/", "--quiet"]).status == 0)
        let same = try Tool.run(["compare", "\(folder)/a.webp", "\(folder)/frames"])
        #expect(same.status == 0 && same.stdout.contains("90 moments compared, 0 differ"), "\(same.stdout)")
        let refused = try Tool.run(["render", "expanding-view", "-o", "\(folder)/b.webp", "--lossy", "3"])
        #expect(refused.status == 64 && refused.stderr.contains("--lossy: a GIF setting"))
    }

    @Test("--json: one report with the verdict, the tolerance and every moment")
    func json() throws {
        let folder = temporaryFolder()
        #expect(
            try Tool.run(["render", "expanding-cells", "-o", "\(folder)/a.gif", "--frames", "25-40", "--quiet"]).status
                == 0)
        #expect(
            try Tool.run([
                "render", "expanding-cells", "-o", "\(folder)/b.gif", "--frames", "25-40", "--quiet", "--set",
                "present.duration=0.7",
            ]).status == 0)
        let run = try Tool.run(["compare", "\(folder)/b.gif", "\(folder)/a.gif", "--json", "--max-delta", "3"])
        #expect(run.status == 1)
        let report = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as! [String: Any]
        #expect(report["verdict"] as? String == "different")
        #expect((report["tolerance"] as? [String: Any])?["maxChannelDelta"] as? Int == 3)
        let moments = report["moments"] as! [[String: Any]]
        #expect(moments.count == report["momentsCompared"] as? Int && !moments.isEmpty)
        #expect(report["firstDifference"] as? Double == 0.3)
        let first = moments.first { $0["passes"] as? Bool == false }!
        #expect((first["differingPixels"] as? Int ?? 0) > 0 && (first["maxChannelDelta"] as? Int ?? 0) > 3)
    }

    @Test("An unreadable input is an error (exit 2) naming it")
    func unreadable() throws {
        let folder = temporaryFolder()
        try "not an image".write(toFile: "\(folder)/x.gif", atomically: true, encoding: .utf8)
        let run = try Tool.run(["compare", "\(folder)/x.gif", "\(folder)/missing.gif"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("\(folder)/x.gif"))
    }

    @Test("--set points a scene at other screenshots from the command line")
    func setFlag() throws {
        let folder = temporaryFolder()
        let run = try Tool.run(["render", "expanding-cells", "-o", "\(folder)/x.gif", "--set", "assets.lst=mine.png"])
        #expect(run.status != 0)
        #expect(run.stderr.contains("--set assets.lst=mine.png: assets.lst: unknown key; expected one of list, detail"))
        // Mid-expand, the row's snapshot is cut from the new row (in @2x pixels).
        let ok = try Tool.run(["plan", "expanding-cells", "--time", "1.2", "--set", "layout.tappedRow=[0,99,375,70]"])
        #expect(ok.stdout.contains("\"layer\":\"cell\"") && ok.stdout.contains("[0,198,750,140]"), "\(ok.stdout)")
    }
}
