import CImageQuant
import Dispatch
import GIFCore
import Glibc

/// One frame's palette, built from source pixels alone, so that frames can build theirs in
/// parallel: the rect that changed since the previous source frame, the pixels that did not
/// change inside it (importance 0: they stay as shown), and libimagequant's palette for the
/// rest (or the palette of an earlier frame to reuse). Remapping, which needs what is on
/// screen, happens later and in order (`ScreenRemap`). Unchecked `Sendable`: one worker
/// writes the results, and readers see them only after `wait`.
final class FramePalette: @unchecked Sendable {
    /// The flattened frame (opaque RGBA, tightly packed).
    let current: [UInt8]
    let delay: Int
    let isFirst: Bool
    /// Shown for a while, or last: written as remapped, with no lossy match.
    var isResting = false
    let frameWidth: Int
    /// The changed rect, in frame pixels; empty when nothing changed.
    private(set) var x0 = 0, y0 = 0, x1 = 0, y1 = 0
    /// The crop's pixels.
    private(set) var crop: UnsafeMutableBufferPointer<UInt8>
    /// 0 where a crop pixel equals the previous frame's, else 255; `LossyMatch.settling` where
    /// it equals the previous frame's but not the one before (given `settling`).
    private(set) var importance: [UInt8] = []
    private(set) var result: OpaquePointer?
    private(set) var error: EncodeError?
    /// Seconds this frame's palette took on its worker.
    private(set) var seconds = 0.0
    /// The part of the crop with pixels that are not transparent (x, y, w, h in crop pixels),
    /// set when remapped: what the frame writes.
    var paintedBox = (x: 0, y: 0, w: 0, h: 0)
    private let done = DispatchSemaphore(value: 0)
    private var attrCopy: OpaquePointer?

    var width: Int { x1 - x0 }
    var height: Int { y1 - y0 }

    /// An earlier frame whose palette this one uses instead of building its own.
    let reuse: FramePalette?
    /// This frame's palette as RGB triples, after k-means steps over the crop (`refine`).
    private(set) var colours: [UInt8] = []
    /// Entries libimagequant left clear, and the first of them (-1 when none).
    private(set) var clear: [Bool] = []
    private(set) var transparent = -1
    /// A palette to remap with: RGB triples, the entries left clear, and the transparent one
    /// (-1 when none).
    struct Palette {
        var colours: [UInt8]
        var clear: [Bool]
        var transparent: Int
    }

    /// The palette to remap with: this frame's own, or the reused one; nil when the frame
    /// has no changed pixels.
    var palette: Palette? {
        if let reuse { return Palette(colours: reuse.colours, clear: reuse.clear, transparent: reuse.transparent) }
        return result == nil ? nil : Palette(colours: colours, clear: clear, transparent: transparent)
    }

    init(
        current: [UInt8], delay: Int, isFirst: Bool, frameWidth: Int,
        box: (x0: Int, y0: Int, x1: Int, y1: Int), reuse: FramePalette?
    ) {
        self.current = current
        self.delay = delay
        self.isFirst = isFirst
        self.frameWidth = frameWidth
        self.reuse = reuse
        (x0, y0, x1, y1) = box
        crop = UnsafeMutableBufferPointer(start: nil, count: 0)
    }

    deinit {
        if let result { liq_result_destroy(result) }
        if let attrCopy { liq_attr_destroy(attrCopy) }
        crop.deallocate()
    }

