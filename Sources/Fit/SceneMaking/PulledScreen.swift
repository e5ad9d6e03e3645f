/// A screen that is another pulled down under a bar at its top (a list's detail pulled to
/// dismiss, its navigation bar filling the gap above): how far its content moved. A row that
/// closes from it closes from the screen before the pull, the bar over its top shrinking back
/// to the list's (`ScreenChange.collapse`), as UIKit drops the pull's offset when it lets go.
enum PulledScreen {
    /// The least share of the screen's rows with texture still on screen that the pulled one
    /// must show moved: a whole screen's content, though a codec breaks the odd row.
    static let leastMatched = 0.6

    /// How many pixels `pulled`'s content is `screen`'s moved down (the two of one size): the
    /// shift at which most of `screen`'s rows with texture show, where they are `leastMatched` of
    /// those that stay on screen and more than show unmoved. Nil where the one is not the other
    /// pulled.
    static func gap(pulled: LumaImage, screen: LumaImage) -> Int? {
        let h = screen.height
        let rows = ShiftedRows(still: screen, moving: pulled)
        guard h >= 8,
            let (shift, best) = (1..<h / 2).map({ ($0, rows.matching(-$0)) }).max(by: { $0.1.matched < $1.1.matched }),
            best.matched >= ScreenParting.leastTextured, Double(best.matched) >= leastMatched * Double(best.of),
            best.matched > rows.matching(0).matched
        else { return nil }
        return shift
    }
}

extension PulledScreen {
    /// The height in pixels of the bar `next` has at its top where a row closes into it from
    /// `pulled`, pulled down `gap` pixels under that bar (the two of one size): the bar shrinks
    /// from the gap to its own height drawn from its bottom, so its own rows are the gap's last
    /// ones; the height at which most of `pulled`'s rows with texture there show at `next`'s top,
    /// moved (a status bar that stays shows unmoved, at every height). Nil where none do.
    static func bar(pulled: LumaImage, gap: Int, next: LumaImage) -> Int? {
        let rows = ShiftedRows(still: pulled, moving: next)
        let unmoved = (0..<min(gap, next.height)).map { rows.same($0, 0) }
        let found = (1..<max(1, min(gap, next.height))).map { height -> (height: Int, matched: Int) in
            let shift = gap - height
            let matched = (0..<height).filter { !unmoved[$0] && rows.textured[$0 + shift] && rows.same($0, shift) }
                .count
            return (height, matched)
        }
        guard let best = found.max(by: { $0.matched < $1.matched }), best.matched >= leastBarRows else { return nil }
        return best.height
    }

    /// The least rows with texture a bar's own rows must show (a title's).
    static let leastBarRows = 3
}
