import Codecs
import Foundation

/// The PNG files of a folder in natural order, or an error naming the folder.
func pngFiles(in folder: String) throws -> [String] {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) else {
        throw CLIError("\(folder): no such folder")
    }
    guard isDirectory.boolValue else { throw CLIError("\(folder): not a folder (expected a folder of PNG frames)") }
    let files = try PNGSequence.files(in: folder)
    guard !files.isEmpty else { throw CLIError("\(folder): no .png files in this folder") }
    return files
}

/// One line about a written GIF.
func describe(_ s: GIFSummary, inputFrames: Int) -> String {
    let seconds = Double(s.centiseconds) / 100
    var notes: [String] = []
    if s.merged > 0 { notes.append("\(s.merged) identical merged") }
    if s.dropped > 0 { notes.append("\(s.dropped) dropped for 2 cs delays") }
    let extra = notes.isEmpty ? "" : " (\(notes.joined(separator: ", ")))"
    return
        "wrote \(s.path): \(byteString(s.bytes)), \(s.frames) frames from \(inputFrames)\(extra), \(String(format: "%.2f", seconds)) s"
}

func byteString(_ n: Int) -> String {
    let grouped = n.formatted(.number.grouping(.automatic)).replacingOccurrences(of: "\u{202F}", with: ",")
    if n >= 1_000_000 { return "\(grouped) B (\(String(format: "%.2f", Double(n) / 1e6)) MB)" }
    if n >= 1_000 { return "\(grouped) B (\(String(format: "%.1f", Double(n) / 1e3)) kB)" }
    return "\(n) B"
}

/// Prints a warning on standard error.
func warn(_ message: String) {
    FileHandle.standardError.write(Data("warning: \(message)\n".utf8))
}

/// A command failure with a message for the user (exit status 1).
struct CLIError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Frame progress on a terminal (one line, redrawn); nothing when piped or quiet.
final class Progress {
    let total: Int
    let enabled: Bool
    private var count = 0

    init(total: Int, quiet: Bool) {
        self.total = total
        self.enabled = !quiet && isatty(STDERR_FILENO) != 0
    }

    func step() {
        count += 1
        guard enabled else { return }
        FileHandle.standardError.write(Data("\rrendering frame \(count)/\(total)".utf8))
    }

    func done() {
        if enabled { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}
