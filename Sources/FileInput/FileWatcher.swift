import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Calls back when any of a set of files is written, replaced, created or removed: inotify on
/// Linux, a poll of each file's size and modification time elsewhere. Editors save by
/// writing in place or by writing a new file and renaming it over the old one, so the
/// files' folders are watched and events are matched by name. Changes that arrive together
/// (an editor's write, then its rename) are reported once, after `settle` seconds of quiet.
public final class FileWatcher: Sendable {
    private let state: Mutex<State>
    private let queue = DispatchQueue(label: "flipbook.file-watcher")
    private let settle: Double
    private let onChange: @Sendable ([String]) -> Void

    private struct State {
        var paths: Set<String> = []
        var pending: Set<String> = []
        var stopped = false
        var stamps: [String: Stamp] = [:]
        /// Counts the sets of paths watched; a reader or poller of an earlier set stops.
        var generation = 0
    }

    private struct Stamp: Equatable {
        var size: Int?
        var modified: Date?
    }

    /// Watches `paths` (made absolute); `onChange` gets the paths that changed, on a queue of its own.
    public init(paths: [String], settle: Double = 0.05, onChange: @escaping @Sendable ([String]) -> Void) {
        self.settle = settle
        self.onChange = onChange
        state = Mutex(State())
        watch(paths)
    }

    deinit { stop() }

    /// Replaces the set of files watched (a scene that now names other images); the same set
    /// again changes nothing.
    public func watch(_ paths: [String]) {
        let absolute = Set(paths.map { URL(fileURLWithPath: $0).standardizedFileURL.path })
        let generation = state.withLock { s -> Int? in
            guard s.paths != absolute || s.generation == 0 else { return nil }
            s.paths = absolute
            s.stamps = Dictionary(uniqueKeysWithValues: absolute.map { ($0, Self.stamp($0)) })
            s.generation += 1
            return s.generation
        }
        guard let generation else { return }
        #if os(Linux)
            startInotify(folders: Set(absolute.map { parentFolder(of: $0) }), generation)
        #else
            startPolling(generation)
        #endif
    }

    /// Stops watching; no callback runs after it returns (the reader closes its descriptor
    /// within a poll's timeout).
    public func stop() {
        state.withLock { $0.stopped = true }
    }

    private static func stamp(_ path: String) -> Stamp {
        let a = try? FileManager.default.attributesOfItem(atPath: path)
        return Stamp(size: a?[.size] as? Int, modified: a?[.modificationDate] as? Date)
    }

    /// Notes changed paths and reports them once no more have come for `settle` seconds.
    private func noted(_ changed: [String]) {
        let first = state.withLock { s -> Bool in
            let wasEmpty = s.pending.isEmpty
            s.pending.formUnion(changed.filter(s.paths.contains))
            return wasEmpty && !s.pending.isEmpty
        }
        guard first else { return }
        queue.asyncAfter(deadline: .now() + settle) { [self] in
            let paths = state.withLock { s -> [String] in
                defer { s.pending = [] }
                return s.stopped ? [] : s.pending.sorted()
            }
            if !paths.isEmpty { onChange(paths) }
        }
    }

    // MARK: Polling (any platform)

    private func startPolling(_ generation: Int) {
        queue.asyncAfter(deadline: .now() + 0.25) { [weak self] in self?.poll(generation) }
    }

    private func poll(_ generation: Int) {
        let (stopped, paths, current) = state.withLock { ($0.stopped, $0.paths, $0.generation) }
        guard !stopped, current == generation else { return }
        let changed = paths.filter { path in
            let now = Self.stamp(path)
            return state.withLock { s in
                defer { s.stamps[path] = now }
                return s.stamps[path] != now
            }
        }
        if !changed.isEmpty { noted(Array(changed)) }
        startPolling(generation)
    }

    // MARK: inotify (Linux)

    #if os(Linux)
        private func startInotify(folders: Set<String>, _ generation: Int) {
            // Each set of folders gets a descriptor of its own, which its reader closes when it
            // sees a newer set: a number closed here could be reused under a reader still polling it.
            let fd = inotify_init1(Int32(IN_CLOEXEC))
            guard fd >= 0 else {
                startPolling(generation)
                return
            }
            let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_ATTRIB)
            var watches: [Int32: String] = [:]
            for folder in folders {
                let wd = inotify_add_watch(fd, folder, mask)
                if wd >= 0 { watches[wd] = folder }
            }
            Thread.detachNewThread { [weak self, watches] in self?.read(fd, generation, watches) }
        }

        /// Reads inotify events until the watcher stops or watches another set.
        private func read(_ fd: Int32, _ generation: Int, _ watches: [Int32: String]) {
            defer { close(fd) }
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let ready = Glibc.poll(&poller, 1, 200)
                let current = state.withLock { $0.stopped ? -1 : $0.generation }
                guard current == generation else { return }
                guard ready > 0 else { continue }
                let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                guard n > 0 else { return }
                var changed: [String] = []
                var offset = 0
                let header = MemoryLayout<inotify_event>.size
                while offset + header <= n {
                    let (wd, length) = buffer.withUnsafeBytes { raw -> (Int32, Int) in
                        let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                        return (event.wd, Int(event.len))
                    }
                    let nameBytes = buffer[(offset + header)..<min(n, offset + header + length)]
                    let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
                    if let folder = watches[wd], !name.isEmpty {
                        changed.append((folder as NSString).appendingPathComponent(name))
                    }
                    offset += header + length
                }
                if !changed.isEmpty { noted(changed) }
            }
        }
    #endif
}
