import FileInput
import Foundation
import Glibc
import Synchronization

/// An output file that appears only when complete: bytes go to a temporary file beside the
/// destination, which `commit` renames into place. Abandoned or failed outputs leave nothing.
/// A device, FIFO or pipe is written through instead, and a link's target is replaced, never
/// the link (`OutputDestination`).
public final class AtomicOutput {
    public let path: String
    /// What stands at `path`: a file replaced whole, or a stream written through.
    public let destination: OutputDestination
    /// The temporary file, empty for a stream.
    let temporaryPath: String
    private var fd: Int32
    private var buffer: [UInt8] = []
    private var finished = false
    /// Bytes written so far.
    public private(set) var byteCount = 0

    public init(path: String) throws {
        self.path = path
        destination = try OutputDestination(path)
        if destination.isStream {
            fd = try destination.openStream()
            temporaryPath = ""
            buffer.reserveCapacity(1 << 16)
            return
        }
        let target = destination.target
        let name = target.lastIndex(of: "/").map { String(target[target.index(after: $0)...]) } ?? target
        var template = Array(
            "\(destination.temporaryFolder)/.\(AtomicOutput.shortened(name)).\(AtomicOutput.owner).XXXXXX".utf8CString)
        let (fd, failure, temporaryPath) = AtomicOutput.gate.withLock { _ in
            let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            if fd < 0 { return (fd, errno, "") }
            let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
            AtomicOutput.inFlight.insert(temporary)
            return (fd, 0, temporary)
        }
        if fd < 0 {
            throw EncodeError.unwritable(path: path, reason: String(cString: strerror(failure)))
        }
        self.fd = fd
        self.temporaryPath = temporaryPath
        buffer.reserveCapacity(1 << 16)
    }

    /// Appends bytes (buffered).
    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        byteCount += bytes.count
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { try flush() }
    }

    public func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }

    private func flush() throws {
        try OutputDestination.writeAll(fd, buffer[...], path: path)
        buffer.removeAll(keepingCapacity: true)
    }

    /// Flushes, closes and renames the temporary file onto `path`. With `keepingTracked`, the
    /// destination stays among the files an interrupted process removes, until `untrack`: for
    /// a file that is one part of an output not yet whole (a frame of a sequence).
    public func commit(keepingTracked: Bool = false) throws {
        precondition(!finished, "AtomicOutput committed twice")
        do {
            try flush()
        } catch {
            abandon()
            throw error
        }
        finished = true
        close(fd)
        if destination.isStream { return }
        let failure: (any Error)? = AtomicOutput.gate.withLock { _ in
            defer { AtomicOutput.inFlight.remove(temporaryPath) }
            do {
                try destination.land(temporary: temporaryPath)
            } catch {
                return error
            }
            if keepingTracked { AtomicOutput.inFlight.insert(destination.target) }
            return nil
        }
        if let failure { throw failure }
    }

    /// Takes a committed destination off the files an interrupted process removes: its output
    /// is whole.
    public static func untrack(_ path: String) {
        inFlight.remove(path)
    }

    /// Discards everything written; the destination is untouched.
    public func abandon() {
        if finished { return }
        finished = true
        close(fd)
        if destination.isStream { return }
        unlink(temporaryPath)
        AtomicOutput.inFlight.remove(temporaryPath)
    }

    /// The temporary files of outputs not yet committed or abandoned.
    static let inFlight = TemporaryFiles()

    /// Held while a temporary file is made and registered, and while a commit renames one and
    /// updates the registry, so that the interrupt cleanup, which takes it too, never sees a
    /// file half made or half renamed (a frame renamed into place but not yet registered
    /// would be left behind).
    static let gate = Mutex<Void>(())

    /// For a process that is being interrupted, whose outputs will never be committed: removes
    /// every output's temporary file, then runs `exit` still holding the gate, so that no other
    /// thread makes or commits an output before the process ends.
    public static func removeTemporaryFiles(thenExit exit: () -> Never) -> Never {
        gate.withLock { _ -> Never in
            for path in inFlight.drain() { unlink(path) }
            // rmdir takes only an empty folder: one the user filled since stays.
            for folder in madeFolders.withLock({ $0 }).reversed() { rmdir(folder) }
            exit()
        }
    }

    /// Folders made for outputs not yet whole, in the order they were made: an interrupted
    /// process removes those it left empty.
    private static let madeFolders = Mutex<[String]>([])

    /// Registers folders made for an output (deepest first, as made), until `releaseFolders`.
    public static func trackFolders(_ folders: [String]) {
        madeFolders.withLock { $0 += folders.reversed() }
    }

    /// Takes folders off the registry; with `removing`, removes each that is empty.
    public static func releaseFolders(_ folders: [String], removing: Bool) {
        madeFolders.withLock { made in made.removeAll { folders.contains($0) } }
        if removing { for folder in folders { rmdir(folder) } }
    }

    deinit { abandon() }

    /// A hidden file made beside `path`'s destination for a scratch output
    /// (`dir/.name.TAG.flipbook-PID-RANDOM.ext`), created empty and exclusively, so that it is
    /// never a file that was there before, and unique to this process and call, so that two
    /// processes writing the same output never share one. An interrupted process removes it
    /// like its other temporary files; the caller writes over it, then removes it or lands it
    /// with `OutputDestination.land`.
    public static func siblingPath(of path: String, tag: String) throws -> String {
        let destination = try OutputDestination(path)
        let target = destination.target
        let slash = target.lastIndex(of: "/")
        let name = slash.map { String(target[target.index(after: $0)...]) } ?? target
        let dot = name.lastIndex(of: ".")
        let stem = dot.map { String(name[..<$0]) } ?? name, ext = dot.map { String(name[$0...]) } ?? ""
        while true {
            let unique = "\(owner)-\(String(UInt32.random(in: .min ... .max), radix: 36))"
            let sibling = "\(destination.temporaryFolder)/.\(shortened(stem)).\(tag).\(unique)\(shortened(ext))"
            let made: Int32 = gate.withLock { _ in
                let fd = open(sibling, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
                guard fd >= 0 else { return errno }
                close(fd)
                inFlight.insert(sibling)
                return 0
            }
            if made == 0 { return sibling }
            if made != EEXIST { throw EncodeError.unwritable(path: path, reason: String(cString: strerror(made))) }
        }
    }

    /// `name` cut to whole characters of at most 160 bytes, so that a temporary name made from
    /// it stays within a file system's 255 bytes however long the output's own name is.
    static func shortened(_ name: String) -> String {
        var bytes = 0
        return String(
            name.prefix { c in
                bytes += c.utf8.count
                return bytes <= 160
            })
    }

    /// What every temporary file's name carries: this process's id, so that a person can tell
    /// whose it is. Nothing removes files by this mark: a name of this shape can be a user's.
    static let owner = "flipbook-\(getpid())"

    /// Writes `bytes` to `path` atomically.
    public static func write(_ bytes: [UInt8], to path: String) throws {
        let out = try AtomicOutput(path: path)
        try out.write(bytes)
        try out.commit()
    }
}

