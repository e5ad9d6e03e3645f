/// "Did you mean": the known name nearest to a mistyped one, by edit distance, when it is
/// near enough to be a typo. Every unknown-name message in scene files, configs and
/// manifests asks this one place.
public enum Suggestion {
    /// The candidate nearest to `word`, or nil when none is within a typo's reach.
    public static func closest(to word: String, in candidates: [String]) -> String? {
        let scored = candidates.filter { $0 != word }.map { ($0, editDistance(word, $0)) }.min { $0.1 < $1.1 }
        guard let (best, distance) = scored, distance <= max(2, word.count / 3), distance < word.count else {
            return nil
        }
        return best
    }

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
