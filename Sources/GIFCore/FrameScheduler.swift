/// Turns frames with timestamps into GIF frames with centisecond delays.
///
/// - Delays come from cumulative rounding: a frame shown from t0 to t1 lasts
///   `round(100·t1) − round(100·t0)` cs, so rounding never accumulates and the total is exact.
/// - No delay is below `minimumDelay` (2 cs: browsers slow shorter ones down to 10 cs). A frame
///   that would end too soon after the previous one is dropped and the earlier frame shows on;
///   at the very end, the last frame takes over the time of the one before it.
/// - A frame identical to the one showing merges into it as a longer delay.
///
/// One frame of look-ahead is held back (`ready`), so that the last delay can be fixed up.
public struct FrameScheduler<Frame> {
    /// A frame whose delay is final, to be encoded now.
    public struct Scheduled {
        public var frame: Frame
        public var delay: Int
    }

    public let minimumDelay: Int
    private var pending: Frame?
    /// The newest frame dropped since `pending` started, with its start: if the sequence ends
    /// here, it is the final state and must be shown.
    private var tail: (frame: Frame, start: Int)?
    private var ready: Scheduled?
    /// The centisecond at which the pending frame starts (the end of everything before it).
    private var written = 0
    private var origin = 0
    public private(set) var merged = 0
    public private(set) var dropped = 0

    public init(minimumDelay: Int = 2) {
        self.minimumDelay = minimumDelay
    }

    /// Offers the frame that starts at `time` seconds; returns what may be encoded now.
    public mutating func add(_ frame: Frame, at time: Double, sameAsShowing: (Frame, Frame) -> Bool) -> [Scheduled] {
        let cs = centiseconds(time)
        guard let showing = pending else {
            pending = frame
            origin = cs
            written = cs
            return []
        }
        if sameAsShowing(tail?.frame ?? showing, frame) {
            merged += 1
            return []
        }
        let delay = cs - written
        if delay < minimumDelay {
            if tail != nil { dropped += 1 }
            tail = (frame, cs)
            return []
        }
        if tail != nil {
            dropped += 1
            tail = nil
        }
        var out: [Scheduled] = []
        if let r = ready { out.append(r) }
        ready = Scheduled(frame: showing, delay: delay)
        written = cs
        pending = frame
        return out
    }

    /// Ends the sequence at `endTime` seconds; returns the remaining frames to encode.
    public mutating func finish(at endTime: Double) -> [Scheduled] {
        guard var last = pending else { return [] }
        pending = nil
        let end = centiseconds(endTime)
        var out: [Scheduled] = []
        if let (frame, start) = tail {
            tail = nil
            if start - written >= minimumDelay && end - start >= minimumDelay {
                if let r = ready { out.append(r) }
                ready = Scheduled(frame: last, delay: start - written)
                written = start
            } else {
                dropped += 1
            }
            last = frame
        }
        let delay = max(0, end - written)
        if var r = ready {
            if delay < minimumDelay {
                // The final state matters most: it replaces the frame before it.
                r.frame = last
                r.delay += delay
                dropped += 1
                out.append(r)
            } else {
                out.append(r)
                out.append(Scheduled(frame: last, delay: delay))
            }
        } else {
            out.append(Scheduled(frame: last, delay: delay))
        }
        ready = nil
        return out
    }

    /// Total centiseconds from the first frame to `endTime`.
    public func duration(to endTime: Double) -> Int { centiseconds(endTime) - origin }

    private func centiseconds(_ t: Double) -> Int { Int((t * 100).rounded()) }
}
