import ArgumentParser
import Flipbook
import Foundation

/// `flipbook encode`: a numbered PNG sequence to a GIF, an animated WebP or an MP4.
struct EncodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "encode",
        abstract: "Encode a folder of numbered PNG frames as a \(AnimationFormat.listed(\.label)).",
        discussion: """
            Frames play in natural name order (frame2 before frame10), each for 1/fps seconds. \
            Identical neighbours merge into one longer frame; above 50 fps, frames are dropped so \
            that no delay is under 2 cs, and the total duration stays exact.
            """)

    @Argument(help: "The folder of PNG frames.")
    var frames: String

    @Option(
        name: .shortAndLong,
        help: "The \(AnimationFormat.listed(\.label)) to write (written to a temporary file, then renamed).")
    var output: String

    @Option(help: ArgumentHelp("Frames per second of the sequence, 0.1...1000.", valueName: "fps"))
    var fps: Double = 30

    @Flag(name: .long, help: "Also print where the encoder's time went.")
    var verbose = false

    @OptionGroup(title: "GIF and WebP options")
    var gif: ExportFlags<EncoderFlags>

    /// The request these arguments make.
    func request() throws -> EncodeRequest {
        var request = EncodeRequest(frames: frames, output: output)
        request.fps = fps
        // The encoder's options, read as a render's are.
        var export = ExportRequest(scene: "")
        try gif.apply(to: &export)
        request.encoding = export.encoding
        return request
    }

    func validate() throws {
        let request = try self.request()
        try presenting { try request.check() }
    }

    func run() throws {
        interruptNote = { "interrupted: no output was written" }
        let request = try self.request()
        let written = try presenting {
            try request.run(ExportEvents(warning: { warn($0.onCommandLine) }))
        }
        print(written.line)
        if verbose, let summary = written.gif {
            let st = summary.stages
            print(
                String(
                    format:
                        "stages: palettes %.2f s (on workers), remap %.2f s, lossy match %.2f s, write %.2f s, waiting for palettes %.2f s",
                    st.palette, st.remap, st.lossyMatch, st.write, st.waiting))
        }
    }
}
