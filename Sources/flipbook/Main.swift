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
    /// stay in the heap for the next one instead; peak memory is still what is held at once.
    static func keepFreedFrameMemory() {
        _ = mallopt(M_MMAP_THRESHOLD, 256 << 20)
        _ = mallopt(M_TRIM_THRESHOLD, Int32.max)
    }
}