    /// Starts building on a worker thread; `wait` returns when done.
    func start(previous: [UInt8]?, settling: [UInt8]? = nil, attr: OpaquePointer, refineSteps: Int, path: String) {
        // Each worker quantizes with its own copy of the settings.
        attrCopy = liq_attr_copy(attr)
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            singleThreadedOpenMP()
            let started = monotonicSeconds()
            build(previous: previous, settling: settling, refineSteps: refineSteps, path: path)
            seconds = monotonicSeconds() - started
            done.signal()
        }
    }

    /// Makes settling pixels still (importance 0) except where `owed` (frame-sized, 1 where
    /// the screen shows a lossy match's slack) says there is something to mend.
    func mendOnly(owed: [UInt8]) {
        guard !importance.isEmpty else { return }
        for y in 0..<height {
            let row = y * width, frameRow = (y0 + y) * frameWidth + x0
            for x in 0..<width where importance[row + x] == LossyMatch.settling && owed[frameRow + x] == 0 {
                importance[row + x] = 0
            }
        }
    }

    /// Frees the pixels once remapped; the palette stays.
    func releasePixels() {
        crop.deallocate()
        crop = UnsafeMutableBufferPointer(start: nil, count: 0)
        importance = []
    }

    func wait() { done.wait() }

    private func build(previous: [UInt8]?, settling: [UInt8]?, refineSteps: Int, path: String) {
        if x1 <= x0 { return }
        let w = width, h = self.height
        crop = .allocate(capacity: w * h * 4)
        if previous != nil { importance = [UInt8](repeating: 255, count: w * h) }
        current.withUnsafeBytes { cur in
            for y in 0..<h {
                let src = ((y0 + y) * frameWidth + x0) * 4
                UnsafeMutableRawPointer(crop.baseAddress! + y * w * 4).copyMemory(
                    from: cur.baseAddress! + src, byteCount: w * 4)
            }
            guard let previous else { return }
            // Flattened pixels are opaque, so whole words compare their colours.
            previous.withUnsafeBytes { prev in
                importance.withUnsafeMutableBufferPointer { importance in
                    for y in 0..<h {
                        let src = ((y0 + y) * frameWidth + x0) * 4, out = y * w
                        for x in 0..<w
                        where cur.loadUnaligned(fromByteOffset: src + x * 4, as: UInt32.self)
                            == prev.loadUnaligned(fromByteOffset: src + x * 4, as: UInt32.self)
                        {
                            importance[out + x] = 0
                        }
                    }
                }
                guard let settling else { return }
                // Only where the picture is flat (a pixel the colour of its four neighbours) does
                // an error left on the screen show as a shape, so only there is it mended.
                let frameHeight = current.count / (frameWidth * 4)
                func word(_ offset: Int) -> UInt32 { cur.loadUnaligned(fromByteOffset: offset, as: UInt32.self) }
                func flat(_ fx: Int, _ fy: Int) -> Bool {
                    let at = (fy * frameWidth + fx) * 4, c = word(at)
                    return (fx == 0 || word(at - 4) == c) && (fx == frameWidth - 1 || word(at + 4) == c)
                        && (fy == 0 || word(at - frameWidth * 4) == c)
                        && (fy == frameHeight - 1 || word(at + frameWidth * 4) == c)
                }
                settling.withUnsafeBytes { before in
                    importance.withUnsafeMutableBufferPointer { importance in
                        for y in 0..<h {
                            let src = ((y0 + y) * frameWidth + x0) * 4, out = y * w
                            for x in 0..<w
                            where importance[out + x] == 0
                                && prev.loadUnaligned(fromByteOffset: src + x * 4, as: UInt32.self)
                                    != before.loadUnaligned(fromByteOffset: src + x * 4, as: UInt32.self)
                                && flat(x0 + x, y0 + y)
                            {
                                importance[out + x] = LossyMatch.settling
                            }
                        }
                    }
                }
            }
        }
        if reuse != nil { return }
        guard let attr = attrCopy else {
            error = .library(.libimagequant, path: path, message: "cannot copy attributes")
            return
        }
        // The palette comes from every other pixel of every other row: a quarter of the
        // histogram work, for a PSNR loss too small to see on UI frames. The full crop is still
        // what gets remapped.
        let step = PaletteColours.step
        let sw = (w + step - 1) / step, sh = (h + step - 1) / step
        // libimagequant reads the sample while quantizing only; the result keeps no pointer.
        let sample = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: sw * sh * 4)
        defer { sample.deallocate() }
        var sampleImportance = [UInt8](repeating: 255, count: sw * sh)
        for y in 0..<sh {
            for x in 0..<sw {
                let from = ((y * step) * w + x * step)
                (sample.baseAddress! + (y * sw + x) * 4).update(from: crop.baseAddress! + from * 4, count: 4)
                if previous != nil { sampleImportance[y * sw + x] = importance[from] }
            }
        }
        guard let small = liq_image_create_rgba(attr, sample.baseAddress!, Int32(sw), Int32(sh), 0) else {
            error = .library(.libimagequant, path: path, message: "cannot create a \(sw)x\(sh) image")
            return
        }
        defer { liq_image_destroy(small) }
        if previous != nil {
            liq_image_add_fixed_color(small, liq_color(r: 0, g: 0, b: 0, a: 0))
            sampleImportance.withUnsafeMutableBufferPointer {
                _ = liq_image_set_importance_map(small, $0.baseAddress!, $0.count, LIQ_COPY_PIXELS)
            }
        }
        var result: OpaquePointer?
        let status = liq_image_quantize(small, attr, &result)
        guard status == LIQ_OK, let result else {
            error = .library(.libimagequant, path: path, message: "quantization failed (liq_error \(status.rawValue))")
            return
        }
        self.result = result
        readPalette(result)
        refine(steps: refineSteps)
    }

    /// Copies libimagequant's palette out as RGB triples and clear flags.
    private func readPalette(_ result: OpaquePointer) {
        let palette = liq_get_palette(result)!.pointee
        colours = [UInt8](repeating: 0, count: Int(palette.count) * 3)
        clear = [Bool](repeating: false, count: Int(palette.count))
        withUnsafeBytes(of: palette.entries) { raw in
            let entries = raw.bindMemory(to: liq_color.self)
            for i in 0..<Int(palette.count) {
                colours[i * 3] = entries[i].r
                colours[i * 3 + 1] = entries[i].g
                colours[i * 3 + 2] = entries[i].b
                if entries[i].a == 0 {
                    clear[i] = true
                    if transparent < 0 { transparent = i }
                }
            }
        }
    }

    /// K-means (Lloyd) steps over every changed pixel of the crop, until the palette settles
    /// or `steps` (`GIFOptions.refineSteps`) have run: each opaque entry moves to the rounded
    /// mean of the pixels nearest to it, so the palette fits the crop it will be remapped
    /// against and not only the sample libimagequant saw.
    private func refine(steps: Int) {
        if steps == 0 { return }
        let usable = clear.map { !$0 }
        let histogram = importance.withUnsafeBufferPointer { importance in
            ColourHistogram(
                pixels: crop.baseAddress!, count: width * height,
                importance: importance.isEmpty ? nil : importance.baseAddress)
        }
        for _ in 0..<steps where !histogram.lloydStep(&colours, usable: usable) { break }
    }
}
