import CMalloc
import FlipbookCLI

/// The `flipbook` executable: everything lives in FlipbookCLI.
@main
enum Main {
    static func main() {
        keepFreedFrameMemory()
        FlipbookCommand.main()
    }

    /// Frames are buffers of megabytes, allocated and freed once per frame. glibc maps each
    /// one fresh and unmaps or trims it when freed, so the kernel zeroes every page again for
    /// the next frame (8-10 % of the raster's time at @2x, measured with perf). Freed frames
    /// stay in the heap for the next one instead, in one arena: with an arena per thread each
    /// kept its own freed frames, and peak memory grew with the frame count (expanding-cells
    /// @2x, 100 → 1000 frames: 153 → 188 MiB; with one arena 117 → 135 MiB, three runs each, at
    /// the same wall time).
    static func keepFreedFrameMemory() {
        _ = mallopt(M_MMAP_THRESHOLD, 256 << 20)
        _ = mallopt(M_TRIM_THRESHOLD, Int32.max)
        _ = mallopt(M_ARENA_MAX, 1)
    }
}
