import Flipbook
import ArgumentParser
import Foundation

/// `flipbook plan`: a scene's draw lists as JSON lines, for reading exact geometry.
struct PlanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "Print a scene's sampled draw list as JSON lines (points), at one time or every frame.",
        discussion:
            "One line per draw command: t, layer, kind, image, file and source (snapshots) or color (fills), rect, scale, alpha, cornerRadius, clip."
    )

    @OptionGroup var sceneOptions: SceneOptionGroup

    @Option(help: ArgumentHelp("Sample only this time, in seconds.", valueName: "seconds"))
    var time: Double?

    func run() throws {
        StandardStreams.write(try sceneOptions.prepare().drawListJSONLines(at: time))
    }
}
