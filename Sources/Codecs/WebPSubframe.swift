import CWebP

/// One frame of an animated WebP as coded: the changed rectangle of the canvas, coded by
/// libwebp's own encoder the smallest of the ways allowed, and how it goes over the canvas.
///
/// Two ways to cover a rectangle, as a GIF's frames do:
/// - replace it (no blending): every pixel of the rectangle, coded as the frame has it;
/// - draw over it (alpha blending): the pixels equal to the frame before are transparent, so
///   the canvas shows through, and only the changed ones are coded. Only for an opaque
///   rectangle: a transparent pixel of the frame itself would show the canvas instead.
/// A pixel left to show through was coded from the same source value, so a lossy canvas
/// never drifts more than one coding from its frames. And when a lossy animation comes to a
/// flat picture (a UI at rest), that frame is a refresh: its rectangle grows over every part
/// of the canvas coded lossy since the last refresh and is coded losslessly, so the picture a
/// viewer rests on is exact.
struct WebPSubframe: Sendable {
    /// The VP8 or VP8L bitstream, with its ALPH chunk when it has one.
    var bitstream: [UInt8]
    var x: Int, y: Int
    var blends: Bool

    /// A frame's rectangle in canvas pixels; `x` and `y` are even (the format stores half).
    struct Rect: Equatable, Sendable {
        var x: Int, y: Int, width: Int, height: Int

        /// The smallest rectangle holding both.
        func union(_ o: Rect) -> Rect {
            let x0 = min(x, o.x), y0 = min(y, o.y)
            return Rect(
                x: x0, y: y0, width: max(x + width, o.x + o.width) - x0, height: max(y + height, o.y + o.height) - y0)
        }

        func contains(_ o: Rect) -> Bool {
            o.x >= x && o.y >= y && o.x + o.width <= x + width && o.y + o.height <= y + height
        }
    }

    /// Codes `rect` of `frame` (straight RGBA, `canvasWidth` pixels a row), over `previous`
    /// (the frame before, or nil for the first), as `options` allow; `colours` is the
    /// rectangle's `colourCount` when the caller has it.
    ///
    /// Losslessly, the rectangle is drawn over the canvas when any of its pixels is unchanged
    /// (transparent pixels code to almost nothing) and replaces it otherwise. Lossy, it
    /// replaces the canvas (a lossy picture with holes codes larger than a whole one), and the
    /// lossless coding is tried too when a quick one shows it may be smaller: flat UI code
    /// smaller losslessly, photographs and gradients lossy.
    static func code(
        _ frame: [UInt8], over previous: [UInt8]?, rect: Rect, canvasWidth: Int, options: WebPOptions,
        refresh: Bool = false, colours counted: Int? = nil
    ) throws -> WebPSubframe {
        let region = crop(frame, rect, canvasWidth)
        if refresh {
            return WebPSubframe(
                bitstream: try encode(region, rect.width, rect.height, .lossless(level: flatLevel), exact: true),
                x: rect.x, y: rect.y, blends: false)
        }
        var drawnOver: [UInt8]?
        if let previous, isOpaque(region) {
            var changedOnly = region
            let before = crop(previous, rect, canvasWidth)
            var unchanged = false
            changedOnly.withUnsafeMutableBytes { out in
                before.withUnsafeBytes { old in
                    let o = out.bindMemory(to: UInt32.self), b = old.bindMemory(to: UInt32.self)
                    for i in 0..<o.count where o[i] == b[i] {
                        o[i] = 0
                        unchanged = true
                    }
                }
            }
            if unchanged { drawnOver = changedOnly }
        }
        let colours = counted ?? colourCount(region)
        let flat = colours <= 1024
        // Flat pictures code fast at any effort, so they get a thorough one and both ways over
        // the canvas; many colours (gradients, photographs) cost a lossless coder dearly, so
        // they get a quick one, drawn over the canvas when any pixel is unchanged.
        let level = flat ? flatLevel : losslessLevel
        func losslessFrame(level: Int32) throws -> WebPSubframe {
            var best = WebPSubframe(
                bitstream: try encode(
                    drawnOver ?? region, rect.width, rect.height, .lossless(level: level), exact: drawnOver == nil),
                x: rect.x, y: rect.y, blends: drawnOver != nil)
            if flat && drawnOver != nil {
                let replacing = try encode(region, rect.width, rect.height, .lossless(level: level), exact: true)
                if replacing.count < best.bitstream.count {
                    best = WebPSubframe(bitstream: replacing, x: rect.x, y: rect.y, blends: false)
                }
            }
            return best
        }
        guard let quality = options.quality else { return try losslessFrame(level: level) }
        let lossy = WebPSubframe(
            bitstream: try encode(
                region, rect.width, rect.height, .lossy(quality: quality, method: options.method), exact: true),
            x: rect.x, y: rect.y, blends: false)
        // Thousands of colours (a photograph, a gradient) code far smaller lossy: no need to
        // try. Otherwise a quick lossless coding tells whether a thorough one may win.
        guard colours <= fewColours else { return lossy }
        let quick = try losslessFrame(level: 1)
        guard quick.bitstream.count < lossy.bitstream.count * 115 / 100 else { return lossy }
        let thorough = try losslessFrame(level: level)
        return [lossy, quick, thorough].min { $0.bitstream.count < $1.bitstream.count }!
    }

