/// Where a screen parts at a row as it opens (`ScreenChange.expand`) or closes
/// (`ScreenChange.collapse`): the rows above ride up with the row's top edge, the rows below ride
/// down with its bottom edge, each moved by the same share of its way out.
struct ScreenParting: Equatable {
    /// How far the rows above have moved up and the rows below down, in pixels.
    let up: Int
    let down: Int
    /// The row's top and bottom in the still screen, in pixels.
    let top: Double
    let bottom: Double
    /// The moving frame's row where the rows above start showing: under a bar that stays at the
    /// top, its bottom edge.
    var barEdge = 0
    /// The rows with texture the shorter of the two parts' runs holds: how much of the screen
    /// bears the parting out (a bar's few rows can match at a shift by chance).
    var evidence = 0

    /// How far open the row is in the moving frame (0 to 1): the rows above have gone that share
    /// of the row's top.
    var open: Double { Double(up) / top }

    /// The height in the still of a bar at the top that stays while the rows above ride up
    /// under it, sliding up into the top edge as the row opens (a navigation bar), in pixels; 0
    /// where the rows above show from the top.
    var bar: Double {
        guard open < 0.9 else { return 0 }
        let height = Double(barEdge) / (1 - open)
        return height >= 4 && height < top ? height : 0
    }

    /// The least rows with texture each part's run must hold: flat rows match at any shift.
    static let leastTextured = 6

    /// The parting `moving` shows of `still` (the same size): the rows above found moved up by
    /// one shift and the rows below moved down by another, each the shift whose longest run of
    /// matching rows holds the most rows with texture. The row's bottom is where the run below
    /// starts, in the still; its top follows from the shifts, which stand to each other as the
    /// distances the two parts go (the top to the screen's top, the bottom to its bottom). Nil
    /// where either part is not found.
    static func find(still: LumaImage, moving: LumaImage) -> ScreenParting? {
        let h = still.height
        let rows = ShiftedRows(still: still, moving: moving)
        let ups = (1..<h / 2).map { ($0, rows.run($0)) }.max { $0.1.score < $1.1.score }
        let downs = (1..<h / 2).map { ($0, rows.run(-$0)) }.max { $0.1.score < $1.1.score }
        guard let (up, above) = ups, let (down, below) = downs, above.score >= leastTextured,
            below.score >= leastTextured
        else { return nil }
        // The run below starts in the still at its own first row less its shift.
        let bottom = Double(below.first - down)
        let top = Double(up) * (Double(h) - bottom) / Double(down)
        guard top >= 1, bottom > top + 1, bottom < Double(h - 1), above.last < below.first else { return nil }
        return ScreenParting(
            up: up, down: down, top: top, bottom: bottom, barEdge: above.first,
            evidence: min(above.score, below.score))
    }
}
