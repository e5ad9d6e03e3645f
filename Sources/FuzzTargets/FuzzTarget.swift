import Build
import Fit
import Flipbook
import Codecs
import Foundation
import Geometry
import Planner
import Scenes
import Studio
import Video

/// One parser or loader under the fuzzer, fed arbitrary bytes. Any error thrown is a pass;
/// a crash, a hang or a runaway allocation is what the fuzzer reports.
public enum FuzzTarget: String, CaseIterable, Sendable {
    case png, gif, config, scene, curve, manifest, stamp, webp, mp4, recording, http, features, expression, apng

    /// The target named by `FLIPBOOK_FUZZ_TARGET` (Scripts/fuzz sets it).
    public static let current: FuzzTarget = {
        let name = ProcessInfo.processInfo.environment["FLIPBOOK_FUZZ_TARGET"] ?? ""
        guard let target = FuzzTarget(rawValue: name) else {
            FileHandle.standardError.write(
                Data(
                    "FLIPBOOK_FUZZ_TARGET=\(name): expected one of \(allCases.map(\.rawValue).joined(separator: ", "))\n"
                        .utf8))
            exit(2)
        }
        return target
    }()

    /// A scratch file per process, for loaders that read paths.
    static let scratch = NSTemporaryDirectory() + "flipbook-fuzz-\(getpid())"

    /// Writes `bytes` to the scratch file ending in `suffix`, hands its path to `body`, and
    /// removes it, so that replaying a corpus leaves nothing behind.
    static func withScratch(_ suffix: String, holding bytes: [UInt8], _ body: (String) -> Void) {
        let path = scratch + suffix
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        defer { try? FileManager.default.removeItem(atPath: path) }
        body(path)
    }
    /// Read once; libFuzzer runs one input at a time.
    nonisolated(unsafe) static let builtIn = try! SceneCatalog.file(named: "expanding-cells")
    static let sizes: ImageSizes = [
        "assets.list": Size(width: 750, height: 1334), "assets.detail": Size(width: 750, height: 1334),
        "assets.statusBarLight": Size(width: 750, height: 40), "assets.statusBarDark": Size(width: 750, height: 40),
    ]

    /// Feeds `bytes` to the target's parser or loader, and on through what it produces.
    public func run(_ bytes: [UInt8]) {
        switch self {
        case .png:
            _ = try? PNGCodec.decode(bytes, source: "fuzz.png")
        case .gif:
            Self.withScratch(".gif", holding: bytes) { _ = try? GIFDecoder.read(path: $0) }
        case .config:
            Self.withScratch(".yaml", holding: bytes) {
                _ = try? Self.builtIn.prepare(configFile: $0).plan(sizes: Self.sizes)
            }
        case .scene:
            // Any image is taken to be the size its shape asks for where the shape is the screen.
            let text = String(decoding: bytes, as: UTF8.self)
            guard let scene = try? SceneFile(text: text, path: Self.scratch + "/scene.yaml").prepare() else { return }
            let sizes = Dictionary(uniqueKeysWithValues: scene.images.map { ($0.name, Size(width: 750, height: 1334)) })
            _ = try? scene.plan(sizes: sizes)
        case .curve:
            guard let curve = try? Curve(spec: String(decoding: bytes, as: UTF8.self)) else { return }
            for t in [0, 0.01, 0.5, curve.duration / 2, curve.duration] { _ = curve.progress(at: t) }
        case .manifest:
            // Read, checked and expanded: every output's arguments spelled out.
            let text = String(decoding: bytes, as: UTF8.self)
            guard let manifest = try? BuildManifest(text: text, file: Self.scratch + "/flipbook.yaml") else { return }
            for output in manifest.outputs { _ = try? output.request(folder: manifest.folder) }
        case .webp:
            // An animated or still WebP, every frame decoded as a viewer shows it.
            Self.withScratch(".webp", holding: bytes) {
                guard let reader = try? WebPReader(path: $0) else { return }
                while (try? reader.next()) != nil {}
            }
        case .mp4:
            // Any container FFmpeg reads, every frame converted to RGBA.
            Self.withScratch(".mp4", holding: bytes) {
                guard let reader = try? MP4Reader(path: $0) else { return }
                while (try? reader.next()) != nil {}
            }
        case .recording:
            // Any GIF as a recording fit reads: every frame as a browser plays it, then fit's
            // checks and the instants it would sample.
            Self.withScratch("-rec.gif", holding: bytes) {
                guard let frames = try? FrameSequence.load($0) else { return }
                _ = try? Fitter.check(frames, frameInterval: nil)
            }
        case .expression:
            // A scene file's expression, parsed and evaluated: depth, length and numbers bounded.
            _ = evaluateExpression(String(decoding: bytes, as: UTF8.self))
        case .apng:
            // Any PNG as a recording: an animated one through FFmpeg's APNG decoder, timed as
            // browsers play it, then fit's checks.
            Self.withScratch("-rec.png", holding: bytes) {
                guard let frames = try? FrameSequence.load($0) else { return }
                _ = try? Fitter.check(frames, frameInterval: nil)
            }
        case .http:
            // A request as it arrives, in two pieces split where its first byte says: the head's
            // length is within what came and the caps, and a body is never past its cap.
            var parser = HTTPRequestParser(limits: HTTPLimits())
            let split = bytes.isEmpty ? 0 : Int(bytes[0]) % (bytes.count + 1)
            for piece in [Array(bytes.prefix(split)), bytes] {
                guard case .head(_, let headLength, let bodyLength) = parser.parse(piece) else { continue }
                if headLength > piece.count || headLength > parser.limits.headerBlock
                    || bodyLength > parser.limits.body
                {
                    fatalError("a head of \(headLength) bytes and a body of \(bodyLength) passed the caps")
                }
                break
            }
        case .features:
            // A features file, and each feature it reads followed through a few small frames.
            let text = String(decoding: bytes, as: UTF8.self)
            guard let file = try? FeatureFile(text: text, file: Self.scratch + "/features.yaml") else { return }
            let frames = (0..<3).map { k in
                ScoreImage(
                    width: 64, height: 48, rgb: (0..<64 * 48 * 3).map { UInt8(truncatingIfNeeded: $0 * (k + 7)) })
            }
            for feature in file.features where (try? feature.check(width: 64, height: 48)) != nil {
                _ = FeatureTracker(feature: feature, frames: 3, interval: 0.04) { frames[$0] }.positions()
            }
        case .stamp:
            // Any file: reading a stamp never fails loudly; a stamp written is the one read back.
            Self.withScratch(".stamped", holding: bytes) { path in
                _ = OutputStamp.read(path)
                let key = String(repeating: "0123456789abcdef", count: 4)
                if (try? OutputStamp.write(key, to: path)) != nil, OutputStamp.read(path) != key {
                    fatalError("a stamp was written and not read back")
                }
            }
        }
    }
}
