import Flipbook
import Foundation

/// What an installed Flipbook says it was built from: the `VERSION` file `Scripts/package`
/// writes beside the built-in scenes (`share/flipbook/VERSION`): the release's version, a tag
/// or the version and the commit, and the commit itself. A build in a checkout has none, and
/// names its rendering code instead.
public enum InstalledRelease {
    /// The file's first line, read once; nil where there is no such file.
    public static let line: String? = {
        let path = (Transition.installFolder as NSString).appendingPathComponent("VERSION")
        guard let text = try? String(contentsOfFile: path, encoding: .utf8),
            let first = text.split(separator: "\n").first?.trimmingCharacters(in: .whitespaces), !first.isEmpty,
            first.count <= 200
        else { return nil }
        return first
    }()

    /// What `flipbook --version` prints: the package's line, or `version` and the digest of the
    /// rendering code this build was made from.
    public static func versionLine(version: String) -> String {
        line ?? "\(version) (built from source; rendering code \(renderingSourcesDigest.prefix(12)))"
    }
}
