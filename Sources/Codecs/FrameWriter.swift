import Dispatch
import GIFCore

/// Compacts each frame's palette, LZW-codes it and writes it through giflib on a serial queue
/// of its own, so that the file is written while the next frame is remapped. Frames are
/// written in the order they are handed over; the first error stops all later writes and is
/// rethrown by `drain`.
final class FrameWriter: @unchecked Sendable {
    /// One frame ready to code: the `w`x`h` box at (`column`, `row`) of `indices`, which has
    /// `rowStride` entries a row, shown at (`canvasX`, `canvasY`) of the GIF's canvas.
    struct Frame {
        var canvasX: Int, canvasY: Int, w: Int, h: Int
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
            do {
                var frame = frame
                let compact = compactPalette(&frame)
                // Clearing the table as soon as it fills (giflib's way) and keeping a full table
                // while it pays (gifsicle's) each win on some frames: code both, keep the shorter.
                let blocks = frame.indices.withUnsafeBufferPointer { p in
                    let (eager, deferred) = LZWCoder.encodeBothClears(
                        indices: p.baseAddress! + frame.row * frame.rowStride + frame.column,
                        rowStride: frame.rowStride, width: frame.w, height: frame.h,
                        minCodeSize: GIFStream.minCodeSize(entries: compact.palette.count / 3))
                    return deferred.count < eager.count ? deferred : eager
                }
                try stream.putFrame(
                    x: frame.canvasX, y: frame.canvasY, w: frame.w, h: frame.h, blocks: blocks,
                    palette: compact.palette, transparent: compact.transparent, delay: frame.delay)
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

/// Keeps only the palette entries the frame's box uses, in their order, and renumbers the
/// box's indices: a frame that uses 4 of 128 entries gets 2-bit codes and a 12-byte table
/// instead of 7-bit codes and 384 bytes. The transparent index goes when no pixel uses it.
func compactPalette(_ frame: inout FrameWriter.Frame) -> (palette: [UInt8], transparent: Int) {
    var used = [Bool](repeating: false, count: 256)
    let (stride, column, row, w, h) = (frame.rowStride, frame.column, frame.row, frame.w, frame.h)
    frame.indices.withUnsafeBufferPointer { p in
        for y in row..<(row + h) {
            let line = p.baseAddress! + y * stride + column
            for x in 0..<w { used[Int(line[x])] = true }
        }
    }
    var map = [UInt8](repeating: 0, count: 256)
    var palette: [UInt8] = []
    for i in 0..<(frame.palette.count / 3) where used[i] {
        map[i] = UInt8(palette.count / 3)
        palette += frame.palette[(i * 3)..<(i * 3 + 3)]
    }
    if palette.isEmpty { palette = [0, 0, 0] }
    let transparent = frame.transparent >= 0 && used[frame.transparent] ? Int(map[frame.transparent]) : -1
    frame.indices.withUnsafeMutableBufferPointer { p in
        for y in row..<(row + h) {
            let line = p.baseAddress! + y * stride + column
            for x in 0..<w { line[x] = map[Int(line[x])] }
        }
    }
    return (palette, transparent)
}
