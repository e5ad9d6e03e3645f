/// A recording as stretches of stillness and of change, from the differences between its
/// frames: where each change starts and ends, and which screen each still stretch shows (a
/// screen seen again is the same screen).
struct RecordingOutline {
    /// A run of frames that change, from the last still frame before it to the first after.
    struct Change: Hashable {
        /// The last frame before it moves, and the first frame of the stillness after it.
        var before: Int
        var after: Int
        /// Changed between two frames only.
        var isCut: Bool { after == before + 1 }
    }

    /// Each frame's screen at the outline's width, and when each frame starts.
    let pictures: [LumaImage]
    let starts: [Double]
    let duration: Double
    let changes: [Change]
    /// Per still stretch (one more than the changes), the frame that shows it (its last), and
    /// the screen it is (an index into `screens`).
    let stills: [(frame: Int, screen: Int)]
    /// Per screen, the still frame it was first seen in.
    let screens: [Int]
    /// The difference between each frame and the next at which a frame counts as changing.
    let threshold: Double
    /// Each frame's difference from the next (mean, levels of 255, at the working size).
    let differences: [Double]
    /// The frames a change was made to start at (`init`'s `splits`).
    let splits: Set<Int>

    /// The least mean difference (of 255 levels, at the working size) that counts as change:
    /// past a video codec's noise on a still screen, below a row's highlight.
    static let leastChange = 0.35
    /// Two screens differ by more than this where one is not the other seen again.
    static let sameScreen = 1.0
    /// Changes this close (in seconds of stillness between them) are one: a spring's tail that
    /// dips below the threshold for a frame or two, a drag that pauses.
    static let joinedGap = 0.1
    /// A screen of one colour held still between two changes for less than this is no screen of
    /// its own: a reveal's circle that covers the screen before its curve ends, the next screen
    /// then fading in over it. The changes are one.
    static let flatGap = 0.25
    /// How far from its middle level a one-coloured picture's pixels lie: a GIF's or a codec's
    /// noise on a fill.
    static let flatLevels: Float = 4

    /// Whether `picture` is one colour: all but a fiftieth of it (a status bar's text over it)
    /// within `flatLevels` of its middle level.
    static func isFlat(_ picture: LumaImage) -> Bool {
        let levels = picture.pixels.sorted()
        guard !levels.isEmpty else { return false }
        let middle = levels[levels.count / 2]
        let near = levels.filter { abs($0 - middle) <= flatLevels }.count
        return near * 50 >= levels.count * 49
    }

    /// The outline of frames shown at `starts`, from their pictures at one working size; a
    /// change starts at each frame of `splits` (its difference from the next's index), however
    /// near the last.
    init(pictures: [LumaImage], starts: [Double], duration: Double, splits: Set<Int> = []) {
        self.pictures = pictures
        self.starts = starts
        self.duration = duration
        let differences = zip(pictures, pictures.dropFirst()).map { $0.meanDifference($1) }
        self.differences = differences
        self.splits = splits
        // A codec's noise raises the floor: the quietest tenth of the differences, which a
        // still screen's frames give. A frame held for several frames' time (a GIF merges a
        // still screen's frames) stands for that many still pairs, with no difference at all.
        let frame = Self.interval(of: starts)
        let held = zip(starts, starts.dropFirst() + [duration]).reduce(0) {
            $0 + max(0, Int((($1.1 - $1.0) / frame).rounded()) - 1)
        }
        let sorted = [Double](repeating: 0, count: held) + differences.sorted()
        let quiet = sorted.isEmpty ? 0 : sorted[sorted.count / 10]
        threshold = max(Self.leastChange, quiet * 4)
        var changes: [Change] = []
        for (i, d) in differences.enumerated() where d > threshold {
            // Frames that move one after the other are one change however slow the capture: at
            // 10 frames a second, one frame is `joinedGap` long.
            if let last = changes.last, !splits.contains(i),
                starts[i + 1] - starts[last.after] < max(Self.joinedGap, frame * (1 + 1e-6))
                    || (i > last.after && starts[i + 1] - starts[last.after] < Self.flatGap
                        && Self.isFlat(pictures[last.after]))
            {
                changes[changes.count - 1].after = i + 1
            } else {
                changes.append(Change(before: i, after: i + 1))
            }
        }
        // A change between two sights of one screen that never strays far from it (a spring's
        // last step, a flicker) is no change; one that does (a cancelled swipe) stays: a move
        // let go short.
        func outline(_ changes: [Change]) -> (stills: [(frame: Int, screen: Int)], screens: [Int]) {
            var screens: [Int] = [], stills: [(frame: Int, screen: Int)] = []
            // Each stretch of stillness is shown by its last frame: the one a spring has settled most in.
            for frame in changes.map(\.before) + [pictures.count - 1] {
                if let seen = screens.firstIndex(where: {
                    pictures[$0].meanDifference(pictures[frame]) < Self.sameScreen
                }) {
                    stills.append((frame, seen))
                } else {
                    stills.append((frame, screens.count))
                    screens.append(frame)
                }
            }
            return (stills, screens)
        }
        var (stills, screens) = outline(changes)
        while let k = changes.indices.first(where: { k in
            stills[k].screen == stills[k + 1].screen
                && (changes[k].before...changes[k].after).allSatisfy {
                    pictures[$0].meanDifference(pictures[stills[k].frame]) < Self.sameScreen * 3
                }
        }) {
            changes.remove(at: k)
            (stills, screens) = outline(changes)
        }
        self.changes = changes
        self.stills = stills
        self.screens = screens
    }
}