    /// libwebp's lossless preset (0 fast … 9 smallest; `cwebp -z`) for a picture of many
    /// colours: the level where an animation's frames code in about the time a GIF's do.
    static let losslessLevel: Int32 = 1
    /// The preset for a flat picture (at most 1024 colours in a sample).
    static let flatLevel: Int32 = 6

    /// How a picture is coded.
    enum Coding {
        case lossless(level: Int32)
        case lossy(quality: Int, method: Int)
    }

    /// The most colours (in a sample) a picture may have for a lossless coding to be worth
    /// trying: above it, photographs and gradients, which code far smaller lossy.
    static let fewColours = 4096

    /// The colours in a sample of the pixels (every third), counted up to `fewColours` + 1.
    static func colourCount(_ pixels: [UInt8]) -> Int {
        var seen = Set<UInt32>(minimumCapacity: fewColours + 1)
        return pixels.withUnsafeBytes { raw in
            let p = raw.bindMemory(to: UInt32.self)
            var i = 0
            while i < p.count && seen.count <= fewColours {
                seen.insert(p[i])
                i += 3
            }
            return seen.count
        }
    }

    /// The changed pixels' bounding rectangle between two frames of `width` x `height`, its
    /// corner moved to even coordinates; nil when they are the same.
    static func changedRect(_ a: [UInt8], _ b: [UInt8], width: Int, height: Int) -> Rect? {
        a.withUnsafeBytes { pa in
            b.withUnsafeBytes { pb in
                let x = pa.bindMemory(to: UInt32.self), y = pb.bindMemory(to: UInt32.self)
                var minX = width, minY = height, maxX = -1, maxY = -1
                for row in 0..<height {
                    let base = row * width
                    var first = 0
                    while first < width && x[base + first] == y[base + first] { first += 1 }
                    guard first < width else { continue }
                    var last = width - 1
                    while x[base + last] == y[base + last] { last -= 1 }
                    minY = min(minY, row)
                    maxY = row
                    minX = min(minX, first)
                    maxX = max(maxX, last)
                }
                guard maxY >= 0 else { return nil }
                let x0 = minX & ~1, y0 = minY & ~1
                return Rect(x: x0, y: y0, width: maxX + 1 - x0, height: maxY + 1 - y0)
            }
        }
    }

    static func crop(_ frame: [UInt8], _ r: Rect, _ canvasWidth: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: r.width * r.height * 4)
        frame.withUnsafeBytes { src in
            out.withUnsafeMutableBytes { dst in
                for row in 0..<r.height {
                    let from = ((r.y + row) * canvasWidth + r.x) * 4
                    dst.baseAddress!.advanced(by: row * r.width * 4).copyMemory(
                        from: src.baseAddress!.advanced(by: from), byteCount: r.width * 4)
                }
            }
        }
        return out
    }

    static func isOpaque(_ pixels: [UInt8]) -> Bool {
        var i = 3
        while i < pixels.count {
            if pixels[i] != 255 { return false }
            i += 4
        }
        return true
    }

    /// One picture through WebPEncode. `exact` keeps the colour under transparent pixels.
    static func encode(_ pixels: [UInt8], _ width: Int, _ height: Int, _ coding: Coding, exact: Bool) throws
        -> [UInt8]
    {
        var config = WebPConfig()
        guard WebPConfigInit(&config) != 0 else {
            throw EncodeError.library(.libwebp, path: "", message: "libwebp's version does not match its headers")
        }
        switch coding {
        case .lossless(let level):
            guard WebPConfigLosslessPreset(&config, level) != 0 else {
                throw EncodeError.library(.libwebp, path: "", message: "no lossless preset \(level)")
            }
        case .lossy(let quality, let method):
            config.quality = Float(quality)
            config.method = Int32(method)
        }
        config.exact = exact ? 1 : 0
        // Frames are coded side by side, one per core; each on one thread.
        config.thread_level = 0
        guard WebPValidateConfig(&config) != 0 else {
            throw EncodeError.library(.libwebp, path: "", message: "invalid encoder settings")
        }
        var picture = WebPPicture()
        guard WebPPictureInit(&picture) != 0 else {
            throw EncodeError.library(.libwebp, path: "", message: "cannot make a picture")
        }
        defer { WebPPictureFree(&picture) }
        picture.use_argb = 1
        picture.width = Int32(width)
        picture.height = Int32(height)
        guard pixels.withUnsafeBufferPointer({ WebPPictureImportRGBA(&picture, $0.baseAddress, Int32(width * 4)) }) != 0
        else { throw EncodeError.library(.libwebp, path: "", message: "out of memory for a frame") }
        var writer = WebPMemoryWriter()
        WebPMemoryWriterInit(&writer)
        defer { WebPMemoryWriterClear(&writer) }
        let ok = withUnsafeMutablePointer(to: &writer) { w -> Int32 in
            picture.writer = WebPMemoryWrite
            picture.custom_ptr = UnsafeMutableRawPointer(w)
            return WebPEncode(&config, &picture)
        }
        guard ok != 0 else {
            throw EncodeError.library(
                .libwebp, path: "", message: "coding a frame failed (error \(picture.error_code.rawValue))")
        }
        return Array(UnsafeBufferPointer(start: writer.mem, count: writer.size))
    }
}
