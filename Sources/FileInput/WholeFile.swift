#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why a file could not be read.
public enum FileInputError: Error, Equatable {
    case notFound
    case directory
    case unreadable(String)
    /// More bytes than the reader's budget (`/dev/zero`, a huge file given by mistake).
    case tooLarge(maximumBytes: Int)
}

/// A byte budget as a person reads it: "16 MB", "900 kB".
package func budgetText(_ bytes: Int) -> String {
    bytes >= 1 << 20 ? "\(bytes >> 20) MB" : "\(max(1, bytes >> 10)) kB"
}

/// Reads a whole file, or a pipe (`<(…)`, a FIFO) until its writer closes it: never by its
/// stat size, which a pipe does not have. A FIFO no one writes to reads as empty rather than
/// waiting forever for a writer. More than `maximumBytes` is an error, found while reading:
/// an endless device or pipe (`/dev/zero`) stops there.
package func readWholeFile(_ path: String, maximumBytes: Int) throws -> [UInt8] {
    let fd = open(path, O_RDONLY | O_NONBLOCK)
    if fd < 0 {
        if errno == ENOENT { throw FileInputError.notFound }
        if errno == EISDIR { throw FileInputError.directory }
        throw FileInputError.unreadable(String(cString: strerror(errno)))
    }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw FileInputError.unreadable(String(cString: strerror(errno))) }
    if (info.st_mode & S_IFMT) == S_IFDIR { throw FileInputError.directory }
    // Blocking reads from here: a pipe's writer may still be producing.
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
    var bytes = [UInt8]()
    if Int(info.st_size) > maximumBytes { throw FileInputError.tooLarge(maximumBytes: maximumBytes) }
    bytes.reserveCapacity(max(0, Int(info.st_size)))
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
        if n < 0 {
            if errno == EINTR { continue }
            if errno == EAGAIN { break }  // an empty FIFO with no writer
            throw FileInputError.unreadable(String(cString: strerror(errno)))
        }
        if n == 0 { break }
        guard bytes.count + n <= maximumBytes else { throw FileInputError.tooLarge(maximumBytes: maximumBytes) }
        bytes += chunk[0..<n]
    }
    return bytes
}
