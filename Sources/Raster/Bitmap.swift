import Geometry

/// A premultiplied RGBA8 image that owns its pixels. Rows are `rowBytes` apart.
public struct Bitmap: Equatable, Sendable {
    public let width: Int
    public let height: Int
    /// Bytes from one row to the next (at least `width * 4`).
    public let rowBytes: Int
    /// Premultiplied R, G, B, A bytes, row after row.
    public private(set) var pixels: [UInt8]

    /// A bitmap filled with one colour (transparent by default).
    public init(width: Int, height: Int, fill: PremultipliedColor = Color.clear.premultiplied) {
        precondition(width >= 0 && height >= 0, "bitmap size must not be negative")
        self.width = width
        self.height = height
        self.rowBytes = width * 4
        if fill.packed == 0 {
            self.pixels = [UInt8](repeating: 0, count: width * height * 4)
        } else {
            // One pass: zeroing first and then filling cost a second write of every byte.
            let count = width * height * 4
            self.pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
                UnsafeMutableRawBufferPointer(buffer).bindMemory(to: UInt32.self)
                    .initialize(repeating: fill.packed.littleEndian)
                initialized = count
            }
        }
    }

    /// A bitmap whose every pixel `paint` writes: the buffer is not filled first, so a frame
    /// that draws over its whole area pays for each byte once. `paint` must write every pixel
    /// before reading it (a pixel left unwritten holds whatever the memory held).
    public init(width: Int, height: Int, paintingEveryPixel paint: (BitmapView) -> Void) {
        precondition(width >= 0 && height >= 0, "bitmap size must not be negative")
        self.width = width
        self.height = height
        self.rowBytes = width * 4
        let count = width * height * 4
        self.pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            if let base = buffer.baseAddress {
                paint(BitmapView(base: base, width: width, height: height, rowBytes: width * 4))
            }
            initialized = count
        }
    }

    /// Wraps premultiplied bytes; `pixels.count` must be `rowBytes * height`.
    public init(width: Int, height: Int, rowBytes: Int? = nil, premultipliedPixels pixels: [UInt8]) {
        let stride = rowBytes ?? width * 4
        precondition(stride >= width * 4 && pixels.count >= stride * height, "pixel buffer too small")
        self.width = width
        self.height = height
        self.rowBytes = stride
        self.pixels = pixels
    }

    public var bounds: PixelRect { PixelRect(x: 0, y: 0, width: width, height: height) }

    /// Bitmaps are equal when their pixels are: the bytes past a row's last pixel do not count.
    public static func == (a: Bitmap, b: Bitmap) -> Bool {
        guard a.width == b.width, a.height == b.height else { return false }
        let row = a.width * 4
        return a.pixels.withUnsafeBytes { pa in
            b.pixels.withUnsafeBytes { pb in
                guard let pa = pa.baseAddress, let pb = pb.baseAddress else { return true }
                return (0..<a.height).allSatisfy { y in
                    let (p, q) = (pa + y * a.rowBytes, pb + y * b.rowBytes)
                    var i = 0
                    while i + 8 <= row {
                        guard
                            p.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                                == q.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                        else { return false }
                        i += 8
                    }
                    return i == row
                        || p.loadUnaligned(fromByteOffset: i, as: UInt32.self)
                            == q.loadUnaligned(fromByteOffset: i, as: UInt32.self)
                }
            }
        }
    }

    /// The pixel at (x, y).
    public subscript(x: Int, y: Int) -> PremultipliedColor {
        get {
            let i = y * rowBytes + x * 4
            return PremultipliedColor(unchecked: pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
        }
        set {
            let i = y * rowBytes + x * 4
            pixels[i] = newValue.r
            pixels[i + 1] = newValue.g
            pixels[i + 2] = newValue.b
            pixels[i + 3] = newValue.a
        }
    }

    /// True when every pixel has alpha 255.
    public var isOpaque: Bool {
        pixels.withUnsafeBufferPointer { p in
            guard let base = p.baseAddress else { return true }
            let raw = UnsafeRawPointer(base)
            // A row's pixels as words ANDed together: every alpha is 255 where theirs is.
            for y in 0..<height {
                var all = UInt32.max
                let row = y &* rowBytes
                for x in 0..<width {
                    all &= UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: row &+ 4 &* x, as: UInt32.self))
                }
                if all >> 24 != 255 { return false }
            }
            return true
        }
    }

    /// Lends a mutable view of the whole bitmap to `body`; the view must not escape it.
    /// Discardable, since a one-line `body` returns what its draw returns (`draw` gives the
    /// rect it overlaid).
    @discardableResult
    public mutating func withView<R>(_ body: (BitmapView) throws -> R) rethrows -> R {
        let (w, h, rb) = (width, height, rowBytes)
        return try pixels.withUnsafeMutableBufferPointer { buffer in
            try body(BitmapView(base: buffer.baseAddress!, width: w, height: h, rowBytes: rb))
        }
    }

    /// A copy of a sub-rectangle, tightly packed.
    public func cropped(to rect: PixelRect) -> Bitmap {
        let r = rect.intersection(bounds)
        var out = [UInt8](repeating: 0, count: max(0, r.width * r.height * 4))
        for row in 0..<r.height {
            let src = (r.y + row) * rowBytes + r.x * 4
            out.withUnsafeMutableBufferPointer { dst in
                pixels.withUnsafeBufferPointer { s in
                    (dst.baseAddress! + row * r.width * 4).update(from: s.baseAddress! + src, count: r.width * 4)
                }
            }
        }
        return Bitmap(width: r.width, height: r.height, premultipliedPixels: out)
    }

    /// The picture turned clockwise by `quarterTurns` right angles, tightly packed: a video's
    /// picture as its display matrix asks players to show it.
    public func turnedClockwise(quarterTurns: Int) -> Bitmap {
        let turns = ((quarterTurns % 4) + 4) % 4
        if turns == 0 { return self }
        let (w, h) = turns == 2 ? (width, height) : (height, width)
        var out = [UInt8](repeating: 0, count: w * h * 4)
        pixels.withUnsafeBytes { src in
            out.withUnsafeMutableBytes { dst in
                let s = src.bindMemory(to: UInt32.self), d = dst.bindMemory(to: UInt32.self)
                let stride = rowBytes / 4
                for y in 0..<height {
                    for x in 0..<width {
                        // Where (x, y) lands: a clockwise quarter turn takes it to (h' - 1 - y, x).
                        let (u, v) =
                            switch turns {
                            case 1: (height - 1 - y, x)
                            case 2: (width - 1 - x, height - 1 - y)
                            default: (y, width - 1 - x)
                            }
                        d[v * w + u] = s[y * stride + x]
                    }
                }
            }
        }
        return Bitmap(width: w, height: h, premultipliedPixels: out)
    }
}

