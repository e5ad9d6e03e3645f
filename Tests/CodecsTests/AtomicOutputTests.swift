import Foundation
import Raster
import Testing
import TestSupport
@testable import Codecs

/// What an interrupted process removes: the registry its signal handler drains. (The drain
/// itself is exercised end to end by the CLI's interrupt tests, in a process of its own.)
@Suite("AtomicOutput: what an interrupt would remove")
struct AtomicOutputTests {
    @Test("A temporary file is registered from the moment it exists; a plain commit takes it off and leaves the output")
    func plainCommit() throws {
        let path = temporaryFolder() + "/out.bin"
        let out = try AtomicOutput(path: path)
        #expect(AtomicOutput.inFlight.contains(out.temporaryPath))
        #expect(FileManager.default.fileExists(atPath: out.temporaryPath))
        try out.write([1, 2, 3])
        try out.commit()
        #expect(!AtomicOutput.inFlight.contains(out.temporaryPath) && !AtomicOutput.inFlight.contains(path))
        #expect(FileManager.default.contents(atPath: path) == Data([1, 2, 3]))
    }

    @Test(
        "A commit that keeps its destination tracked registers it in the same step as its rename, until untrack (a sequence's frames)"
    )
    func trackedCommit() throws {
        let path = temporaryFolder() + "/frame0000.png"
        let out = try AtomicOutput(path: path)
        try out.write([9])
        try out.commit(keepingTracked: true)
        #expect(AtomicOutput.inFlight.contains(path) && !AtomicOutput.inFlight.contains(out.temporaryPath))
        AtomicOutput.untrack(path)
        #expect(!AtomicOutput.inFlight.contains(path))
        #expect(FileManager.default.fileExists(atPath: path))
    }

    @Test("A sequence's frames stay tracked until finish, and abandon removes them all")
    func sequence() throws {
        let folder = temporaryFolder()
        let frame = Bitmap(width: 4, height: 3)
        let paths = (0..<3).map { "\(folder)/frame000\($0).png" }
        let finished = PNGSequenceWriter(threads: 2)
        for path in paths { try finished.write(frame, to: path) }
        try finished.finish()
        #expect(paths.allSatisfy { !AtomicOutput.inFlight.contains($0) && FileManager.default.fileExists(atPath: $0) })

        let other = temporaryFolder()
        let abandoned = PNGSequenceWriter(threads: 2)
        for k in 0..<3 { try abandoned.write(frame, to: "\(other)/frame000\(k).png") }
        abandoned.abandon()
        #expect(try FileManager.default.contentsOfDirectory(atPath: other).isEmpty)
        #expect((0..<3).allSatisfy { !AtomicOutput.inFlight.contains("\(other)/frame000\($0).png") })
    }
}

@Suite("AtomicOutput: files beside an output are the user's")
struct NeighbouringFileTests {
    @Test(
        "A write leaves every other file in its folder as it was, those named like a temporary file of a process that ended included"
    )
    func neighboursUntouched() throws {
        let folder = temporaryFolder()
        // A process that has ended: its id is free.
        let ended = Process()
        ended.executableURL = URL(fileURLWithPath: "/bin/true")
        try ended.run()
        ended.waitUntilExit()
        let names = [
            ".flipbook-31337.tar.gz", ".notes.flipbook-424242.txt", ".x.gif.flipbook-\(ended.processIdentifier).AbC123",
        ]
        for name in names { try Data(name.utf8).write(to: URL(fileURLWithPath: folder + "/" + name)) }
        try AtomicOutput.write([1, 2], to: folder + "/x.gif")
        let scratch = try AtomicOutput.siblingPath(of: folder + "/x.gif", tag: "try0")
        unlink(scratch)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == (names + ["x.gif"]).sorted())
        for name in names { #expect(FileManager.default.contents(atPath: folder + "/" + name) == Data(name.utf8)) }
    }
}
