import ArgumentParser
import Build
import Flipbook
import Foundation
import Synchronization

/// `flipbook build`: a project's previews from its manifest, rendering only what is stale.
struct BuildCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract:
            "Render a project's previews (GIF, WebP, MP4, PNG stills and sheets) from its manifest, flipbook.yaml: only the stale ones, several at once.",
        discussion: """
            Each output's key is a hash of everything that makes its bytes: the scene file, its \
            images, the config, the values, the format options and this tool's version. The key \
            is stamped into the file it makes, so a fresh output is skipped however it got there \
            (a commit, a CI shard's upload), and a changed screenshot rebuilds exactly the outputs \
            that read it. Every output is the export `flipbook render` runs (`--list` prints each \
            command). `flipbook build --reference` describes the manifest's keys.
            Examples:
              flipbook build
              flipbook build --check
              flipbook build --shard 2/4
              flipbook build 'previews/*-dark.gif' --manifest docs/flipbook.yaml
            """)

    @Argument(help: ArgumentHelp("Only these outputs: an entry's name, or a path (a glob with *).", valueName: "name"))
    var names: [String] = []

    @Option(help: ArgumentHelp("The manifest. Paths in it are read from its folder.", valueName: "flipbook.yaml"))
    var manifest = "flipbook.yaml"

    @Flag(help: "Render nothing: list every output that is missing or stale, and exit 1 if there is one.")
    var check = false

    @Flag(help: "Render nothing: print the outputs as JSON, each with its key, estimated cost, state and command.")
    var list = false

    @Option(
        help: ArgumentHelp(
            "Only shard I of N: N machines each build one share, split by estimated render cost.", valueName: "I/N"))
    var shard: String?

    @Option(help: ArgumentHelp("How many outputs render at once (default: one per core).", valueName: "N"))
    var jobs: Int?

    @Flag(help: "Render the chosen outputs even when they are fresh.")
    var force = false

    @Flag(help: "Print nothing but errors and the summary.")
    var quiet = false

    @Flag(help: "Print the manifest format: every key, where it may go and what it means.")
    var reference = false

    @Flag(
        help:
            "Let the manifest write outside its own folder (../, absolute paths, linked folders); without it such an output is an error."
    )
    var allowOutside = false

    func validate() throws {
        if let jobs, !(1...256).contains(jobs) { throw ValidationError("--jobs \(jobs): expected 1...256") }
        if let shard {
            do { _ = try Shard(parsing: shard) } catch { throw ValidationError("--shard \(shard): \(Shard.expected)") }
        }
        if check && list { throw ValidationError("--check and --list: give one") }
        if force && (check || list) { throw ValidationError("--force renders; --check and --list render nothing") }
    }

    func run() throws {
        if reference {
            print(ManifestFormat.reference, terminator: "")
            return
        }
        let started = Date()
        let plan = try BuildPlan(
            manifest: try BuildManifest(contentsOf: manifest), tool: Self.tool,
            allowOutside: allowOutside)
        var items = try plan.items(named: names)
        if let shard {
            let share = Set(plan.items(in: try Shard(parsing: shard)).map(\.output.path))
            items = items.filter { share.contains($0.output.path) }
        }
        if list { return try printList(items) }
        if check { return try checkFresh(items) }
        let chosen = items.filter { force || $0.state != .fresh }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let jobs = self.jobs ?? cores
        // Outputs render side by side; each gets its share of the cores.
        let threads = max(1, cores / min(jobs, max(1, chosen.count)))
        let runner = BuildRunner(jobs: jobs, threads: threads)
        let quiet = self.quiet
        // Outputs finished before an interrupt stay: the note says how many, not that none was.
        let finished = Mutex(0)
        let total = chosen.count
        interruptNote = {
            let done = finished.withLock { $0 }
            return "interrupted: \(done) of \(total) outputs built and kept; none is half-written"
        }
        let outcomes = runner.build(chosen) { event in
            if case .built = event.outcome { finished.withLock { $0 += 1 } }
            let line: String
            switch event.outcome {
            case .built(let seconds):
                guard !quiet else { return }
                line =
                    "[\(event.done)/\(event.total)] built \(event.item.output.path) in \(String(format: "%.2f", seconds)) s"
            case .failed(let message):
                line = "[\(event.done)/\(event.total)] FAILED \(event.item.output.path): \(message)"
            }
            // Written at once, unbuffered: a build is watched as it goes.
            StandardStreams.write(line + "\n")
        }
        let failed = outcomes.filter { if case .failed = $0 { return true } else { return false } }.count
        print(
            "built \(outcomes.count - failed), skipped \(items.count - chosen.count) (fresh), failed \(failed), in "
                + String(format: "%.1f s", Date().timeIntervalSince(started)))
        if failed > 0 { throw ExitCode.failure }
    }

    /// This tool, as output keys name it.
    static var tool: ToolIdentity { .current(version: FlipbookCommand.version) }

    /// What changed, in words, for each part of an output's key.
    static let partWords = [
        "tool": "the tool (its rendering code or an encoder library)", "settings": "its settings",
        "scene": "the scene file", "config": "the config", "images": "an image",
        "file": "the file itself, which is cut short or damaged",
    ]

    /// `--check`: exits 1 listing every output that is missing or stale, and why.
    func checkFresh(_ items: [BuildPlan.Item]) throws {
        let stale = items.filter { $0.state != .fresh }
        guard !stale.isEmpty else {
            print("\(items.count) output\(items.count == 1 ? " is" : "s are") up to date")
            return
        }
        for item in stale {
            switch (item.state, item.staleBecause) {
            case (.stale, []):
                print("stale: \(item.output.path) (its stamp is not one this flipbook reads: another version made it)")
            case (.stale, let parts):
                print(
                    "stale: \(item.output.path) (changed: \(parts.map { Self.partWords[$0] ?? $0 }.joined(separator: ", ")))"
                )
            default: print("\(item.state.rawValue): \(item.output.path)")
            }
        }
        if stale.contains(where: { $0.staleBecause.contains("tool") }) { print("this tool: \(Self.tool)") }
        let again = manifest == "flipbook.yaml" ? "" : " --manifest \(manifest)"
        StandardStreams.writeError("\(stale.count) of \(items.count) outputs need a build: flipbook build\(again)\n")
        throw ExitCode.failure
    }

    /// `--list`: the outputs as JSON.
    func printList(_ items: [BuildPlan.Item]) throws {
        func rounded(_ x: Double) -> Double { (x * 1000).rounded() / 1000 }
        struct Entry: Encodable {
            let path: String
            let name: String?
            let kind: String
            let key: String
            let staleBecause: [String]
            let cost: Double
            let frames: Int
            let changing: Double
            let frameMegapixels: Double
            let drawnMegapixels: Double
            let imageMegapixels: Double
            let state: String
            let command: String
        }
        let entries = items.map {
            Entry(
                path: $0.output.path, name: $0.output.name, kind: $0.output.kind.rawValue, key: $0.key.hex,
                staleBecause: $0.staleBecause,
                cost: rounded($0.cost), frames: $0.estimate.frames, changing: rounded($0.estimate.changing),
                frameMegapixels: rounded($0.estimate.frameMegapixels),
                drawnMegapixels: rounded($0.estimate.drawnMegapixels),
                imageMegapixels: rounded($0.estimate.imageMegapixels), state: $0.state.rawValue,
                command: $0.output.commandLine)
        }
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        print(String(decoding: try encoder.encode(entries), as: UTF8.self))
    }
}
