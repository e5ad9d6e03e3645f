/// One of N shares of a manifest's outputs, `--shard I/N`: N machines each build their own
/// with no coordinator, every output in exactly one share, the shares balanced by estimated
/// render cost rather than by count.
public struct Shard: Sendable, Equatable, CustomStringConvertible {
    /// 1...count.
    public let index: Int
    public let count: Int

    public init(index: Int, count: Int) throws {
        guard count >= 1, (1...count).contains(index) else { throw BuildError.shard("\(index)/\(count)") }
        self.index = index
        self.count = count
    }

    /// What a shard's text must be.
    public static let expected = "expected I/N, a shard I of N with 1 <= I <= N (e.g. 1/4)"

    /// Reads `I/N`.
    public init(parsing text: String) throws {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), n >= 1, n <= 10_000, (1...n).contains(i)
        else { throw BuildError.shard(text) }
        try self.init(index: i, count: n)
    }

    public var description: String { "\(index)/\(count)" }

    /// Which share (0-based) each output goes to: the costliest first, each to the share with
    /// the least cost so far (ties to the lower share; equal costs in `ids` order). It depends
    /// only on the outputs, never on which are stale, so every machine computes the same split.
    public static func assign(costs: [Double], ids: [String], count: Int) -> [Int] {
        let order = costs.indices.sorted { a, b in
            costs[a] != costs[b] ? costs[a] > costs[b] : ids[a] < ids[b]
        }
        var totals = [Double](repeating: 0, count: count)
        var share = [Int](repeating: 0, count: costs.count)
        for i in order {
            let least = totals.indices.min { totals[$0] < totals[$1] }!
            share[i] = least
            totals[least] += costs[i]
        }
        return share
    }
}

extension BuildPlan {
    /// The items in `shard`.
    public func items(in shard: Shard) -> [Item] {
        let shares = Shard.assign(costs: items.map(\.cost), ids: items.map(\.output.path), count: shard.count)
        return items.indices.filter { shares[$0] == shard.index - 1 }.map { items[$0] }
    }

    /// The items picked by `names` (an entry's `name`, or an output's path, exactly or as a
    /// glob with `*`); every item when `names` is empty. A name that picks nothing is an error.
    public func items(named names: [String]) throws -> [Item] {
        guard !names.isEmpty else { return items }
        var picked = Set<String>()
        for name in names {
            let matches = items.filter {
                $0.output.name == name || $0.output.path == name || glob(name, $0.output.path)
            }
            guard !matches.isEmpty else {
                let known = Array(Set(items.compactMap(\.output.name))).sorted() + items.map(\.output.path)
                throw BuildError.unknownName(name, known: known)
            }
            picked.formUnion(matches.map(\.output.path))
        }
        return items.filter { picked.contains($0.output.path) }
    }
}

/// Whether `text` matches `pattern`, where `*` stands for any run of characters and `?` one.
func glob(_ pattern: String, _ text: String) -> Bool {
    guard pattern.contains("*") || pattern.contains("?") else { return false }
    let p = Array(pattern), t = Array(text)
    var memo = [[Bool?]](repeating: [Bool?](repeating: nil, count: t.count + 1), count: p.count + 1)
    func match(_ i: Int, _ j: Int) -> Bool {
        if let known = memo[i][j] { return known }
        let result: Bool
        if i == p.count {
            result = j == t.count
        } else if p[i] == "*" {
            result = match(i + 1, j) || (j < t.count && match(i, j + 1))
        } else {
            result = j < t.count && (p[i] == "?" || p[i] == t[j]) && match(i + 1, j + 1)
        }
        memo[i][j] = result
        return result
    }
    return match(0, 0)
}
