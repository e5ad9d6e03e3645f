// swift-tools-version:6.0
import PackageDescription

/// Flipbook: an offline renderer of iOS view-controller transitions to GIF, WebP, MP4 and PNG.
///
/// Data flows one way; each stage knows only the ones it depends on:
/// Geometry → Planner (time, no pixels) → Scenes (scene files into plans)
/// Geometry → Raster (pixels, no time)
/// Planner + Scenes + Raster → Render (draw lists into frames, no files)
/// Geometry + Raster → Comparison (frames compared, recordings as timed frames, no files)
/// GIFCore (GIF timing, palettes, remapping, LZW: pure Swift) → Codecs (PNG, GIF and WebP
/// through the C libraries, and files) → Video (MP4 through FFmpeg)
/// Render + Comparison + Codecs + Video → Flipbook (the public library and the one engine:
/// `ExportRequest` renders and writes every format within a size budget, each format one
/// `AnimationFormat` value in its own file, timed by GIFCore's scheduler where it is timed as
/// a GIF; recordings are read here, at the edge) → FlipbookTesting (assertions for users' tests)
/// Flipbook + Planner + Scenes → Fit (a scene's params fitted to a recording, and a storyboard
/// scored against one by features followed in both, a drag's stroke fitted by the planner's own
/// physics; a features file is YAML, read as scene files are; a scene made from a recording, its
/// screens' moves fitted by the same search)
/// Flipbook + Fit → Studio (the live preview server, on an HTTP/1.1 server of its own over POSIX
/// sockets that caps every line, header block and body and times out slow clients, small beside
/// a SwiftNIO stack that every clean build and CI run would compile; no render logic of its own:
/// a version against a recording is scored by Fit's `Scorer`, as `flipbook score` scores it)
/// Flipbook → Build (a manifest's previews: keys stamped into the files by Flipbook's
/// `OutputStamp`, staleness and why, shards; each output an `ExportRequest`; its keys name the tool by a
/// digest of the rendering code's sources that RenderingSourcesPlugin takes at build time (their
/// tokens less comments, layout and messages: SourceKey), and by the C libraries' versions)
/// Flipbook + Studio + Fit + Build → FlipbookCLI (the only module that parses arguments: flags
/// into requests) → flipbook (the tool).
/// The C libraries come from apt on Linux and Homebrew on macOS.
/// Scripts/fuzz builds every target instrumented for libFuzzer, whose runtime brings its own
/// `main`: no tool the build runs (RenderingSourcesPlugin's `source-key`) could run so built.
/// Its build names no rendering code instead (Build's `FuzzingSources.swift`).
let fuzzing = Context.environment["FLIPBOOK_FUZZING"] != nil

