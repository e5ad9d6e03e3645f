#if os(Linux)
    import CMalloc
#endif
import FlipbookCLI

/// The `flipbook` executable: everything lives in FlipbookCLI.
@main
enum Main {
    static func main() {
        keepFreedFrameMemory()
        FlipbookCommand.runMain()
    }

    /// Frames are buffers of megabytes, allocated and freed once per frame. glibc maps each
    /// one fresh and unmaps or trims it when freed, so the kernel zeroes every page again for
    /// the next frame. Freed frames stay in the heap for the next one instead, in one arena: with
    /// an arena per thread each keeps its own freed frames, and peak memory grows with the
    /// frame count. Other C libraries keep their defaults.
    static func keepFreedFrameMemory() {
        #if os(Linux)
            _ = mallopt(M_MMAP_THRESHOLD, 256 << 20)
            _ = mallopt(M_TRIM_THRESHOLD, Int32.max)
            _ = mallopt(M_ARENA_MAX, 1)
        #endif
    }
}
