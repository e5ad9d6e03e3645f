import FuzzTargets
#if FUZZING
    import Foundation

    /// libFuzzer's driver, from the runtime that `-sanitize=fuzzer` links in.
    @_silgen_name("LLVMFuzzerRunDriver")
    func runFuzzerDriver(
        _ argc: UnsafeMutablePointer<Int32>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
        _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
    ) -> Int32

    /// The entry libFuzzer's own `main` calls, when the linker picks that one.
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
        FuzzTarget.current.run(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
        return 0
    }
#endif

/// `Scripts/fuzz` builds this target with `-sanitize=fuzzer` and `FUZZING`: main hands the
/// command line to libFuzzer's driver, which feeds inputs to the target `FLIPBOOK_FUZZ_TARGET`
/// names. Built without them, it only says how to run it.
@main
enum FuzzMain {
    static func main() {
        #if FUZZING
            var argc = CommandLine.argc
            var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
            exit(runFuzzerDriver(&argc, &argv) { data, size in fuzzOne(data, size) })
        #else
            print(
                "flipbook-fuzz runs under libFuzzer: Scripts/fuzz TARGET SECONDS (targets: png, gif, config, scene, curve)"
            )
        #endif
    }
}
