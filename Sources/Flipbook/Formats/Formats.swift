extension AnimationFormat {
    /// Every animated format an export writes, in the order help lists them. The first is
    /// what a path without a known extension would be, and is refused as.
    public static let all: [AnimationFormat] = [.gif, .webp, .mp4, .apng]
}
