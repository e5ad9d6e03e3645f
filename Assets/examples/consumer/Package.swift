// swift-tools-version:6.0
// A package of someone else's that checks its transitions with Flipbook, as the README's
// "Use it in your tests" says; Scripts/test builds and runs it.
import PackageDescription

let package = Package(
    name: "Consumer",
    dependencies: [
        .package(name: "Flipbook", path: "../../.."),
    ],
    targets: [
        .testTarget(
            name: "PreviewTests",
            dependencies: [.product(name: "FlipbookTesting", package: "Flipbook")],
            exclude: ["__Frames__"]),
    ]
)
