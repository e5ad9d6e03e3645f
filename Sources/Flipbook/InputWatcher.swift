import FileInput

/// Watches the files a request reads (``ExportRequest/inputFiles``) and calls back when one is
/// saved, replaced or removed: what `render --watch` renders again on.
public final class InputWatcher: Sendable {
    let watcher: FileWatcher

    public init(onChange: @escaping @Sendable () -> Void) {
        watcher = FileWatcher(paths: []) { _ in onChange() }
    }

    /// Watches `paths` from now on, in place of the ones before.
    public func watch(_ paths: [String]) { watcher.watch(paths) }

    public func stop() { watcher.stop() }
}
