/// How far a scrolling band's page moved between two stills (`ScreenChange.scroll`): the shift
/// along one axis that makes the next still's band the first's moved, in pixels.
struct PageShift: Equatable {
    let x: Int
    let y: Int

    /// The most a shifted band may differ from the next, in mean levels: a codec's noise and a
    /// page's new content where it comes in.
    static let mostUnlike = 12.0
    /// The least share of the band the shifted page must still cover.
    static let leastOverlap = 0.25

    /// The shift along x or y, whichever matches better, at which `next`'s band (a box of both)
    /// is `first`'s moved (left or up where positive) over the part they share: nil where none
    /// comes within `mostUnlike`, or none beats not moving at all by half.
    static func find(first: LumaImage, next: LumaImage, in box: LumaImage.Box) -> PageShift? {
        /// The mean difference of `next`'s band from `first`'s moved by (dx, dy), over the part
        /// they share.
        func unlike(_ dx: Int, _ dy: Int) -> Double {
            next.meanDifference(first, in: box, shiftedBy: dx, dy, within: box)!.mean
        }
        let (bw, bh) = (box.x.count, box.y.count)
        let (mostX, mostY) = (Int(Double(bw) * (1 - leastOverlap)), Int(Double(bh) * (1 - leastOverlap)))
        let shifts =
            (-mostX...mostX).filter { $0 != 0 }.map { ($0, 0) } + (-mostY...mostY).filter { $0 != 0 }.map { (0, $0) }
        guard let best = shifts.map({ (shift: $0, unlike: unlike($0.0, $0.1)) }).min(by: { $0.unlike < $1.unlike }),
            best.unlike <= mostUnlike, best.unlike < unlike(0, 0) / 2
        else { return nil }
        return PageShift(x: best.shift.0, y: best.shift.1)
    }
}
