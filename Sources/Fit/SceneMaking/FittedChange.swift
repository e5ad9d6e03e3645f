/// What a change's fit between its own two screens is fitted on: its frames, the frames that
/// show its screens, its status bar and their tops under it (drawn only under one), the screen
/// a pull came from, and where the next change starts. A change made again on the same is made
/// as it was.
struct FittedChange: Hashable {
    var change: RecordingOutline.Change
    var window: ClosedRange<Int>
    var screens: [Int]
    var tops: [String]
    var statusBar: Double?
    var pulled: Pulled?
    var next: Int?

    struct Pulled: Hashable {
        var frame: Int
        var gap: Double
    }

    init(
        change: RecordingOutline.Change, window: ClosedRange<Int>, screens: [Int], tops: [String],
        statusBar: Double?, pulled: (frame: Int, gap: Double)?, next: Int?
    ) {
        (self.change, self.window, self.screens, self.tops) = (change, window, screens, tops)
        (self.statusBar, self.next) = (statusBar, next)
        self.pulled = pulled.map { Pulled(frame: $0.frame, gap: $0.gap) }
    }
}
