// The C streams stdout and stderr are globals that Swift 6 cannot prove safe; this file is
// their one user, from whichever thread prints.
@preconcurrency import Glibc
import Foundation

/// The process's standard output and error, written and checked like any other output: a
/// closed or full standard output is an error that says so, never a trap or a silent exit 0.
enum StandardStreams {
    /// Standard output was closed when the process started (`>&-`).
    nonisolated(unsafe) private static var outputWasClosed = false

    /// Keeps descriptors 0-2 taken, so that no file the command opens becomes one of them (a
    /// closed standard output would otherwise be the next file opened, and every line printed
    /// would land in it). A closed output becomes a pipe with no reader, so that writing it
    /// fails as it should; a closed input or error becomes /dev/null.
    static func secure() {
        // A write to a pipe with no reader fails (EPIPE) rather than killing the process.
        signal(SIGPIPE, SIG_IGN)
        for fd: Int32 in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(fd, F_GETFD) < 0 && errno == EBADF {
            if fd == STDOUT_FILENO {
                var ends: [Int32] = [0, 0]
                if pipe(&ends) == 0 {
                    close(ends[0])
                    if ends[1] != fd {
                        dup2(ends[1], fd)
                        close(ends[1])
                    }
                    outputWasClosed = true
                    continue
                }
            }
            let null = open("/dev/null", O_RDWR)
            if null >= 0 && null != fd {
                dup2(null, fd)
                close(null)
            }
        }
    }

    /// Writes `text` to standard output at once (a line watched as it comes). A failure stays
    /// flagged on the stream, for the next `flush` to report.
    static func write(_ text: String) {
        fputs(text, stdout)
        fflush(stdout)
    }

    /// Flushes standard output; a failed write so far is an error naming why.
    static func flush() throws {
        if fflush(stdout) == 0 && ferror(stdout) == 0 { return }
        let failure = errno
        clearerr(stdout)
        throw OutputError(closed: outputWasClosed, errno: failure)
    }

    /// Writes `text` to standard error; there is nowhere to report a failure to write it.
    static func writeError(_ text: String) {
        fputs(text, stderr)
        fflush(stderr)
    }

    /// Standard output could not be written.
    struct OutputError: Error, CustomStringConvertible {
        var closed: Bool
        var errno: Int32
        /// The reader of a pipe went away (`| head`): the shell's pipeline ended it, as SIGPIPE would.
        var isBrokenPipe: Bool { !closed && errno == EPIPE }
        var description: String {
            closed
                ? "standard output is closed; nothing could be printed (redirect it to a file or /dev/null)"
                : "cannot write standard output: \(String(cString: strerror(errno)))"
        }
    }
}
