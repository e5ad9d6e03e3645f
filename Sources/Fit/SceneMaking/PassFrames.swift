import Dispatch
import Geometry
import Synchronization

import struct Flipbook.Bitmap

/// The frames of a scene's first pass over its recording that its fits will want again, kept
/// as the pass reads them so that the recording is decoded once: each frame near motion made
/// small as a change's window keeps it, and the frame each motion starts from (a still
/// stretch's last, which shows its screen) as the screen is cut. Motion is any difference
/// past `RecordingOutline.leastChange`, the least its outline counts, and near is within a
/// window's lead or tail (and `margin`) by the file's own times; a frame is made small only
/// once motion claims it. A frame it missed, or one past its budget, is read again
/// (`SceneMaker.make`).
final class PassFrames: Sendable {
    /// The part of each frame that is the screen, and the size a window's frames are kept at.
    let rect: PixelRect
    let small: (width: Int, height: Int)
    /// Seconds before a motion and after one whose frames are kept small.
    let lead: Double
    let tail: Double
    /// The most bytes the small frames, the screens, and the frames awaiting motion may hold,
    /// each.
    let budget: Int
    /// Seconds past a window's lead and tail that a frame is kept for: a recording's retimed
    /// frames (a GIF's capture times) start a little off the file's.
    static let margin = 0.05

    private struct State {
        var small: [Int: Bitmap] = [:]
        var smallBytes = 0
        var screens: [Int: Bitmap] = [:]
        var screenBytes = 0
        /// Every frame kept was told (the frames between are the same as the one before them).
        var told: [Int] = []
        /// Frames no motion has claimed yet, oldest first, at full size.
        var unclaimed: [(index: Int, start: Double, frame: Bitmap)] = []
        var unclaimedBytes = 0
        var last: (index: Int, start: Double, frame: Bitmap, picture: LumaImage, moved: Bool)?
        var tailEnd = -Double.infinity
    }
    private let state = Mutex(State())
    private let making = DispatchGroup()
    private let slots = DispatchSemaphore(value: 2)

    init(rect: PixelRect, small: (width: Int, height: Int), lead: Double, tail: Double, budget: Int) {
        self.rect = rect
        self.small = small
        (self.lead, self.tail) = (lead + Self.margin, tail + Self.margin)
        self.budget = budget
    }

    deinit { making.wait() }

    /// Frame `index`, shown from `start` (the file's time), its outline picture `picture`: a
    /// frame unlike the one told before it.
    func tell(_ frame: Bitmap, index: Int, start: Double, picture: LumaImage) {
        let claimed = state.withLock { s -> [(index: Int, frame: Bitmap)] in
            s.told.append(index)
            var claimed: [(index: Int, frame: Bitmap)] = []
            let moved = s.last.map { $0.picture.meanDifference(picture) > RecordingOutline.leastChange } ?? false
            if moved, let last = s.last {
                // The frame the motion starts from shows a screen, where the motion before it
                // had stopped.
                if !last.moved, s.screenBytes < budget {
                    let screen = last.frame.cropped(to: rect)
                    s.screens[last.index] = screen
                    s.screenBytes += screen.pixels.count
                }
                // The frames a lead before the motion are claimed.
                while let newest = s.unclaimed.last, newest.start >= last.start - lead {
                    s.unclaimed.removeLast()
                    s.unclaimedBytes -= newest.frame.pixels.count
                    claimed.append((newest.index, newest.frame))
                }
                s.tailEnd = start + tail
            }
            if start <= s.tailEnd {
                claimed.append((index, frame))
            } else {
                s.unclaimed.append((index, start, frame))
                s.unclaimedBytes += frame.pixels.count
            }
            // Older frames are no window's, nor any past the budget.
            while let oldest = s.unclaimed.first, oldest.start < start - lead || s.unclaimedBytes > budget {
                s.unclaimed.removeFirst()
                s.unclaimedBytes -= oldest.frame.pixels.count
            }
            s.last = (index, start, frame, picture, moved)
            return claimed
        }
        for (index, frame) in claimed {
            slots.wait()
            DispatchQueue.global().async(group: making) { [self] in
                let made = frame.cropped(to: rect).resized(width: small.width, height: small.height)
                state.withLock { s in
                    guard s.smallBytes < budget else { return }
                    s.small[index] = made
                    s.smallBytes += made.pixels.count
                }
                slots.signal()
            }
        }
    }

    /// Done telling: the last frame shows a screen too.
    func finish() {
        making.wait()
        state.withLock { s in
            if let last = s.last, s.screens[last.index] == nil {
                s.screens[last.index] = last.frame.cropped(to: rect)
            }
            s.last?.frame = Bitmap(width: 1, height: 1)
            s.unclaimed = []
        }
    }

    /// Frame `i` made small, where kept.
    func smallFrame(_ i: Int) -> Bitmap? { state.withLock { s in Self.told(i, in: s).flatMap { s.small[$0] } } }

    /// Frame `i`'s screen at full size, where kept.
    func screen(_ i: Int) -> Bitmap? { state.withLock { s in Self.told(i, in: s).flatMap { s.screens[$0] } } }

    /// The frame told that frame `i` is the same as: the last told at or before it.
    private static func told(_ i: Int, in s: State) -> Int? {
        var (low, high) = (0, s.told.count)
        while low < high {
            let mid = (low + high) / 2
            if s.told[mid] <= i { low = mid + 1 } else { high = mid }
        }
        return low > 0 ? s.told[low - 1] : nil
    }
}
