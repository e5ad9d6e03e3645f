import Foundation

/// Keeps libimagequant to one thread on the calling thread.
///
/// libimagequant parallelizes inside one image with OpenMP; Flipbook already builds several
/// frames' palettes at once, and nested teams only contend (slower, for the same bytes).
/// OpenMP's thread count is per calling thread, so each worker sets its own. libgomp arrives
/// with libimagequant, so the symbol is looked up rather than linked.
func singleThreadedOpenMP() {
    typealias SetThreads = @convention(c) (Int32) -> Void
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "omp_set_num_threads") else { return }
    unsafeBitCast(symbol, to: SetThreads.self)(1)
}

/// A monotonic clock in seconds, for stage timings.
func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}
