import ArgumentParser
import Flipbook
import Dispatch
import Foundation

extension FlipbookCommand {
    /// Runs the command line: outputs still being written are removed if the process is
    /// interrupted (SIGINT, SIGTERM, SIGHUP: a closed terminal), and `compare` exits 2 for any error, its bad options
    /// included, as its help says.
    public static func runMain() {
        StandardStreams.secure()
        interruptHandlers = [SIGINT, SIGTERM, SIGHUP].map(removeTemporariesOnSignal)
        // Past a file-size limit (ulimit -f) a write fails, and the output says so and leaves
        // nothing, rather than the process being killed with its temporary file in place.
        signal(SIGXFSZ, SIG_IGN)
        // compare promises 1 for "different" (its own ExitCode) and 2 for every error.
        let isCompare = CommandLine.arguments.dropFirst().first == "compare"
        var command: any ParsableCommand
        do {
            command = try parseAsRoot(negativeValuesJoined(Array(CommandLine.arguments.dropFirst())))
        } catch {
            if isCompare && exitCode(for: error) != .success {
                StandardStreams.writeError("\(fullMessage(for: error))\n")
                Foundation.exit(2)
            }
            exit(withError: error)
        }
        do {
            try command.run()
            // What was printed is part of the answer: a failure to write it is the command's.
            try StandardStreams.flush()
        } catch let error as StandardStreams.OutputError {
            if error.isBrokenPipe { Foundation.exit(128 + SIGPIPE) }
            StandardStreams.writeError("Error: \(error)\n")
            Foundation.exit(isCompare ? 2 : 1)
        } catch {
            // The library's errors name options; here they are spelled as flags.
            let error = onCommandLine(error)
            if let error = error as? ValidationError {
                // A value found wrong once the work began (a --set key the scene does not
                // declare, a time past the storyboard's end) is said alone: the usage would bury it.
                StandardStreams.writeError("Error: \(error.message)\n")
                Foundation.exit(isCompare ? 2 : 64)
            }
            if isCompare && !(error is ExitCode) && exitCode(for: error) != .success {
                StandardStreams.writeError("\(fullMessage(for: error))\n")
                Foundation.exit(2)
            }
            exit(withError: error)
        }
    }

    private static func removeTemporariesOnSignal(_ number: Int32) -> DispatchSourceSignal {
        signal(number, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
        source.setEventHandler {
            OutputFile.removeTemporaryFiles {
                let note = interruptNote?() ?? "interrupted: nothing half-written is left"
                StandardStreams.writeError("\n\(note)\n")
                Foundation.exit(128 + number)
            }
        }
        source.resume()
        return source
    }
}

/// The arguments with a negative number after an option joined to it (`--width -5` →
/// `--width=-5`), so that it is read as the option's value, which is then checked like any
/// other, rather than as an unknown flag that leaves the option without one. No option of
/// Flipbook's is a dash and a digit, so such a word is always a value.
func negativeValuesJoined(_ arguments: [String]) -> [String] {
    var out: [String] = []
    for word in arguments {
        if let last = out.last, last.hasPrefix("--"), last.count > 2, !last.contains("="), isNegativeNumber(word) {
            out[out.count - 1] = last + "=" + word
        } else {
            out.append(word)
        }
    }
    return out
}

/// Whether `word` starts as a negative number does: `-5`, `-0.5`, `-.5`, `-5,-1`, `-1/3`, `-1e9`.
private func isNegativeNumber(_ word: String) -> Bool {
    let rest = word.dropFirst()
    guard word.first == "-", let first = rest.first else { return false }
    return first.isASCII && (first.isNumber || (first == "." && rest.dropFirst().first?.isNumber == true))
}

/// The signal sources, kept for the life of the process.
nonisolated(unsafe) private var interruptHandlers: [DispatchSourceSignal] = []

/// What an interrupted command says as it exits, where it knows more than that nothing is
/// half-written: a render, that it wrote nothing; a build, what it kept; the studio, the
/// edits it had not saved.
nonisolated(unsafe) var interruptNote: (@Sendable () -> String)?
