import Build
import Flipbook
import ArgumentParser

/// `flipbook`: renders iOS view-controller transitions to GIF, WebP, MP4 and PNG previews.
public struct FlipbookCommand: ParsableCommand {
    /// The release's version: outputs' build keys carry it, and `--version` prints it with
    /// the commit (a package) or the rendering code (a build in a checkout).
    public static let version = "0.2.0"

    public static let configuration = CommandConfiguration(
        commandName: "flipbook",
        abstract:
            "Render iOS view-controller transitions, frame by frame, to GIF, WebP, MP4 and PNG previews; tweak them live in the browser (studio), fit and score them against recordings (fit, score), and keep a project's previews fresh (build).",
        version: InstalledRelease.versionLine(version: version),
        subcommands: [
            RenderCommand.self, CompareCommand.self, ListCommand.self, ConfigCommand.self, SceneCommand.self,
            PlanCommand.self, CurveCommand.self, EncodeCommand.self, StudioCommand.self, FitCommand.self,
            ScoreCommand.self, BuildCommand.self, ReferencePagesCommand.self,
        ])

    public init() {}
}
