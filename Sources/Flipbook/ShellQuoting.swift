/// Text as a POSIX shell reads it back: how the studio and the build print the `flipbook
/// render` command that makes what they show.
public enum ShellQuoting {
    /// The characters a shell word may hold bare.
    static let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,@%+")

    /// `text` bare when every character is safe, else in single quotes (a quote inside closed,
    /// escaped and reopened).
    public static func quoted(_ text: String) -> String {
        if !text.isEmpty && text.allSatisfy({ safe.contains($0) }) { return text }
        return "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// The words as one command line.
    public static func line(_ words: [String]) -> String { words.map(quoted).joined(separator: " ") }
}
