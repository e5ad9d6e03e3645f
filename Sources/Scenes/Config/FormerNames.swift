/// Keys renamed to say what they are, by their current name: the former names are still read
/// in scene files, configs and `--set`, and a save edits whichever spelling a file uses, but
/// Flipbook writes only the current one.
public enum FormerNames {
    /// Current name → former names.
    public static let of: [String: [String]] = Dictionary(
        uniqueKeysWithValues: AnimationPart.allCases.filter { !$0.formerNames.isEmpty }.map {
            ($0.name, $0.formerNames)
        })

    /// Former name → the current names it was (`of`, turned round).
    public static let currentNames: [String: Set<String>] = of.reduce(into: [:]) { names, entry in
        for former in entry.value { names[former, default: []].insert(entry.key) }
    }
}
