import Dispatch
import Foundation
import Raster
import Synchronization

/// A folder of numbered PNG frames.
public enum PNGSequence {
    /// The folder's PNG files (hidden ones left out), in natural name order, so `frame2` comes
    /// before `frame10`: the order `encode` plays and `compare` matches. Numbered frames must
    /// be one unbroken sequence: a gap (a frame gone, which would play closed up), a number
    /// given twice, a second sequence or a stray unnumbered PNG beside numbered ones (a
    /// `cover.png`, which would play as frame 0) is an error naming the file.
    public static func files(in folder: String) throws -> [String] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder)
            .filter { $0.lowercased().hasSuffix(".png") && !$0.hasPrefix(".") }
            .sorted { $0.compare($1, options: .numeric) == .orderedAscending }
        try checkNumbering(names, in: folder)
        return names.map { (folder as NSString).appendingPathComponent($0) }
    }

    /// A frame name's stem and number: `frame0007.png` → ("frame", 7).
    static func frameNumber(_ name: String) -> (stem: String, number: Int)? {
        let base = name.dropLast(4)
        let digits = base.reversed().prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 9, let n = Int(String(digits.reversed())) else { return nil }
        return (String(base.dropLast(digits.count)), n)
    }

    static func checkNumbering(_ names: [String], in folder: String) throws {
        let numbered = names.compactMap { name in
            frameNumber(name).map { (name: name, stem: $0.stem, number: $0.number) }
        }
        guard !numbered.isEmpty, names.count > 1 else { return }
        func fail(_ reason: String) -> DecodeError { .unreadable(path: folder, reason: reason) }
        let first = numbered[0]
        if let stray = names.first(where: { frameNumber($0) == nil }) {
            throw fail("\(stray) is not a numbered frame beside \(first.name) …; move it out of the folder")
        }
        if let other = numbered.first(where: { $0.stem != first.stem }) {
            throw fail("\(other.name) and \(first.name) are two sequences; keep one in the folder")
        }
        for (a, b) in zip(numbered, numbered.dropFirst()) {
            if b.number == a.number { throw fail("\(a.name) and \(b.name) are both frame \(a.number)") }
            if b.number != a.number + 1 {
                let gap =
                    a.number + 1 == b.number - 1
                    ? "frame \(a.number + 1) is" : "frames \(a.number + 1)-\(b.number - 1) are"
                throw fail("\(gap) missing between \(a.name) and \(b.name); the frames after would play early")
            }
        }
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
