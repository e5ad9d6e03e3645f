import Glibc

/// Where an output's bytes land, decided once before anything is written.
///
/// An output never replaces what stands at its path with something of another kind:
/// - a regular file is replaced whole, by a complete file renamed over it, and keeps its
///   permission bits;
/// - a symbolic link is followed deliberately: its target is replaced as above and the link
///   stays (a link to nothing is refused, since the link would have to be replaced);
/// - a device, a FIFO, a socket or a pipe (`/dev/stdout`, `>(cat)`) is written through as a
///   stream, never renamed over;
/// - a folder is refused.
public struct OutputDestination: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// A file that does not exist yet, or a regular file replaced whole (its mode kept).
        case file(mode: mode_t?)
        /// A device, FIFO, socket or pipe, written as it is.
        case stream
    }

    /// The path as given, for messages.
    public let path: String
    /// The path written: `path` with a link to a regular file followed.
    public let target: String
    public let kind: Kind

    /// What stands at `path` now, and so how to write it.
    public init(_ path: String) throws {
        self.path = path
        var info = stat()
        if stat(path, &info) == 0 {
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                throw EncodeError.unwritable(path: path, reason: "is a folder")
            case S_IFREG:
                guard Self.isWritable(info) else {
                    throw EncodeError.unwritable(
                        path: path,
                        reason:
                            "is read-only (mode \(String(info.st_mode & 0o777, radix: 8))); make it writable to replace it"
                    )
                }
                kind = .file(mode: info.st_mode & 0o7777)
                target = Self.isLink(path) ? try Self.realPath(path) : path
            default:
                // Opened through the name as given: a /dev/fd/N link is the pipe itself.
                kind = .stream
                target = path
            }
            return
        }
        let failure = errno
        if Self.isLink(path) {
            throw EncodeError.unwritable(
                path: path, reason: "is a symbolic link to nothing; an output writes through a link, never replaces it")
        }
        if failure != ENOENT {
            throw EncodeError.unwritable(path: path, reason: String(cString: strerror(failure)))
        }
        kind = .file(mode: nil)
        target = path
    }

    /// Whether the destination is written through as a stream.
    public var isStream: Bool { kind == .stream }

    /// The folder a temporary file for this destination goes in, so that a rename lands it:
    /// the target's own (the system's for a stream, which needs none beside it).
    public var temporaryFolder: String {
        if isStream { return Self.systemTemporaryFolder }
        guard let slash = target.lastIndex(of: "/") else { return "." }
        let folder = String(target[..<slash])
        return folder.isEmpty ? "/" : folder
    }

    static var systemTemporaryFolder: String {
        guard let tmp = getenv("TMPDIR").map({ String(cString: $0) }), !tmp.isEmpty else { return "/tmp" }
        return tmp
    }

    /// Opens the stream for writing. A FIFO with no reader is an error at once, not a hang.
    func openStream() throws -> Int32 {
        let fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        if fd < 0 {
            let reason = errno == ENXIO ? "a pipe with no reader" : String(cString: strerror(errno))
            throw EncodeError.unwritable(path: path, reason: reason)
        }
        // Writes wait for a slow reader, as a shell's redirection does.
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK)
        return fd
    }

    /// Gives a finished temporary file's mode to what it replaces, then renames it into place
    /// or, for a stream, copies it through and removes it.
    public func land(temporary: String) throws {
        switch kind {
        case .file(let mode):
            let mask = umask(0)
            umask(mask)
            chmod(temporary, mode ?? (0o666 & ~mask))
            if rename(temporary, target) != 0 {
                let failure = errno
                unlink(temporary)
                throw EncodeError.unwritable(path: path, reason: String(cString: strerror(failure)))
            }
        case .stream:
            defer { unlink(temporary) }
            let input = open(temporary, O_RDONLY | O_CLOEXEC)
            guard input >= 0 else { throw EncodeError.unwritable(path: path, reason: String(cString: strerror(errno))) }
            defer { close(input) }
            let output = try openStream()
            defer { close(output) }
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let n = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress!, $0.count) }
                if n < 0 && errno == EINTR { continue }
                if n < 0 { throw EncodeError.unwritable(path: path, reason: String(cString: strerror(errno))) }
                if n == 0 { return }
                try Self.writeAll(output, buffer[..<n], path: path)
            }
        }
    }

    /// Writes every byte of `bytes` to `fd`, through short writes and interruptions.
    static func writeAll(_ fd: Int32, _ bytes: ArraySlice<UInt8>, path: String) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                throw EncodeError.unwritable(path: path, reason: String(cString: strerror(errno)))
            }
            offset += n
        }
    }

    /// Whether the file's mode lets this user write it. A rename replaces a file whatever its
    /// mode, so the mode is asked directly: the superuser too keeps off a file that no one may
    /// write.
    private static func isWritable(_ info: stat) -> Bool {
        let uid = geteuid()
        if uid == 0 { return info.st_mode & 0o222 != 0 }
        if info.st_uid == uid { return info.st_mode & S_IWUSR != 0 }
        if info.st_gid == getegid() { return info.st_mode & S_IWGRP != 0 }
        return info.st_mode & S_IWOTH != 0
    }

    private static func isLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
    }

    private static func realPath(_ path: String) throws -> String {
        guard let resolved = realpath(path, nil) else {
            throw EncodeError.unwritable(path: path, reason: String(cString: strerror(errno)))
        }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
