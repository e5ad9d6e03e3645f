import Foundation
@_exported import TestSupport

/// Runs the built `flipbook` executable, as a user would.
struct ToolRun {
    var status: Int32
    var stdout: String
    var stderr: String
}

enum Tool {
    /// The `flipbook` binary beside the test bundle (swift build --build-tests builds both).
    static var executable: URL {
        let here = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        var dir = here.deletingLastPathComponent()
        for _ in 0..<3 {
            let candidate = dir.appendingPathComponent("flipbook")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: ".build/debug/flipbook")
    }

    /// Runs `flipbook ARGUMENTS` in `directory` (by default, this process's), with `environment`
    /// added to this process's.
    static func run(_ arguments: [String], in directory: String? = nil, environment: [String: String] = [:]) throws
        -> ToolRun
    {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return ToolRun(
            status: process.terminationStatus, stdout: String(decoding: o, as: UTF8.self),
            stderr: String(decoding: e, as: UTF8.self))
    }
}
