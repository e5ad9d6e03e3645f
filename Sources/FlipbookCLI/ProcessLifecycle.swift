import ArgumentParser
import Flipbook
import Dispatch
import Foundation

extension FlipbookCommand {
    /// Runs the command line: outputs still being written are removed if the process is
    /// interrupted (SIGINT, SIGTERM, SIGHUP: a closed terminal), and `compare` exits 2 for any error, its bad options
    /// included, as its help says.
    public static func runMain() {
        interruptHandlers = [SIGINT, SIGTERM, SIGHUP].map(removeTemporariesOnSignal)
        // Past a file-size limit (ulimit -f) a write fails, and the output says so and leaves
        // nothing, rather than the process being killed with its temporary file in place.
        signal(SIGXFSZ, SIG_IGN)
        // compare promises 1 for "different" (its own ExitCode) and 2 for every error.
        let isCompare = CommandLine.arguments.dropFirst().first == "compare"
        var command: any ParsableCommand
        do {
            command = try parseAsRoot()
        } catch {
            if isCompare && exitCode(for: error) != .success {
                FileHandle.standardError.write(Data("\(fullMessage(for: error))\n".utf8))
                Foundation.exit(2)
            }
            exit(withError: error)
        }
        do {
            try command.run()
        } catch {
            // The library's errors name options; here they are spelled as flags.
            let error = onCommandLine(error)
            if let error = error as? ValidationError {
                // A value found wrong once the work began (a --set key the scene does not
                // declare, a time past the storyboard's end) is said alone: the usage would bury it.
                FileHandle.standardError.write(Data("Error: \(error.message)\n".utf8))
                Foundation.exit(isCompare ? 2 : 64)
            }
            if isCompare && !(error is ExitCode) && exitCode(for: error) != .success {
                FileHandle.standardError.write(Data("\(fullMessage(for: error))\n".utf8))
                Foundation.exit(2)
            }
            exit(withError: error)
        }
    }

    private static func removeTemporariesOnSignal(_ number: Int32) -> DispatchSourceSignal {
        signal(number, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
        source.setEventHandler {
            AtomicOutput.removeTemporaryFiles {
                let note = interruptNote?() ?? "interrupted: nothing half-written is left"
                FileHandle.standardError.write(Data("\n\(note)\n".utf8))
                Foundation.exit(128 + number)
            }
        }
        source.resume()
        return source
    }
}

/// The signal sources, kept for the life of the process.
nonisolated(unsafe) private var interruptHandlers: [DispatchSourceSignal] = []

/// What an interrupted command says as it exits, where it knows more than that nothing is
/// half-written: a render, that it wrote nothing; a build, what it kept; the studio, the
/// edits it had not saved.
nonisolated(unsafe) var interruptNote: (@Sendable () -> String)?
