import Dispatch
import Flipbook
import Foundation

extension RenderCommand {
    /// `render --watch`: renders, then renders again whenever an input is saved, until
    /// interrupted. A render that fails says why and waits for the next save; the output it
    /// would have replaced stays as it was.
    func runWatching() throws {
        let changed = DispatchSemaphore(value: 0)
        let watcher = FileWatcher(paths: []) { _ in changed.signal() }
        defer { watcher.stop() }
        // What earlier renders wrote stays; only the one under way is dropped.
        interruptNote = { "interrupted: what earlier renders wrote stays; none is half-written" }
        while true {
            do {
                try render()
            } catch {
                FileHandle.standardError.write(Data("error: \(onCommandLine(error))\n".utf8))
            }
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
    func watchedFiles() -> [String] { request.inputFiles }
}
