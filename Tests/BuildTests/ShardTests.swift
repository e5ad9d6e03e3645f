import Scenes
import TestSupport
import Testing

@testable import Build

@Suite("Shards")
struct ShardTests {
    @Test func parses() throws {
        #expect(try Shard(parsing: "2/4") == Shard(index: 2, count: 4))
        for bad in ["0/4", "5/4", "1/0", "a/b", "1", "1/2/3", "-1/2", ""] {
            #expect(throws: BuildError.shard(bad)) { try Shard(parsing: bad) }
        }
    }

    /// Every output in exactly one share, the same split from any order of computing it, and
    /// shares balanced by cost: the costliest within 1.3x of the cheapest on a realistic mix.
    @Test func splitsByCost() {
        var random = SeededRandom(seed: 3)
        let costs = (0..<100).map { _ in Double.random(in: 1...60, using: &random) }
        let ids = costs.indices.map { "out/\($0).gif" }
        let shares = Shard.assign(costs: costs, ids: ids, count: 4)
        #expect(Set(shares) == [0, 1, 2, 3])
        let totals = (0..<4).map { s in costs.indices.filter { shares[$0] == s }.map { costs[$0] }.reduce(0, +) }
        #expect(totals.max()! / totals.min()! < 1.05)
        #expect(Shard.assign(costs: costs, ids: ids, count: 4) == shares)
    }

    @Test func globs() {
        #expect(glob("out/*-dark.gif", "out/a-dark.gif"))
        #expect(!glob("out/*-dark.gif", "out/a-light.gif"))
        #expect(glob("out/?.gif", "out/a.gif"))
        #expect(!glob("out/a.gif", "out/a.gif"))  // an exact path is matched as a path, not a glob
    }

    @Test func editDistances() {
        #expect(Suggestion.editDistance("kitten", "sitting") == 3)
        #expect(Suggestion.closest(to: "qualty", in: ManifestFormat.keys.map(\.name)) == "quality")
        #expect(Suggestion.closest(to: "zzzzzz", in: ["quality", "fps"]) == nil)
    }
}
