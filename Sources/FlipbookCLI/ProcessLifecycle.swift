import ArgumentParser
import Codecs
import Dispatch
import Foundation

extension FlipbookCommand {
    /// Runs the command line: outputs still being written are removed if the process is
    /// interrupted (SIGINT, SIGTERM, SIGHUP: a closed terminal), and `compare` exits 2 for any error, its bad options
    /// included, as its help says.
    public static func runMain() {
        interruptHandlers = [SIGINT, SIGTERM, SIGHUP].map(removeTemporariesOnSignal)
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            // compare promises 1 for "different" (its own ExitCode) and 2 for every error.
            let isCompare = CommandLine.arguments.dropFirst().first == "compare"
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
                FileHandle.standardError.write(Data("\ninterrupted: no output was written\n".utf8))
                Foundation.exit(128 + number)
            }
        }
        source.resume()
        return source
    }
}

/// The signal sources, kept for the life of the process.
nonisolated(unsafe) private var interruptHandlers: [DispatchSourceSignal] = []
