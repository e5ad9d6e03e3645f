/// The nearest usable entry of `palette` (RGB triples) to a colour by brute force, in squared
/// RGB distance, ties to the lower index: what `NearestColour` must find. (index, distance).
func bruteForceNearest(_ r: Int32, _ g: Int32, _ b: Int32, palette: [UInt8], usable: [Bool]) -> (
    index: Int, distance: Int32
) {
    var best = Int32.max, bestAt = -1
    for i in 0..<usable.count where usable[i] {
        let dr = r - Int32(palette[i * 3]), dg = g - Int32(palette[i * 3 + 1]), db = b - Int32(palette[i * 3 + 2])
        let d = dr * dr + dg * dg + db * db
        if d < best {
            best = d
            bestAt = i
        }
    }
    return (bestAt, best)
}
