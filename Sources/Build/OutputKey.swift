/// An output's key and what it is made of. Each part (the tool, the export's settings, the scene
/// file, the config, the images) is digested alone and the key is the digest of the parts, so
/// that a stale output's stamp tells which part changed since it was made.
public struct OutputKey: Sendable, Equatable {
    /// The parts, in the order a stamp carries them.
    public static let partNames = ["tool", "settings", "scene", "config", "images"]
    /// How many hex digits of each part's digest a stamp keeps: enough to tell them apart.
    static let partLength = 12

    /// The key: a SHA-256 in hex.
    public let hex: String
    /// Each part's digest, by `partNames`, shortened to `partLength`.
    public let parts: [String]

    /// The key of `parts`, each the full digest of one part (in `partNames` order).
    init(parts full: [String]) {
        precondition(full.count == Self.partNames.count && full.allSatisfy { $0.count >= Self.partLength })
        var hash = SHA256()
        for (name, part) in zip(Self.partNames, full) {
            hash.update(field: name)
            hash.update(field: part)
        }
        hex = hash.hex()
        parts = full.map { String($0.prefix(Self.partLength)) }
    }

    private init(hex: String, parts: [String]) {
        self.hex = hex
        self.parts = parts
    }

    /// The stamp written into the output: the key, then each part's short digest.
    public var stamp: String { hex + parts.joined() }

    /// The stamp's length, which `OutputStamp` carries.
    public static let stampLength = 64 + partNames.count * partLength

    /// The key a stamp carries, or nil for one that is not a stamp of this kind.
    public init?(stamp: String) {
        let text = Array(stamp)
        guard text.count == Self.stampLength else { return nil }
        let parts = stride(from: 64, to: text.count, by: Self.partLength).map {
            String(text[$0..<($0 + Self.partLength)])
        }
        self.init(hex: String(text[0..<64]), parts: parts)
    }

    /// The parts that differ from `other`'s, by name.
    public func changedParts(since other: OutputKey) -> [String] {
        zip(Self.partNames, zip(parts, other.parts)).filter { $0.1.0 != $0.1.1 }.map(\.0)
    }
}
