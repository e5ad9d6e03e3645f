import Foundation

/// One spelling for every path to a file: absolute, with `.`, `..` and repeated slashes gone
/// and the links of its existing part resolved, so that `out/a.gif`, `./out//a.gif` and
/// `out/x/../a.gif` compare equal, and so do a link and its target.
public func canonicalPath(_ path: String) -> String {
    var existing = URL(fileURLWithPath: path).standardizedFileURL
    var rest: [String] = []
    while !FileManager.default.fileExists(atPath: existing.path) && existing.path != "/" {
        rest.insert(existing.lastPathComponent, at: 0)
        existing.deleteLastPathComponent()
    }
    var out = existing.resolvingSymlinksInPath()
    for part in rest { out.appendPathComponent(part) }
    return out.standardizedFileURL.path
}
