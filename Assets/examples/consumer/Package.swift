// swift-tools-version:6.0
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
