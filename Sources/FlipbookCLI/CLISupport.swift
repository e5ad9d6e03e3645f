import ArgumentParser
import Build
import Flipbook
import Foundation

/// Prints a warning on standard error.
func warn(_ message: String) {
    StandardStreams.writeError("warning: \(message)\n")
}

/// A command failure with a message for the user (exit status 1).
struct CLIError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Progress on a terminal (one line, redrawn); nothing when piped or quiet.
final class Progress: @unchecked Sendable {
    let enabled: Bool
    private let lock = NSLock()
    private var shown = false

    init(quiet: Bool) {
        self.enabled = !quiet && isatty(STDERR_FILENO) != 0
    }

    func show(_ done: Int, of total: Int) {
        guard enabled else { return }
        lock.withLock {
            shown = true
            StandardStreams.writeError("\rrendering frame \(done)/\(total)")
        }
    }

    /// Clears the line, once.
    func done() {
        lock.withLock {
            if shown { StandardStreams.writeError("\r\u{1B}[K") }
            shown = false
        }
    }
}

/// The library's errors as the command line says them: options spelled as flags, an invalid
/// request a usage error (exit 64), a failure a plain one (exit 1).
func presenting<T>(_ work: () throws -> T) throws -> T {
    do {
        return try work()
    } catch let error as ExportError {
        throw error.onCommandLine
    }
}

/// Any error as the command line says it: the library's typed errors with their options and
/// advice spelled as flags.
func onCommandLine(_ error: any Error) -> any Error {
    if let error = error as? ExportError { return error.onCommandLine }
    if let error = error as? RenderError { return CLIError(error.message(flags: true)) }
    if let error = error as? ConfigError { return error.onCommandLine }
    if case BuildError.manifest(let problems) = error { return BuildError.manifest(problems.map(\.onCommandLine)) }
    return error
}

extension SceneError {
    /// The message with a width or scale asked for spelled as its flag (`--width 8192`).
    var onCommandLine: String {
        message {
            switch $0 {
            case .width(let w): "--width \(w)"
            case .scale(let k): "--scale \(k)"
            case .settingsScale: $0.description
            }
        }
    }
}

extension ConfigError {
    /// A value's error names the flag that gave it (`--set key=value: key: …`), and what would
    /// let it through, its flag (`--allow-outside`).
    var onCommandLine: ConfigError {
        var spelled = self
        if assignment != nil { spelled.file = "--set " + file }
        if let option = allowedBy { spelled.allowedBy = ConfigError.flags[option] ?? option }
        return spelled
    }

    /// The flag of each request option a library error may name as what lets it through.
    static let flags = ["allowOutside": "--allow-outside"]
}

extension ExportText {
    /// The text with options spelled as flags.
    var onCommandLine: String { spelled(\.flag) }
}

extension ExportError {
    /// The error to exit with.
    var onCommandLine: any Error {
        kind == .invalid ? ValidationError(message.onCommandLine) : CLIError(message.onCommandLine)
    }
}
