import Foundation
import SourceKey

// Writes each file named on the command line as its path from the package's folder (the first
// argument), a line break, its keyed text and a NUL: what RenderingSourcesPlugin digests.
let arguments = CommandLine.arguments.dropFirst()
guard let root = arguments.first else {
    FileHandle.standardError.write(Data("usage: source-key PACKAGE-FOLDER FILE...\n".utf8))
    exit(64)
}
var out: [UInt8] = []
for path in arguments.dropFirst() {
    guard let data = FileManager.default.contents(atPath: path) else {
        FileHandle.standardError.write(Data("source-key: cannot read \(path)\n".utf8))
        exit(1)
    }
    let name = path.hasPrefix(root + "/") ? String(path.dropFirst(root.count + 1)) : path
    out += Array(name.utf8) + [0x0A] + KeyedSource.text(of: Array(data)) + [0]
}
FileHandle.standardOutput.write(Data(out))
