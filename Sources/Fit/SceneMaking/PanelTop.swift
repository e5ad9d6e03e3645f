/// Where a panel starts on a screen that shows one over another screen (`ScreenChange.panelUp`,
/// `.panelDown`): the row from which, to the bottom, the screen with the panel stops being the
/// other dimmed, in pixels; and the dimming's black (0 to 1) above it.
struct PanelTop: Equatable {
    let top: Int
    let dim: Double

    /// The most a row above the panel may differ from the other screen's dimmed, in mean levels:
    /// a codec's noise and a palette's.
    static let mostUnlike = 8.0
    /// The least share of the rows below the top that must be the panel's, and of those above it
    /// that must be the other screen's dimmed.
    static let leastPanel = 0.8
    static let leastBackdrop = 0.9
    /// Where on the screen a panel's top may be, as a share of its height: a panel at the top
    /// is a whole screen (a presentation), and one a few rows tall is a toolbar's change.
    static let tops = 0.1...0.9
    /// The rows at the top, as a share of the height, a screen's dimming is measured on: above
    /// any panel.
    static let measured = 0.08

    /// The top of the panel `panel` shows over `backdrop` (the same screen without it), and how
    /// dimmed the backdrop is above it, where one is there; nil where the two differ from the
    /// top down, or hardly at all.
    static func find(panel: LumaImage, backdrop: LumaImage) -> PanelTop? {
        let (w, h) = (panel.width, panel.height)
        guard w > 0, h >= 10, backdrop.width == w, backdrop.height == h else { return nil }
        func row(_ image: LumaImage, _ y: Int) -> ArraySlice<Float> { image.pixels[(y * w)..<(y * w + w)] }
        // The dimming: how much darker the top rows are, as a factor of the backdrop's greys.
        let measuredRows = 0..<max(1, Int(Double(h) * measured))
        let (lit, dimmed) = measuredRows.reduce((0.0, 0.0)) { sums, y in
            (
                sums.0 + row(backdrop, y).reduce(0.0) { $0 + Double($1) },
                sums.1 + row(panel, y).reduce(0.0) { $0 + Double($1) }
            )
        }
        guard lit > 0 else { return nil }
        let factor = Float(min(1, max(0.3, dimmed / lit)))
        let isPanel = (0..<h).map { y -> Bool in
            let difference = zip(row(panel, y), row(backdrop, y)).reduce(0.0) { $0 + Double(abs($1.0 - factor * $1.1)) }
            return difference / Double(w) > mostUnlike
        }
        // The split that leaves the fewest rows on the wrong side of it.
        var below = isPanel.filter { $0 }.count
        var above = 0
        var best: (top: Int, wrong: Int)?
        for top in 0..<h {
            let wrong = above + (h - top - below)
            if best.map({ wrong < $0.wrong }) ?? true { best = (top, wrong) }
            if isPanel[top] { (above, below) = (above + 1, below - 1) }
        }
        guard let top = best?.top, tops.contains(Double(top) / Double(h)) else { return nil }
        let panelRows = isPanel[top...].filter { $0 }.count
        let backdropRows = isPanel[..<top].filter { !$0 }.count
        guard Double(panelRows) >= leastPanel * Double(h - top), Double(backdropRows) >= leastBackdrop * Double(top)
        else { return nil }
        return PanelTop(top: top, dim: ((1 - Double(factor)) * 1000).rounded() / 1000)
    }

    /// The most a panel's rows may differ from the other screen's at its other place, in mean
    /// levels, and the least share of the height they must still cover there.
    static let mostUnlikeMoved = 12.0
    static let leastShown = 0.1

    /// How far down `other` shows the panel `panel` has from row `top`, where it shows it on the
    /// screen too (a lower detent, a drawer's peek), in pixels: the shift at which `other`'s rows
    /// are `panel`'s moved down, nil where none comes within `mostUnlikeMoved`, or beats by half
    /// both not moving and the shifts' median (rows of a plain screen match many shifts).
    static func travel(panel: LumaImage, other: LumaImage, top: Int) -> Int? {
        let (w, h) = (panel.width, panel.height)
        guard other.width == w, other.height == h, top >= 0, top < h else { return nil }
        let rows: LumaImage.Box = (0...(w - 1), top...(h - 1))
        let whole: LumaImage.Box = (0...(w - 1), 0...(h - 1))
        func unlike(_ d: Int) -> Double? { panel.meanDifference(other, in: rows, shiftedBy: 0, d, within: whole)?.mean }
        let most = h - top - max(1, Int(Double(h) * leastShown))
        guard most >= 1, let still = unlike(0) else { return nil }
        let shifts = (1...most).compactMap { d in unlike(d).map { (d, $0) } }
        let sorted = shifts.map(\.1).sorted()
        guard let best = shifts.min(by: { $0.1 < $1.1 }), best.1 <= mostUnlikeMoved, best.1 < still / 2,
            best.1 < sorted[sorted.count / 2] / 2
        else { return nil }
        return best.0
    }
}