/// Reads a whole file (or a pipe) of at most `maximumBytes`, with errors that say which file
/// and why.
package func readFile(_ path: String, maximumBytes: Int) throws -> [UInt8] {
    do {
        return try readWholeFile(path, maximumBytes: maximumBytes)
    } catch FileInputError.notFound {
        throw DecodeError.fileNotFound(path: path)
    } catch FileInputError.directory {
        throw DecodeError.unreadable(path: path, reason: "is a directory")
    } catch FileInputError.unreadable(let reason) {
        throw DecodeError.unreadable(path: path, reason: reason)
    } catch FileInputError.tooLarge(let limit) {
        throw DecodeError.unreadable(
            path: path,
            reason: "more than \(budgetText(limit)), past the budget for this kind of file (is it the right file?)")
    }
}

/// Throws the error `readFile` would for a file that is missing, a folder or unreadable,
/// without reading it (for decoders that read as they go).
func checkReadable(_ path: String) throws {
    let fd = open(path, O_RDONLY | O_NONBLOCK)
    if fd < 0 {
        if errno == ENOENT { throw DecodeError.fileNotFound(path: path) }
        throw DecodeError.unreadable(path: path, reason: String(cString: strerror(errno)))
    }
    defer { close(fd) }
    var info = stat()
    if fstat(fd, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR {
        throw DecodeError.unreadable(path: path, reason: "is a directory")
    }
}

/// Opens `path` for reading without waiting for a FIFO's writer (a FIFO with none then reads
/// as empty, an error at once, where a plain open would wait forever), then makes reads
/// blocking again, so that a writer that is there is waited for.
package func openWithoutWaiting(_ path: String) throws -> Int32 {
    let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    if fd < 0 {
        if errno == ENOENT { throw DecodeError.fileNotFound(path: path) }
        throw DecodeError.unreadable(path: path, reason: String(cString: strerror(errno)))
    }
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
    return fd
}

/// A set of paths shared by every thread that writes outputs.
final class TemporaryFiles: Sendable {
    private let paths = Mutex<Set<String>>([])

    func insert(_ path: String) {
        paths.withLock { _ = $0.insert(path) }
    }

    func remove(_ path: String) {
        paths.withLock { _ = $0.remove(path) }
    }

    /// Whether `path` is registered.
    func contains(_ path: String) -> Bool {
        paths.withLock { $0.contains(path) }
    }

    /// Every path, leaving the set empty.
    func drain() -> Set<String> {
        paths.withLock { all in
            defer { all = [] }
            return all
        }
    }
}
