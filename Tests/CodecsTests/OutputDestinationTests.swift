import Foundation
import Glibc
import Testing
import TestSupport
@testable import Codecs

/// An output never replaces what stands at its path with something of another kind: a link's
/// target is written and the link stays, a device or FIFO is written through, a regular file
/// keeps its mode.
@Suite("OutputDestination: links, devices and pipes are written through, never replaced")
struct OutputDestinationTests {
    private func kind(_ path: String) -> mode_t {
        var info = stat()
        #expect(lstat(path, &info) == 0)
        return info.st_mode & S_IFMT
    }

    @Test("A symlinked output writes its target; the link stays a link and the target keeps its mode")
    func link() throws {
        let folder = temporaryFolder()
        let target = folder + "/real.yaml", link = folder + "/link.yaml"
        try Data("old\n".utf8).write(to: URL(fileURLWithPath: target))
        chmod(target, 0o664)
        #expect(symlink("real.yaml", link) == 0)
        try AtomicOutput.write(Array("new\n".utf8), to: link)
        #expect(kind(link) == S_IFLNK)
        #expect(String(decoding: FileManager.default.contents(atPath: target)!, as: UTF8.self) == "new\n")
        var info = stat()
        stat(target, &info)
        #expect(info.st_mode & 0o777 == 0o664)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["link.yaml", "real.yaml"])
    }

    @Test("A link to nothing is refused, and left as it was")
    func dangling() throws {
        let link = temporaryFolder() + "/out.gif"
        #expect(symlink("missing.gif", link) == 0)
        #expect(throws: EncodeError.self) { try AtomicOutput(path: link) }
        #expect(kind(link) == S_IFLNK)
    }

    @Test("A FIFO is written through as a stream; with no reader it is an error at once, not a hang")
    func fifo() throws {
        let path = temporaryFolder() + "/pipe"
        #expect(mkfifo(path, 0o644) == 0)
        #expect(throws: EncodeError.unwritable(path: path, reason: "a pipe with no reader")) {
            try AtomicOutput.write([1], to: path)
        }
        let reader = open(path, O_RDONLY | O_NONBLOCK)
        defer { close(reader) }
        try AtomicOutput.write([7, 8, 9], to: path)
        var got = [UInt8](repeating: 0, count: 8)
        let n = read(reader, &got, 8)
        #expect(Array(got[..<max(0, n)]) == [7, 8, 9])
        #expect(kind(path) == S_IFIFO)
    }

    @Test("A device is written through: /dev/null stays a device, /dev/full reports no space")
    func devices() throws {
        try AtomicOutput.write([1, 2, 3], to: "/dev/null")
        #expect(kind("/dev/null") == S_IFCHR)
        #expect(throws: EncodeError.unwritable(path: "/dev/full", reason: "No space left on device")) {
            try AtomicOutput.write([1, 2, 3], to: "/dev/full")
        }
        #expect(kind("/dev/full") == S_IFCHR)
    }

    @Test("A finished scratch file lands through a link on its target, and into a FIFO as a stream")
    func land() throws {
        let folder = temporaryFolder()
        try Data("x".utf8).write(to: URL(fileURLWithPath: folder + "/target.mp4"))
        #expect(symlink("target.mp4", folder + "/out.mp4") == 0)
        let scratch = try AtomicOutput.siblingPath(of: folder + "/out.mp4", tag: "partial")
        #expect(scratch.hasPrefix(folder + "/.target.partial.flipbook-\(getpid())-"))
        try Data("movie".utf8).write(to: URL(fileURLWithPath: scratch))
        try OutputDestination(folder + "/out.mp4").land(temporary: scratch)
        #expect(kind(folder + "/out.mp4") == S_IFLNK)
        #expect(FileManager.default.contents(atPath: folder + "/target.mp4") == Data("movie".utf8))
        #expect(!FileManager.default.fileExists(atPath: scratch))
    }

    @Test("A folder is refused")
    func folder() throws {
        #expect(throws: EncodeError.unwritable(path: "/tmp", reason: "is a folder")) { try OutputDestination("/tmp") }
    }
}