let package = Package(
    name: "Flipbook",
    products: [
        .executable(name: "flipbook", targets: ["flipbook"]),
        .library(name: "Flipbook", targets: ["Flipbook"]),
        .library(name: "FlipbookTesting", targets: ["FlipbookTesting"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CPNG", path: "Sources/CPNG", pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"]), .brew(["libpng"])]),
        .systemLibrary(
            name: "CGIF", path: "Sources/CGIF", pkgConfig: "libgif",
            providers: [.apt(["libgif-dev"]), .brew(["giflib"])]),
        .systemLibrary(
            name: "CImageQuant", path: "Sources/CImageQuant", pkgConfig: "imagequant",
            providers: [.apt(["libimagequant-dev"]), .brew(["libimagequant"])]),
        .systemLibrary(
            name: "CWebP", path: "Sources/CWebP", pkgConfig: "libwebpmux",
            providers: [.apt(["libwebp-dev"]), .brew(["webp"])]),
        .systemLibrary(
            name: "CFFmpeg", path: "Sources/CFFmpeg", pkgConfig: "libavformat",
            providers: [.apt(["libavcodec-dev", "libavformat-dev", "libswscale-dev"]), .brew(["ffmpeg"])]),
        .systemLibrary(name: "CMalloc", path: "Sources/CMalloc"),
        .target(name: "Geometry"),
        .target(name: "FileInput"),
        .target(name: "Raster", dependencies: ["Geometry"]),
        .target(name: "Planner", dependencies: ["Geometry"]),
        .target(name: "GIFCore"),
        .target(
            name: "Scenes", dependencies: ["Geometry", "Planner", "FileInput", .product(name: "Yams", package: "Yams")]),
        .target(name: "Render", dependencies: ["Geometry", "Planner", "Scenes", "Raster"]),
        .target(name: "Comparison", dependencies: ["Geometry", "Raster"]),
        .target(
            name: "Codecs",
            dependencies: ["Geometry", "Raster", "FileInput", "GIFCore", "CPNG", "CGIF", "CImageQuant", "CWebP"]),
        .target(name: "Video", dependencies: ["Raster", "Codecs", "CFFmpeg"]),
        .target(
            name: "Flipbook",
            dependencies: [
                "Geometry", "Planner", "Raster", "GIFCore", "Codecs", "Video", "Render", "Comparison", "Scenes",
                "FileInput", .product(name: "Yams", package: "Yams"),
            ]),
        .target(name: "FlipbookTesting", dependencies: ["Flipbook"]),
        .target(
            name: "Fit",
            dependencies: ["Flipbook", "Geometry", "Planner", "Scenes", .product(name: "Yams", package: "Yams")]),
        .target(
            name: "Build",
            dependencies: ["Flipbook", "FileInput", .product(name: "Yams", package: "Yams")],
            plugins: fuzzing ? [] : ["RenderingSourcesPlugin"]),
        // Digests the sources of the modules that decide an output's bytes into Build, at build time.
        // What of a source file a build key digests: its tokens less comments, layout and messages.
        .plugin(
            name: "RenderingSourcesPlugin", capability: .buildTool(), dependencies: ["source-key"],
            path: "Sources/RenderingSourcesPlugin"),
        .target(name: "SourceKey"),
        .executableTarget(name: "source-key", dependencies: ["SourceKey"], path: "Sources/SourceKeyTool"),
        .target(
            name: "Studio",
            dependencies: ["Flipbook", "Fit", "FileInput"]),
        .target(
            name: "FlipbookCLI",
            dependencies: [
                "Flipbook", "Studio", "Fit", "Build",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .executableTarget(name: "flipbook", dependencies: ["FlipbookCLI", "CMalloc"]),
        // libFuzzer targets for the parsers and loaders; Scripts/fuzz builds them instrumented.
        .target(
            name: "FuzzTargets",
            dependencies: ["Build", "Fit", "Flipbook", "Studio", "Codecs", "Video", "Planner", "Scenes", "Geometry"]),
        .executableTarget(name: "flipbook-fuzz", dependencies: ["FuzzTargets"], path: "Sources/FlipbookFuzz"),
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "GeometryTests", dependencies: ["Geometry", "TestSupport"]),
        .testTarget(name: "RasterTests", dependencies: ["Raster", "TestSupport"]),
        .testTarget(name: "PlannerTests", dependencies: ["Planner", "TestSupport"]),
        .testTarget(
            name: "ScenesTests",
            dependencies: [
                "Scenes", "Planner", "Render", "Comparison", "Codecs", "Raster", "Flipbook", "FlipbookTesting",
                "TestSupport",
            ], exclude: ["__Frames__"]),
        .testTarget(
            name: "RenderTests",
            dependencies: ["Render", "Comparison", "Scenes", "Planner", "Raster", "Codecs", "Flipbook", "TestSupport"]),
        .testTarget(name: "CodecsTests", dependencies: ["Codecs", "GIFCore", "CGIF", "Raster", "TestSupport"]),
        .testTarget(name: "GIFCoreTests", dependencies: ["GIFCore", "TestSupport"]),
        .testTarget(name: "SourceKeyTests", dependencies: ["SourceKey"]),
        .testTarget(
            name: "VideoTests", dependencies: ["Video", "Codecs", "Raster", "Geometry", "TestSupport"],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "StudioTests",
            dependencies: [
                "Studio", "Fit", "Flipbook", "Scenes", "TestSupport",
            ]),
        .testTarget(
            name: "BuildTests",
            dependencies: ["Build", "Flipbook", "Scenes", "Codecs", "Video", "Raster", "TestSupport"]),
        .testTarget(
            name: "FlipbookTestingTests",
            dependencies: ["FlipbookTesting", "Flipbook", "Geometry", "Raster", "TestSupport"], exclude: ["__Frames__"]),
        .testTarget(name: "FitTests", dependencies: ["Fit", "Flipbook", "Geometry", "Codecs", "Video", "TestSupport"]),
        .testTarget(name: "FuzzRegressionTests", dependencies: ["FuzzTargets"], exclude: ["Inputs"]),
        // Reads Package.swift and every module's imports: the map above is the one the code follows.
        .testTarget(name: "ArchitectureTests"),
        .testTarget(
            name: "FlipbookCLITests",
            dependencies: [
                "FlipbookCLI", .product(name: "ArgumentParser", package: "swift-argument-parser"), "Codecs", "Raster",
                "Comparison", "Geometry", "Video", "Build", "Studio", "TestSupport",
            ]),
    ]
)

// The tests' own code is compiled without optimization, in release builds too: Scripts/test
// builds release (the code under test optimized, as users run it), and the tests' bodies, which
// call that code rather than loop over pixels themselves, take far longer to optimize than they
// then save. Test targets are in no product, so no package that depends on this one sees the flag.
for target in package.targets where target.type == .test {
    target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-Onone"], .when(configuration: .release))]
}
