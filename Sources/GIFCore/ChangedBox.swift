/// The bounding box of pixels that differ between two frames of the same size.
package func changedBox(_ a: [UInt8], _ b: [UInt8], width: Int, height: Int) -> (Int, Int, Int, Int) {
    var box = (x0: width, y0: height, x1: 0, y1: 0)
    a.withUnsafeBytes { pa in
        b.withUnsafeBytes { pb in
            let wa = pa.bindMemory(to: UInt32.self), wb = pb.bindMemory(to: UInt32.self)
            for y in 0..<height {
                let row = y * width
                var x = 0
                while x < width && wa[row + x] == wb[row + x] { x += 1 }
                if x == width { continue }
                var e = width - 1
                while wa[row + e] == wb[row + e] { e -= 1 }
                box.x0 = min(box.x0, x)
                box.x1 = max(box.x1, e + 1)
                box.y0 = min(box.y0, y)
                box.y1 = y + 1
            }
        }
    }
    return box.x1 <= box.x0 ? (0, 0, 0, 0) : (box.x0, box.y0, box.x1, box.y1)
}
