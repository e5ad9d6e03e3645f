/// "Did you mean": the known name nearest to a mistyped one, by edit distance, when it is
/// near enough to be a typo. Every unknown-name message in scene files, configs and
/// manifests asks this one place.
public enum Suggestion {
    /// The candidate nearest to `word`, or nil when none is within a typo's reach.
    /// Bounded: a name longer than `longestName` is no typo of a known one and is not
    /// compared, and a candidate whose length is further from the word's than a typo reaches
    /// is passed over, so a megabyte of name costs nothing.
    public static func closest(to word: String, in candidates: [String]) -> String? {
        let length = word.count
        guard length <= longestName else { return nil }
        let reach = max(2, length / 3)
        let scored = candidates.lazy.filter { $0 != word && $0.count <= longestName && abs($0.count - length) <= reach }
            .map { ($0, editDistance(word, $0)) }.min { $0.1 < $1.1 }
        guard let (best, distance) = scored, distance <= reach, distance < length else {
            return nil
        }
        return best
    }

    /// The longest name a suggestion is looked for: far past any key, layer or scene name.
    public static let longestName = 256

    /// "; did you mean NAME?" for the nearest candidate, or "".
    public static func hint(for word: String, in candidates: [String]) -> String {
        closest(to: word, in: candidates).map { "; did you mean \($0)?" } ?? ""
    }

    /// The Levenshtein distance: the fewest insertions, deletions and substitutions from a to b.
    public static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var row = [i] + [Int](repeating: 0, count: b.count)
            for j in 1...b.count {
                row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = row
        }
        return previous[b.count]
    }
}