extension RecordingOutline {
    /// An end of the recording, as the screenshot options name it.
    enum End: String {
        case first, last
    }

    /// The screen (an index into `screens`) the recording starts or ends on.
    func screen(at end: End) -> Int { (end == .first ? stills.first! : stills.last!).screen }

    /// How many times the difference before it a frame's difference from the next must be, and
    /// the least it must be (levels), where a change's motion, nearly stopped, jumps.
    static let jump = 10.0
    static let leastJump = 8.0

    /// The frames of change `k` where its motion, nearly stopped, jumps (a pull let go, whose
    /// offset is dropped at once as the row starts closing): each one's difference from the next
    /// `jump` times the one before it and `leastJump` at least. Such a change may be two moves, the next
    /// starting there (`init`'s `splits`); or one (a circle that covers the screen, then the next
    /// fading in).
    func jumps(in k: Int) -> Set<Int> {
        let change = changes[k]
        return Set(
            (change.before + 1..<change.after).filter {
                differences[$0] >= Self.leastJump && differences[$0] >= Self.jump * differences[$0 - 1]
            })
    }

    /// Whether change `k` comes back to the screen it left.
    func returns(_ k: Int) -> Bool { stills[k].screen == stills[k + 1].screen }

    /// The frame of change `k` most unlike the still before it: where a motion that comes back
    /// goes farthest.
    func farthest(of k: Int) -> Int {
        let still = pictures[stills[k].frame]
        return (changes[k].before...changes[k].after).max {
            pictures[$0].meanDifference(still) < pictures[$1].meanDifference(still)
        }!
    }
}

/// Where on the screen a change of a recording happens, in points: the box around every pixel
/// that moves between two of its frames.
public struct ChangedRegion: Sendable, Equatable, CustomStringConvertible {
    public let x: ClosedRange<Int>
    public let y: ClosedRange<Int>

    public var description: String { "x \(x.lowerBound)-\(x.upperBound), y \(y.lowerBound)-\(y.upperBound) pt" }
}

extension RecordingOutline {
    /// The least difference of a pixel (levels of 255, at the outline's width) between two
    /// frames that counts it as moving: past a codec's noise on an edge.
    static let movingPixel: Float = 16

    /// Where `change` moves on a screen `width` points wide: the box around the pixels that
    /// differ between any two of its frames; nil where no pixel does.
    func region(of change: Change, width: Double) -> ChangedRegion? {
        guard let w = pictures.first?.width else { return nil }
        let changed = (change.before..<min(change.after, pictures.count - 1)).compactMap {
            pictures[$0 + 1].changedBox(from: pictures[$0], by: Self.movingPixel)
        }
        .reduce(nil, LumaImage.union)
        guard let changed else { return nil }
        let (minX, minY, maxX, maxY) = (
            changed.x.lowerBound, changed.y.lowerBound, changed.x.upperBound, changed.y.upperBound
        )
        let k = width / Double(w)
        return ChangedRegion(
            x: Int((Double(minX) * k).rounded(.down))...Int((Double(maxX + 1) * k).rounded(.up)),
            y: Int((Double(minY) * k).rounded(.down))...Int((Double(maxY + 1) * k).rounded(.up)))
    }
}
