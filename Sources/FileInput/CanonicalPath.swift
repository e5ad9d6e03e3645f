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

/// The folder part of `path` as it is written: `a/b/c.gif` → `a/b`, `/c.gif` → `/`, and `""`
/// for a bare name (`c`, `f/`). Trailing slashes name the same item. (Foundation's
/// `deletingLastPathComponent` traps on a one-character relative name.)
public func parentFolder(of path: String) -> String {
    var name = Substring(path)
    while name.count > 1 && name.hasSuffix("/") { name = name.dropLast() }
    guard let slash = name.lastIndex(of: "/") else { return "" }
    var parent = name[..<slash]
    while parent.count > 1 && parent.hasSuffix("/") { parent = parent.dropLast() }
    return parent.isEmpty ? "/" : String(parent)
}
