import Dispatch

/// LZW-compresses and writes remapped frames on a serial queue of its own, so that giflib
/// works on one frame while the next is being remapped. Frames are written in the order they
/// are handed over; the first error stops all later writes and is rethrown by `drain`.
final class FrameWriter: @unchecked Sendable {
    /// One frame ready for giflib: `indices` has `rowStride` entries a row, and the image is
    /// the `w`x`h` box at (`column`, `row`) in it.
    struct Frame {
        var x: Int, y: Int, w: Int, h: Int
        var indices: [UInt8]
        var rowStride: Int
        var column: Int, row: Int
        var palette: [UInt8]
        var transparent: Int
        var delay: Int
    }

    private let stream: GIFStream
    private let queue = DispatchQueue(label: "flipbook.gif-writer")
    /// Bounds how many remapped frames wait in memory for the writer.
    private let slots = DispatchSemaphore(value: 3)
    // The fields below are touched only on `queue`, or after `drain`.
    private var error: Error?
    private var seconds = 0.0

    init(stream: GIFStream) { self.stream = stream }

    /// Queues a frame; blocks while three frames are already waiting.
    func write(_ frame: Frame) {
        slots.wait()
        queue.async { [self] in
            defer { slots.signal() }
            guard error == nil else { return }
            let started = monotonicSeconds()
            var frame = frame
            do {
                try frame.indices.withUnsafeMutableBufferPointer { p in
                    try stream.putFrame(
                        x: frame.x, y: frame.y, w: frame.w, h: frame.h,
                        indices: p.baseAddress! + frame.row * frame.rowStride + frame.column, rowStride: frame.rowStride,
                        palette: frame.palette, transparent: frame.transparent, delay: frame.delay)
                }
            } catch {
                self.error = error
            }
            seconds += monotonicSeconds() - started
        }
    }

    /// Waits for every queued frame; rethrows the first write error. Returns the seconds
    /// spent writing so far.
    @discardableResult
    func drain() throws -> Double {
        let (error, seconds) = queue.sync { (self.error, self.seconds) }
        if let error { throw error }
        return seconds
    }
}
