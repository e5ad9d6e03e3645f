import Flipbook

/// A grey picture in floats, at a working size: what fitting compares. Each pixel is the mean
/// of R, G and B over the box of source pixels it covers, composited over white, so a
/// recording and a render of different sizes compare on the same grid.
struct LumaImage: Sendable {
    let width: Int
    let height: Int
    var pixels: [Float]

    init(width: Int, height: Int, pixels: [Float]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The part `crop` (x, y, width, height in the bitmap's pixels; all of it by default) of
    /// `bitmap`, box-filtered to `width` × `height`.
    init(_ bitmap: Bitmap, crop: Crop? = nil, width: Int, height: Int) {
        let c = crop ?? Crop(x: 0, y: 0, width: bitmap.width, height: bitmap.height)
        self.width = width
        self.height = height
        let rowBytes = bitmap.rowBytes
        if c.width == width && c.height == height && c.x >= 0 && c.y >= 0 && c.x + width <= bitmap.width
            && c.y + height <= bitmap.height
        {
            // One source pixel each (a render at the working size): every pixel written once.
            pixels = bitmap.pixels.withUnsafeBufferPointer { p in
                [Float](unsafeUninitializedCapacity: width * height) { out, count in
                    Self.greys(
                        p, from: c.y &* rowBytes &+ c.x &* 4, rowBytes: rowBytes, width: width, height: height,
                        into: out)
                    count = width * height
                }
            }
            return
        }
        var out = [Float](repeating: 255, count: width * height)
        let sx = Double(c.width) / Double(width), sy = Double(c.height) / Double(height)
        let columns = (0..<width).map { BoxFilter.box($0, sx, c.x, bitmap.width) }
        bitmap.pixels.withUnsafeBufferPointer { p in
            out.withUnsafeMutableBufferPointer { o in
                // Each source column's sums over the output row's box of rows, then each output
                // column's box of those: whole numbers, so the same sums in any order. A pixel's
                // four bytes add into two words of two 16-bit lanes each (R and B, G and A), a
                // few operations a pixel in the order memory holds them; 257 rows of 255 fill a
                // lane, so the lanes are emptied into whole sums every 256 rows.
                let x0 = max(0, c.x), x1 = min(bitmap.width, c.x + c.width)
                guard x0 < x1 else { return }
                let n = x1 - x0
                var lanes = [UInt32](repeating: 0, count: 2 * n), sums = [Int](repeating: 0, count: n)
                let raw = UnsafeRawBufferPointer(p)
                columns.withUnsafeBufferPointer { columns in
                    lanes.withUnsafeMutableBufferPointer { lanes in
                        sums.withUnsafeMutableBufferPointer { sums in
                            for y in 0..<height {
                                let (y0, y1) = BoxFilter.box(y, sy, c.y, bitmap.height)
                                guard y0 < y1 else { continue }
                                for x in 0..<n { sums[x] = 0 }
                                var yy = y0
                                while yy < y1 {
                                    let rows = min(256, y1 &- yy)
                                    for x in 0..<(2 &* n) { lanes[x] = 0 }
                                    for r in yy..<(yy &+ rows) {
                                        let row = raw.baseAddress! + (r &* rowBytes &+ x0 &* 4)
                                        for x in 0..<n {
                                            let w = UInt32(
                                                littleEndian: row.loadUnaligned(fromByteOffset: x &* 4, as: UInt32.self)
                                            )
                                            lanes[x] &+= w & 0x00FF_00FF
                                            lanes[n &+ x] &+= (w >> 8) & 0x00FF_00FF
                                        }
                                    }
                                    // R + G + B + 3 (255 − A) a pixel, summed.
                                    for x in 0..<n {
                                        let rb = lanes[x], ga = lanes[n &+ x]
                                        sums[x] &+=
                                            Int(rb & 0xFFFF) &+ Int(rb >> 16) &+ Int(ga & 0xFFFF)
                                            &+ 3 &* (255 &* rows &- Int(ga >> 16))
                                    }
                                    yy &+= rows
                                }
                                for x in 0..<width {
                                    let (a, b) = columns[x]
                                    guard a < b else { continue }
                                    var sum = 0
                                    for i in (a &- x0)..<(b &- x0) { sum &+= sums[i] }
                                    o[y &* width &+ x] = Float(sum) / Float(3 &* (y1 &- y0) &* (b &- a))
                                }
                            }
                        }
                    }
                }
            }
        }
        pixels = out
    }

    /// The picture with each pixel the mean of the (2r + 1)² around it, edges repeated: rows
    /// then columns, each a running sum.
    func boxBlurred(radius r: Int) -> LumaImage {
        guard r > 0 else { return self }
        let n = Float(2 * r + 1)
        // Both passes write every pixel: no need to fill them first.
        var rows = [Float](unsafeUninitializedCapacity: pixels.count) { $1 = pixels.count }
        var out = [Float](unsafeUninitializedCapacity: pixels.count) { $1 = pixels.count }
        pixels.withUnsafeBufferPointer { p in
            rows.withUnsafeMutableBufferPointer { o in
                // Four rows' running sums side by side, one in each lane: each row's made in the
                // same order as alone (its own adds wait on each other; four rows' do not).
                let width = width
                var y = 0
                while y &+ 4 <= height {
                    let starts = SIMD4<Int>(y, y &+ 1, y &+ 2, y &+ 3) &* width
                    func at(_ x: Int) -> SIMD4<Float> {
                        let c = min(max(x, 0), width &- 1)
                        return SIMD4(p[starts[0] &+ c], p[starts[1] &+ c], p[starts[2] &+ c], p[starts[3] &+ c])
                    }
                    var sum = SIMD4<Float>(repeating: 0)
                    for x in -r...r { sum += at(x) }
                    for x in 0..<width {
                        let mean = sum / n
                        for k in 0..<4 { o[starts[k] &+ x] = mean[k] }
                        sum += at(x &+ r &+ 1) - at(x &- r)
                    }
                    y &+= 4
                }
                for y in y..<height {
                    let row = y * width
                    func at(_ x: Int) -> Float { p[row + min(max(x, 0), width - 1)] }
                    var sum: Float = 0
                    for x in -r...r { sum += at(x) }
                    for x in 0..<width {
                        o[row + x] = sum / n
                        sum += at(x + r + 1) - at(x - r)
                    }
                }
            }
        }
        // Every column's running sum at once, a row at a time: each column's sums are made
        // in the same order as one column's alone would be, and the rows are read in order.
        var sums = [Float](repeating: 0, count: width)
        rows.withUnsafeBufferPointer { p in
            out.withUnsafeMutableBufferPointer { o in
                sums.withUnsafeMutableBufferPointer { sums in
                    let (w, last) = (width, height - 1)
                    for y in -r...r {
                        let row = min(max(y, 0), last) &* w
                        for x in 0..<w { sums[x] += p[row &+ x] }
                    }
                    for y in 0..<height {
                        let (row, added, dropped) = (
                            y &* w, min(max(y &+ r &+ 1, 0), last) &* w, min(max(y &- r, 0), last) &* w
                        )
                        for x in 0..<w {
                            o[row &+ x] = sums[x] / n
                            sums[x] += p[added &+ x] - p[dropped &+ x]
                        }
                    }
                }
            }
        }
        return LumaImage(width: width, height: height, pixels: out)
    }

    /// A box of pixels: the columns and rows it spans.
    typealias Box = (x: ClosedRange<Int>, y: ClosedRange<Int>)

    /// The box around `a` (where there is one) and `b`.
    static func union(_ a: Box?, _ b: Box) -> Box {
        guard let a else { return b }
        return (
            min(a.x.lowerBound, b.x.lowerBound)...max(a.x.upperBound, b.x.upperBound),
            min(a.y.lowerBound, b.y.lowerBound)...max(a.y.upperBound, b.y.upperBound)
        )
    }

    /// The box around the rows and the columns in which at least `share` of the pixels (one at
    /// least: by default, the box around every pixel) differ from `other` (the same size) by
    /// more than `level`, in pixels; nil where none does. A codec's noise at the edges of text
    /// a frame away changes a few pixels of a row, where something that moved changes many.
    func changedBox(from other: LumaImage, by level: Float, share: Double = 0) -> Box? {
        var rows = [Int](repeating: 0, count: height), columns = [Int](repeating: 0, count: width)
        for y in 0..<height {
            for x in 0..<width where abs(pixels[y * width + x] - other.pixels[y * width + x]) > level {
                rows[y] += 1
                columns[x] += 1
            }
        }
        let (inRow, inColumn) = (max(1, Int(share * Double(width))), max(1, Int(share * Double(height))))
        guard let minY = rows.firstIndex(where: { $0 >= inRow }), let maxY = rows.lastIndex(where: { $0 >= inRow }),
            let minX = columns.firstIndex(where: { $0 >= inColumn }),
            let maxX = columns.lastIndex(where: { $0 >= inColumn })
        else { return nil }
        return (minX...maxX, minY...maxY)
    }

    /// The mean absolute difference of this picture's pixels in `box` from `other`'s (the same
    /// size) `dx` right and `dy` down of them, over those whose place in `other` lies in
    /// `within`, and how many those are; nil where none is. A row at a time, in order.
    func meanDifference(_ other: LumaImage, in box: Box, shiftedBy dx: Int, _ dy: Int, within: Box) -> (
        mean: Double, count: Int
    )? {
        let (x0, x1) = (
            max(box.x.lowerBound, within.x.lowerBound - dx), min(box.x.upperBound, within.x.upperBound - dx)
        )
        let (y0, y1) = (
            max(box.y.lowerBound, within.y.lowerBound - dy), min(box.y.upperBound, within.y.upperBound - dy)
        )
        guard x0 <= x1, y0 <= y1 else { return nil }
        var sum: Float = 0
        for y in y0...y1 {
            let (mine, theirs) = (y * width, (y + dy) * width + dx)
            for x in x0...x1 { sum += abs(pixels[mine + x] - other.pixels[theirs + x]) }
        }
        let count = (x1 - x0 + 1) * (y1 - y0 + 1)
        return (Double(sum) / Double(count), count)
    }

    /// The mean absolute difference from `other` (the same size), in levels 0...255: pixel i's
    /// added to lane i mod 8 of eight sums, which are then added in order. (The lanes do not
    /// wait on each other; one running sum waits on every add.)
    func meanDifference(_ other: LumaImage) -> Double {
        pixels.withUnsafeBufferPointer { a in
            other.pixels.withUnsafeBufferPointer { b in Self.laneMean(a.count) { abs(a[$0] - b[$0]) } }
        }
    }

    /// The mean absolute difference from `bitmap` as `LumaImage(bitmap, width:height:)` at this
    /// size makes it, the same sums in the same lanes, without making it: a search compares
    /// thousands of renders made at the working size.
    func meanDifference(_ bitmap: Bitmap) -> Double {
        guard bitmap.width == width && bitmap.height == height else {
            return meanDifference(LumaImage(bitmap, width: width, height: height))
        }
        let rowBytes = bitmap.rowBytes, width = width, height = height
        // The bitmap's greys first, then the lanes over both runs.
        return withUnsafeTemporaryAllocation(of: Float.self, capacity: pixels.count) { greys in
            bitmap.pixels.withUnsafeBufferPointer { p in
                Self.greys(p, from: 0, rowBytes: rowBytes, width: width, height: height, into: greys)
            }
            return pixels.withUnsafeBufferPointer { mine in Self.laneMean(mine.count) { abs(mine[$0] - greys[$0]) } }
        }
    }

    /// The greys of `width` x `height` pixels from byte `start` of `p`, rows `rowBytes` apart,
    /// into `out` row after row: a third of each pixel's R + G + B over white (c + 255 − a each),
    /// a row's run at once.
    private static func greys(
        _ p: UnsafeBufferPointer<UInt8>, from start: Int, rowBytes: Int, width: Int, height: Int,
        into out: UnsafeMutableBufferPointer<Float>
    ) {
        // A pixel's four bytes are read as one word: the loop then runs on whole lanes of words.
        let raw = UnsafeRawBufferPointer(p)
        for y in 0..<height {
            let row = raw.baseAddress! + (start &+ y &* rowBytes), first = y &* width
            for x in 0..<width {
                let w = UInt32(littleEndian: row.loadUnaligned(fromByteOffset: x &* 4, as: UInt32.self))
                let sum =
                    Int32(w & 0xFF) &+ Int32((w >> 8) & 0xFF) &+ Int32((w >> 16) & 0xFF) &+ 3 &* (255 &- Int32(w >> 24))
                out[first &+ x] = Float(sum) / 3
            }
        }
    }

    /// The mean of `value(0..<count)`: value i added to lane i mod 8 of eight sums, which are
    /// then added in order.
    @inline(__always)
    private static func laneMean(_ count: Int, _ value: (Int) -> Float) -> Double {
        var (s0, s1, s2, s3, s4, s5, s6, s7): (Float, Float, Float, Float, Float, Float, Float, Float) =
            (0, 0, 0, 0, 0, 0, 0, 0)
        var i = 0
        while i &+ 8 <= count {
            s0 += value(i)
            s1 += value(i &+ 1)
            s2 += value(i &+ 2)
            s3 += value(i &+ 3)
            s4 += value(i &+ 4)
            s5 += value(i &+ 5)
            s6 += value(i &+ 6)
            s7 += value(i &+ 7)
            i &+= 8
        }
        // The last few, each into its own lane.
        if i < count { s0 += value(i) }
        if i &+ 1 < count { s1 += value(i &+ 1) }
        if i &+ 2 < count { s2 += value(i &+ 2) }
        if i &+ 3 < count { s3 += value(i &+ 3) }
        if i &+ 4 < count { s4 += value(i &+ 4) }
        if i &+ 5 < count { s5 += value(i &+ 5) }
        if i &+ 6 < count { s6 += value(i &+ 6) }
        var sum = s0 + s1
        sum += s2
        sum += s3
        sum += s4
        sum += s5
        sum += s6
        sum += s7
        return Double(sum) / Double(max(1, count))
    }

    /// The value at (x, y), bilinear; outside the picture, the nearest edge pixel.
    @inline(__always)
    func sample(_ x: Double, _ y: Double) -> Float {
        let cx = min(max(x, 0), Double(width - 1)), cy = min(max(y, 0), Double(height - 1))
        let x0 = Int(cx), y0 = Int(cy)
        let x1 = min(x0 + 1, width - 1), y1 = min(y0 + 1, height - 1)
        let fx = Float(cx - Double(x0)), fy = Float(cy - Double(y0))
        let a = pixels[y0 * width + x0], b = pixels[y0 * width + x1]
        let c = pixels[y1 * width + x0], d = pixels[y1 * width + x1]
        return (a + (b - a) * fx) + ((c + (d - c) * fx) - (a + (b - a) * fx)) * fy
    }
}

/// A rectangle of a recording's pixels: what `--crop` keeps (the screen, without a
/// simulator's title bar).
public struct Crop: Sendable, Hashable, Codable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// Whether it lies inside a `width`x`height` frame, and is more than a pixel each way.
    public func fits(width frameWidth: Int, height frameHeight: Int) -> Bool {
        x >= 0 && y >= 0 && width > 1 && height > 1 && x <= frameWidth - width && y <= frameHeight - height
    }

    /// Whether nine tenths of it or more lie inside a `width`x`height` frame: a screen whose
    /// edge the recording cuts (a capture a pixel narrower than the scaled screen).
    public func mostlyInside(width frameWidth: Int, height frameHeight: Int) -> Bool {
        let w = min(x + width, frameWidth) - max(x, 0), h = min(y + height, frameHeight) - max(y, 0)
        return width > 1 && height > 1 && w > 0 && h > 0 && 10 * w * h >= 9 * width * height
    }
}
