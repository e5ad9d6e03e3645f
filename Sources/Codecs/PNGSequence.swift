import Dispatch
import Foundation
import Raster
import Synchronization

/// A folder of numbered PNG frames.
public enum PNGSequence {
    /// The folder's PNG files (hidden ones left out), in natural name order, so `frame2` comes
    /// before `frame10`: the order `encode` plays and `compare` matches.
    public static func files(in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder)
            .filter { $0.lowercased().hasSuffix(".png") && !$0.hasPrefix(".") }
            .sorted { $0.compare($1, options: .numeric) == .orderedAscending }
            .map { (folder as NSString).appendingPathComponent($0) }
    }
}

/// Writes numbered PNG frames into a folder on several threads, while the caller renders the
/// next ones: each frame is compressed (zlib's fast level) and written atomically on a worker,
/// at most `threads` at a time. The first failure stops later writes and is rethrown by
/// `finish`; `abandon` removes every frame it wrote.
public final class PNGSequenceWriter: Sendable {
    private let queue = DispatchQueue(label: "flipbook.png-sequence", attributes: .concurrent)
    private let group = DispatchGroup()
    private let room: DispatchSemaphore
    /// The frames written so far, and the first failure.
    private let state = Mutex<(written: [String], failure: (any Error)?)>(([], nil))

    public init(threads: Int) {
        room = DispatchSemaphore(value: max(1, threads))
    }

    /// Queues `bitmap` to be written to `path`; waits while `threads` writes are under way.
    public func write(_ bitmap: Bitmap, to path: String) throws {
        if let failure = state.withLock({ $0.failure }) { throw failure }
        room.wait()
        queue.async(group: group) { [self] in
            defer { room.signal() }
            guard state.withLock({ $0.failure == nil }) else { return }
            do {
                let out = try AtomicOutput(path: path)
                try out.write(PNGCodec.encode(bitmap, name: path, fast: true))
                // Until the sequence is finished its frames are scratch: an interrupted process
                // removes them as it does temporary files, from the moment each is in place.
                try out.commit(keepingTracked: true)
                state.withLock { $0.written.append(path) }
            } catch {
                state.withLock { if $0.failure == nil { $0.failure = error } }
            }
        }
    }

    /// Waits for every write; rethrows the first failure.
    public func finish() throws {
        group.wait()
        if let failure = state.withLock({ $0.failure }) { throw failure }
        for path in state.withLock({ $0.written }) { AtomicOutput.untrack(path) }
    }

    /// Waits for the writes under way, then removes every frame written.
    public func abandon() {
        group.wait()
        for path in state.withLock({ $0.written }) {
            AtomicOutput.untrack(path)
            try? FileManager.default.removeItem(atPath: path)
        }
    }
}
