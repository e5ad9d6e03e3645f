import Foundation
import Testing

/// Shell completion as a user's shell runs it: bash sources the script the tool writes, and its
/// completion function asks the tool for the candidates.
@Suite("Completions name storyboards and scenes")
struct CompletionTests {
    /// What bash's completion offers for `words` (the last one being completed).
    func bashCompletes(_ words: [String]) throws -> [String] {
        let dir = temporaryFolder()
        let script = try Tool.run(["--generate-completion-script", "bash"])
        try #require(script.status == 0)
        try Data(script.stdout.utf8).write(to: URL(fileURLWithPath: dir + "/flipbook.bash"))
        let quoted = words.map { "'\($0)'" }.joined(separator: " ")
        let driver = """
            source "\(dir)/flipbook.bash"
            COMP_WORDS=(\(quoted))
            COMP_CWORD=\(words.count - 1)
            COMP_LINE="\(words.joined(separator: " "))"
            COMP_POINT=${#COMP_LINE}
            _flipbook flipbook '\(words.last!)' '\(words[words.count - 2])'
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", driver]
        let folder = Tool.executable.deletingLastPathComponent().path
        process.environment = ProcessInfo.processInfo.environment.merging([
            "PATH": folder + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        ]) { $1 }
        process.currentDirectoryURL = URL(fileURLWithPath: dir)
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text.split(separator: "\n").map(String.init)
    }

    @Test("--storyboard completes the named scene's storyboards, by prefix, for render, fit and studio")
    func storyboards() throws {
        #expect(
            try bashCompletes(["flipbook", "render", "expanding-view", "--storyboard", ""]) == [
                "bottom", "top-right", "left", "small", "transition-1", "transition-2", "transition-3", "transition-4",
            ])
        #expect(
            try bashCompletes(["flipbook", "render", "expanding-view", "--storyboard", "tr"]) == [
                "transition-1", "transition-2", "transition-3", "transition-4",
            ])
        #expect(try bashCompletes(["flipbook", "studio", "app-store-card", "--storyboard", "pro"]) == ["promo"])
        #expect(
            try bashCompletes(["flipbook", "fit", "r.gif", "sliding-panels", "--storyboard", "po"]) == ["port-demo"])
    }

    @Test("The scene argument completes the built-ins by prefix")
    func scenes() throws {
        #expect(try bashCompletes(["flipbook", "render", "exp"]) == ["expanding-cells", "expanding-view"])
    }
}
