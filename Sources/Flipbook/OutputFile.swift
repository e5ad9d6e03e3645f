import Codecs

/// Files written whole or not at all: through a temporary file beside the destination,
/// renamed over it, never over a symlink, device or pipe.
public enum OutputFile {
    /// Writes `text` to `path` through a temporary file.
    public static func write(_ text: String, to path: String) throws {
        try AtomicOutput.write(Array(text.utf8), to: path)
    }

    /// Removes the temporary files of every write under way, then calls `exit` (from a signal
    /// handler: the process is about to end, and nothing half-written should be left).
    public static func removeTemporaryFiles(thenExit exit: () -> Never) -> Never {
        AtomicOutput.removeTemporaryFiles(thenExit: exit)
    }
}
