import Codecs
import Foundation

/// A folder of numbered PNG frames encoded as one animation, in the format the output's
/// extension names: what `flipbook encode` does, as a value. The frames play in natural name
/// order (frame2 before frame10), each for 1/fps seconds, and are read one at a time.
public struct EncodeRequest: Sendable {
    /// The folder of PNG frames.
    public var frames: String
    /// The animation to write.
    public var output: String
    /// Frames per second of the sequence.
    public var fps = 30.0
    public var encoding = EncodingOptions()

    /// The frame rates a sequence may have.
    public static let frameRates = 0.1...1000.0

    public init(frames: String, output: String) {
        self.frames = frames
        self.output = output
    }

    /// The format the output's extension names.
    public var format: AnimationFormat? { AnimationFormat.named(by: output) }

    /// Refuses, before any work, a request that cannot be encoded as asked: a frame rate out of
    /// range (the sequence's, or the format's), an output of no animated format, a setting the
    /// format would not use, or an output that is an input.
    public func check() throws {
        guard Self.frameRates.contains(fps) else {
            throw ExportError.refused(
                .fps, fps.plainText,
                "expected a number in \(Self.frameRates.lowerBound.plainText)...\(Self.frameRates.upperBound.plainText)"
            )
        }
        guard let format else {
            throw ExportError.refused(
                .output, output,
                "expected a path ending in \(AnimationFormat.sentence(AnimationFormat.all.map { $0.extensions[0] }))")
        }
        try encoding.check()
        try encoding.check(for: .animation(format))
        if let rates = format.frameRates, !rates.contains(fps) {
            throw ExportError.refused(
                .fps, fps.plainText,
                "\(format.noun) plays at \(rates.lowerBound.plainText)...\(rates.upperBound.plainText) fps")
        }
        try OutputRules(outputs: [.init(.output, path: output)], inputs: [.init(what: "the frames", path: frames)])
            .check()
    }

    /// Checks the request, then encodes the frames, telling what is worth knowing as warnings.
    public func run(_ events: ExportEvents = ExportEvents()) throws -> AnimatedOutput.Written {
        try check()
        let files = try frameFiles()
        if let note = format?.frameRateNote(fps) { events.warning(note) }
        let first = try PNGCodec.read(path: files[0])
        let animation = try AnimatedOutput(
            path: output, width: first.width, height: first.height, fps: fps, encoding: encoding)
        try animation.add(first, at: 0)
        events.progress(1, files.count)
        for (i, file) in files.enumerated().dropFirst() {
            if events.isCancelled() { throw CancellationError() }
            let frame = try PNGCodec.read(path: file)
            try EncodeError.checkSize(of: frame, width: first.width, height: first.height, path: file)
            try animation.add(frame, at: Double(i) / fps)
            events.progress(i + 1, files.count)
        }
        let written = try animation.finish(at: Double(files.count) / fps, inputFrames: files.count)
        if AnimatedOutput.isOverHint(written) { events.warning(AnimatedOutput.sizeHint(written)) }
        return written
    }

    /// The folder's PNG files in play order.
    func frameFiles() throws -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: frames, isDirectory: &isDirectory) else {
            throw ExportError.failed(nil, "\(frames): no such folder")
        }
        guard isDirectory.boolValue else {
            throw ExportError.failed(nil, "\(frames): not a folder (expected a folder of PNG frames)")
        }
        let files = try PNGSequence.files(in: frames)
        guard !files.isEmpty else { throw ExportError.failed(nil, "\(frames): no .png files in this folder") }
        return files
    }
}
