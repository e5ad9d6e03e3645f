import Dispatch

/// LZW-codes and writes frames through giflib on a serial queue of its own, so that the file
/// is written while the next frame is remapped. Frames are written in the order they are
/// handed over; the first error stops all later writes and is rethrown by `drain`.
final class FrameWriter: @unchecked Sendable {
    /// A frame's image data: palette indices still to code in one band (giflib's very bytes),
    /// or data already coded (lossy, which must happen in order, before the next remap).
    enum ImageData {
        /// The `w`x`h` box at (`column`, `row`) of `indices`, `rowStride` entries a row.
        case indices([UInt8], rowStride: Int, column: Int, row: Int, minCodeSize: Int)
        case coded([UInt8])
    }

    /// One frame ready for giflib.
    struct Frame {
        var x: Int, y: Int, w: Int, h: Int
        var data: ImageData
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
            do {
                let blocks: [UInt8]
                switch frame.data {
                case .coded(let coded):
                    blocks = coded
                case .indices(var indices, let rowStride, let column, let row, let minCodeSize):
                    blocks = indices.withUnsafeMutableBufferPointer { p in
                        LZWCoder.encode(indices: p.baseAddress! + row * rowStride + column, rowStride: rowStride,
                                        width: frame.w, height: frame.h, minCodeSize: minCodeSize, bandRows: frame.h)
                    }
                }
                try stream.putFrame(
                    x: frame.x, y: frame.y, w: frame.w, h: frame.h, blocks: blocks,
                    palette: frame.palette, transparent: frame.transparent, delay: frame.delay)
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
