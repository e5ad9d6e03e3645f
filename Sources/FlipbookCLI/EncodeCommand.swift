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
    var gif: GIFOptionGroup

    func validate() throws {
        guard fps >= 0.1 && fps <= 1000 else { throw ValidationError("--fps \(fps): expected a number in 0.1...1000") }
        guard let format = AnimationFormat.named(by: output) else {
            throw ValidationError(
                "-o \(output): expected a path ending in \(AnimationFormat.sentence(AnimationFormat.all.map { $0.extensions[0] }))"
            )
        }
        try presenting { try gif.encoding.check(for: .animation(format)) }
        if let rates = format.frameRates, !rates.contains(fps) {
            throw ValidationError(
                "--fps \(fps.plainText): \(format.noun) plays at \(rates.lowerBound.plainText)...\(rates.upperBound.plainText) fps"
            )
        }
        try presenting {
            try OutputRules(
                outputs: [.init(option: "-o", path: output)], inputs: [.init(what: "the frames", path: frames)]
            ).check()
        }
    }

    func run() throws {
        interruptNote = { "interrupted: no output was written" }
        let files = try pngFiles(in: frames)
        if let note = AnimationFormat.named(by: output)?.frameRateNote(fps) { warn(note.onCommandLine) }
        let first = try PNGCodec.read(path: files[0])
        let animation = try AnimatedOutput(
            path: output, width: first.width, height: first.height, fps: fps, encoding: gif.encoding)
        try animation.add(first, at: 0)
        for (i, file) in files.enumerated().dropFirst() {
            let frame = try PNGCodec.read(path: file)
            try EncodeError.checkSize(of: frame, width: first.width, height: first.height, path: file)
            try animation.add(frame, at: Double(i) / fps)
        }
        let written = try animation.finish(at: Double(files.count) / fps, inputFrames: files.count)
        if AnimatedOutput.isOverHint(written) { warn(AnimatedOutput.sizeHint(written).onCommandLine) }
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