/// A borrowed, mutable window onto a bitmap's pixels: the whole of it or a sub-rectangle.
/// It is valid only inside the `withView` call that lent it.
public struct BitmapView {
    public let base: UnsafeMutablePointer<UInt8>
    public let width: Int
    public let height: Int
    public let rowBytes: Int

    public init(base: UnsafeMutablePointer<UInt8>, width: Int, height: Int, rowBytes: Int) {
        self.base = base
        self.width = width
        self.height = height
        self.rowBytes = rowBytes
    }

    public var bounds: PixelRect { PixelRect(x: 0, y: 0, width: width, height: height) }

    /// A view of `rect` (clamped to this view); drawing into it stays inside `rect`.
    public func subview(_ rect: PixelRect) -> BitmapView {
        let r = rect.intersection(bounds)
        return BitmapView(base: base + r.y * rowBytes + r.x * 4, width: r.width, height: r.height, rowBytes: rowBytes)
    }

    @inline(__always)
    func row(_ y: Int) -> UnsafeMutablePointer<UInt8> { base + y * rowBytes }

    /// Sets every pixel outside `hidden` to `color`, ignoring what was there.
    public func clear(to color: PremultipliedColor, hidden: Occlusion = .none) {
        let word = color.packed.littleEndian
        for band in hidden.bands(in: bounds) {
            for y in band.rows {
                let words = UnsafeMutableRawPointer(row(y)).bindMemory(to: UInt32.self, capacity: width)
                for run in band.runs {
                    (words + run.lowerBound).update(repeating: word, count: run.count)
                }
            }
        }
    }

    /// Copies `rect` of `source` (a bitmap of this view's size) to the same place here, as
    /// one block where the rows are whole and contiguous.
    public func copy(_ rect: PixelRect, from source: Bitmap) {
        precondition(source.width == width && source.height == height, "copy needs a bitmap of the view's size")
        let r = rect.intersection(bounds)
        if r.isEmpty { return }
        source.pixels.withUnsafeBufferPointer { src in
            let from = src.baseAddress!
            if r.width == width && rowBytes == width * 4 && source.rowBytes == rowBytes {
                row(r.y).update(from: from + r.y * rowBytes, count: r.height * rowBytes)
                return
            }
            for y in r.y..<r.maxY {
                (row(y) + r.x * 4).update(from: from + y * source.rowBytes + r.x * 4, count: r.width * 4)
            }
        }
    }

    /// The pixel at (x, y).
    public subscript(x: Int, y: Int) -> PremultipliedColor {
        let p = row(y) + x * 4
        return PremultipliedColor(unchecked: p[0], p[1], p[2], p[3])
    }
}
