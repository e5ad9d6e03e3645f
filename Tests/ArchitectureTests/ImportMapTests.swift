import Foundation
import Testing

/// The map in Package.swift is true: every module imports only what its target declares, and
/// the declared graph keeps data flowing one way (scene file + snapshots → planner → draw
/// lists → rasterizer → encoder), each stage knowing none of the later ones.
@Suite("Architecture: the imports follow Package.swift's map")
struct ImportMapTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// Modules of the toolchain and the system, which any target may import.
    static let system: Set<String> = [
        "Foundation", "FoundationEssentials", "Glibc", "Musl", "Darwin", "Dispatch", "Synchronization",
        "_Concurrency", "_Builtin_intrinsics", "XCTest", "Testing", "os",
    ]

    /// The stages a stage must never reach: time knows no pixels, pixels know no time, nothing
    /// before the edge knows files' formats or video, and the C libraries stay at the edge.
    static let forbidden: [String: Set<String>] = [
        "Geometry": ["Planner", "Raster", "Scenes", "Render", "Codecs", "Video", "Flipbook"],
        "Planner": ["Raster", "Scenes", "Render", "Codecs", "Video", "Flipbook", "GIFCore"],
        "Raster": ["Planner", "Scenes", "Render", "Codecs", "Video", "Flipbook", "GIFCore"],
        "Scenes": ["Raster", "Render", "Codecs", "Video", "Flipbook"],
        "Render": ["Comparison", "Codecs", "Video", "Flipbook", "CPNG", "CGIF", "CWebP", "CImageQuant", "CFFmpeg"],
        "Comparison": ["Planner", "Scenes", "Render", "Codecs", "Video", "Flipbook", "GIFCore"],
        "GIFCore": ["Geometry", "Raster", "Planner", "Scenes", "Render", "Codecs", "Video", "Flipbook", "CGIF"],
        "Codecs": ["Planner", "Scenes", "Render", "Video", "Flipbook", "CFFmpeg"],
        "Video": ["Planner", "Scenes", "Render", "Flipbook"],
        "Flipbook": ["Studio", "Fit", "Build", "FlipbookCLI", "ArgumentParser"],
        "FlipbookTesting": ["Studio", "Fit", "Build", "FlipbookCLI", "ArgumentParser"],
        // The studio presents what the engine measures (Fit's score), as the tool does; the
        // engine never knows the studio.
        // It sees the public library, Fit and file watching alone: what it shows of a stage, the
        // library offers.
        "Studio": [
            "FlipbookCLI", "ArgumentParser", "Build", "Geometry", "Planner", "Raster", "Scenes", "Render", "Comparison",
            "GIFCore", "Codecs", "Video",
        ],
        "Fit": ["FlipbookCLI", "ArgumentParser", "Studio", "Build"],
        "Build": [
            "FlipbookCLI", "ArgumentParser", "Studio", "Fit", "Geometry", "Planner", "Raster", "Scenes", "Render",
            "Comparison", "GIFCore", "Codecs", "Video",
        ],
        // The tool sees the public library alone: whatever it needs of a stage, the library
        // offers, so that the studio, the build and users' code can have it too.
        "FlipbookCLI": [
            "Geometry", "Planner", "Raster", "Scenes", "Render", "Comparison", "GIFCore", "Codecs", "Video",
            "FileInput",
            "CPNG",
            "CGIF", "CWebP", "CImageQuant", "CFFmpeg",
        ],
    ]

    struct Target {
        var name: String
        var path: String
        var dependencies: Set<String>
    }

    /// The package's source targets with their declared dependencies, as SwiftPM reads them.
    static func targets() throws -> [Target] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // A scratch folder of its own: the build folder is locked while the tests run.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "flipbook-dump-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        process.arguments = [
            "swift", "package", "--package-path", root, "--scratch-path", scratch.path, "dump-package",
        ]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let list = try #require(json["targets"] as? [[String: Any]])
        return list.compactMap { t -> Target? in
            guard let name = t["name"] as? String, let type = t["type"] as? String,
                type == "regular" || type == "executable"
            else { return nil }
            let deps = (t["dependencies"] as? [[String: Any]] ?? []).compactMap { d -> String? in
                (d.values.first as? [Any])?.first as? String
            }
            let path = (t["path"] as? String) ?? "Sources/\(name)"
            return Target(name: name, path: path, dependencies: Set(deps))
        }
    }

    /// The modules a Swift file imports (`import X`, `@testable import X`, `import struct X.Y`).
    static func imports(of text: String) -> Set<String> {
        var found: Set<String> = []
        for line in text.split(separator: "\n") {
            var words = line.trimmingCharacters(in: .whitespaces).split(separator: " ").map(String.init)
            while let first = words.first, first.hasPrefix("@") { words.removeFirst() }
            guard words.first == "import", words.count >= 2 else { continue }
            let kinds: Set<String> = ["struct", "class", "enum", "protocol", "func", "var", "let", "typealias"]
            let module = kinds.contains(words[1]) && words.count >= 3 ? words[2] : words[1]
            found.insert(String(module.split(separator: ".")[0]))
        }
        return found
    }

    /// Each target's imports, by file.
    static func importsByFile(of target: Target) throws -> [(file: String, module: String)] {
        let folder = target.path.hasPrefix("/") ? target.path : root + "/" + target.path
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return [] }
        var found: [(String, String)] = []
        for case let file as String in walker where file.hasSuffix(".swift") {
            let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
            for module in imports(of: text) { found.append((target.path + "/" + file, module)) }
        }
        return found
    }

    /// What's wrong with `targets`: an import its target does not declare, or a declared
    /// dependency the map forbids.
    static func violations(_ targets: [Target]) throws -> [String] {
        var problems: [String] = []
        for target in targets {
            for (file, module) in try importsByFile(of: target) where !system.contains(module) {
                if !target.dependencies.contains(module) && module != target.name {
                    problems.append("\(file) imports \(module), which \(target.name) does not declare")
                }
                if forbidden[target.name]?.contains(module) == true {
                    problems.append("\(file) imports \(module): \(target.name) must not know \(module)")
                }
            }
            for dependency in target.dependencies.sorted() where forbidden[target.name]?.contains(dependency) == true {
                problems.append("Package.swift: \(target.name) depends on \(dependency), which the map forbids")
            }
        }
        return problems
    }

    @Test("Every module imports only what Package.swift declares for it, and no stage reaches a later one")
    func importsFollowTheMap() throws {
        let targets = try Self.targets()
        #expect(targets.count >= 15, "read \(targets.count) targets from Package.swift")
        #expect(Set(targets.map(\.name)).isSuperset(of: Set(Self.forbidden.keys)))
        let problems = try Self.violations(targets)
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test(
        "The check sees a forbidden import: Raster importing Planner, and a module importing what it does not declare")
    func catchesAForbiddenImport() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flipbook-arch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "import Foundation\n@testable import Planner\nimport struct Yams.Node\n".write(
            to: folder.appendingPathComponent("Bad.swift"), atomically: true, encoding: .utf8)
        let target = Target(name: "Raster", path: folder.path, dependencies: ["Geometry", "Planner"])
        let problems = try Self.violations([target])
        #expect(problems.contains { $0.hasSuffix("imports Planner: Raster must not know Planner") })
        #expect(problems.contains { $0.hasSuffix("imports Yams, which Raster does not declare") })
        #expect(problems.contains("Package.swift: Raster depends on Planner, which the map forbids"))
    }

    /// The stages whose machinery (renderers, planners, codecs, files, watchers) the library
    /// keeps to itself: of these, only their values and errors reach a front end through it.
    static let machinery: Set<String> = ["Geometry", "Planner", "Render", "Codecs", "Video", "FileInput", "GIFCore"]

    @Test(
        "Flipbook re-exports values and errors a user handles, and the scene model; no renderer, codec, file writer or watcher"
    )
    func reExportsNoMachinery() throws {
        let text = try String(contentsOfFile: Self.root + "/Sources/Flipbook/Exports.swift", encoding: .utf8)
        let exported = text.split(separator: "\n").filter { $0.hasPrefix("@_exported import ") }.map {
            $0.split(separator: " ").last!.split(separator: ".").map(String.init)
        }
        #expect(exported.count >= 10 && exported.count < 33, "\(exported.count) re-exports")
        let machinery = exported.filter { Self.machinery.contains($0[0]) && !$0[1].hasSuffix("Error") }
        #expect(machinery.isEmpty, "re-exported machinery: \(machinery.map { $0.joined(separator: ".") })")
        // Whatever else the front ends use of a stage, they reach through the library's own types.
        for module in ["Studio", "Build", "FlipbookCLI"] {
            let target = try #require(try Self.targets().first { $0.name == module })
            let reached = try Self.importsByFile(of: target).filter { Self.machinery.contains($0.module) }
            #expect(reached.allSatisfy { $0.module == "FileInput" && module != "FlipbookCLI" }, "\(reached)")
        }
    }
}
