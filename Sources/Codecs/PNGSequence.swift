import Foundation

/// A folder of numbered PNG frames.
public enum PNGSequence {
    /// The folder's PNG files (hidden ones left out), in natural name order, so `frame2` comes
    /// before `frame10`: the order `encode` plays and `compare` matches.
    public static func files(in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder)
            .filter { $0.lowercased().hasSuffix(".png") && !$0.hasPrefix(".") }
            .sorted { $0.compare($1, options: .numeric) == .orderedAscending }
            .map { (folder as NSString).appendingPathComponent($0) }
    }
}
