import ArgumentParser
import Dispatch
import Flipbook
import Foundation

extension RenderCommand {
    /// `render --watch`: renders, then renders again whenever an input is saved, until
    /// interrupted. A render that fails says why and waits for the next save; the output it
    /// would have replaced stays as it was. A first render whose request is invalid (an output
    /// that is an input, a value out of range) ends the watch: the command line is at fault,
    /// and no save would mend it.
    func runWatching() throws {
        var first = true
        let changed = DispatchSemaphore(value: 0)
        let watcher = InputWatcher { changed.signal() }
        defer { watcher.stop() }
        // What earlier renders wrote stays; only the one under way is dropped.
        interruptNote = { "interrupted: what earlier renders wrote stays; none is half-written" }
        while true {
            do {
                try render()
            } catch let error as ValidationError where first {
                throw error
            } catch {
                StandardStreams.writeError("error: \(onCommandLine(error))\n")
            }
            first = false
            let inputs = watchedFiles()
            watcher.watch(inputs)
            if !quiet {
                print(
                    "watching \(inputs.count) file\(inputs.count == 1 ? "" : "s") (the scene, its config and images); Ctrl-C stops"
                )
            }
            fflush(nil)  // a watcher's output is read as it comes, also through a pipe
            changed.wait()
            // Saves come in bursts (write, rename): one render for the burst.
            while changed.wait(timeout: .now() + 0.1) == .success {}
        }
    }

    /// The files a watch watches.
    func watchedFiles() -> [String] { (try? request().inputFiles) ?? [] }
}
