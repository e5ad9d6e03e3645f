// swift-tools-version:6.0
import PackageDescription

/// Flipbook: an offline renderer of iOS view-controller transitions to GIF and PNG.
///
/// Stages, each knowing only the ones before it:
/// Geometry → Planner (time, no pixels) → Raster (pixels, no time) → Codecs (PNG, GIF)
/// → FlipbookCLI → flipbook.
let package = Package(
    name: "Flipbook",
    products: [
        .executable(name: "flipbook", targets: ["flipbook"]),
        .library(name: "Raster", targets: ["Raster"]),
        .library(name: "Codecs", targets: ["Codecs"]),
        .library(name: "Planner", targets: ["Planner"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CPNG", path: "Sources/CPNG", pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]),
        .systemLibrary(
            name: "CGIF", path: "Sources/CGIF", pkgConfig: "libgif",
            providers: [.apt(["libgif-dev"])]),
        .systemLibrary(
            name: "CImageQuant", path: "Sources/CImageQuant", pkgConfig: "imagequant",
            providers: [.apt(["libimagequant-dev"])]),
        .systemLibrary(name: "CMalloc", path: "Sources/CMalloc"),
        .target(name: "Geometry"),
        .target(name: "Raster", dependencies: ["Geometry"]),
        .target(name: "Planner", dependencies: ["Geometry"]),
        .target(name: "Scenes", dependencies: ["Geometry", "Planner", .product(name: "Yams", package: "Yams")]),
        .target(name: "Render", dependencies: ["Geometry", "Planner", "Scenes", "Raster", "Codecs"]),
        .target(name: "Codecs", dependencies: ["Geometry", "Raster", "CPNG", "CGIF", "CImageQuant"]),
        .target(
            name: "FlipbookCLI",
            dependencies: [
                "Geometry", "Raster", "Codecs", "Planner", "Scenes", "Render",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .executableTarget(name: "flipbook", dependencies: ["FlipbookCLI", "CMalloc"]),
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "RasterTests", dependencies: ["Raster", "TestSupport"]),
        .testTarget(name: "PlannerTests", dependencies: ["Planner", "TestSupport"]),
        .testTarget(name: "ScenesTests", dependencies: ["Scenes", "Planner", "Render", "Codecs", "Raster", "TestSupport"], exclude: ["Goldens"]),
        .testTarget(name: "CodecsTests", dependencies: ["Codecs", "Raster", "TestSupport"]),
        .testTarget(name: "FlipbookCLITests", dependencies: ["Codecs", "Raster", "TestSupport"]),
    ]
)
