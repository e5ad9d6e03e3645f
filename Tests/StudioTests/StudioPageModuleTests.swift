import Foundation
import Testing

@testable import Studio

/// The page's modules are layered: each imports only modules below it, none imports the entry,
/// and every one is served.
@Suite("The studio page's modules: imports point down only")
struct StudioPageModuleTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Assets/studio").path

    /// Each module's imports (`import … from "./NAME.js"`), by module.
    static func imports(in folder: String) throws -> [String: [String]] {
        var graph: [String: [String]] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) where name.hasSuffix(".js") {
            let text = try String(contentsOfFile: folder + "/" + name, encoding: .utf8)
            graph[name] = text.split(separator: "\n").compactMap { line -> String? in
                guard line.hasPrefix("import ") || line.hasPrefix("} from ") else { return nil }
                guard let from = line.range(of: "from \"./") else { return nil }
                return String(line[from.upperBound...].prefix { $0 != "\"" })
            }
        }
        return graph
    }

    /// A cycle of `graph`, as the modules along it, or nil.
    static func cycle(in graph: [String: [String]]) -> [String]? {
        var done: Set<String> = [], path: [String] = []
        func visit(_ module: String) -> [String]? {
            if let at = path.firstIndex(of: module) { return Array(path[at...]) + [module] }
            guard !done.contains(module) else { return nil }
            path.append(module)
            for next in graph[module] ?? [] { if let found = visit(next) { return found } }
            path.removeLast()
            done.insert(module)
            return nil
        }
        for module in graph.keys.sorted() { if let found = visit(module) { return found } }
        return nil
    }

    @Test("No module imports in a cycle or imports the entry, and every module imported is served")
    func layered() throws {
        let graph = try Self.imports(in: Self.folder)
        #expect(graph.count >= 12 && graph["studio.js"]?.count ?? 0 >= 10)
        let found = Self.cycle(in: graph)
        #expect(found == nil, "a cycle: \(found?.joined(separator: " → ") ?? "")")
        #expect(graph.filter { $0.value.contains("studio.js") }.isEmpty)
        let served = Set(StudioPage.Part.allCases.map(\.rawValue))
        #expect(Set(graph.keys).isSubset(of: served), "\(Set(graph.keys).subtracting(served))")
        #expect(graph["api.js"] == [] && graph["state.js"] == [])
    }

    @Test("The page holds no curve names or grammar: the server sends the presets and each handle's edit")
    func noCurveGrammar() throws {
        for name in try FileManager.default.contentsOfDirectory(atPath: Self.folder) where name.hasSuffix(".js") {
            let text = try String(contentsOfFile: Self.folder + "/" + name, encoding: .utf8)
            for word in [
                "easeIn", "easeOut", "linear\"", "bezier:", "response:", "caspring", "dampingRatio", "\"spring\"",
            ] {
                #expect(!text.contains(word), "\(name) spells \(word)")
            }
        }
    }

    @Test("The check finds a cycle: a module that imports one that imports it back")
    func findsACycle() {
        let graph = ["a.js": ["b.js"], "b.js": ["c.js"], "c.js": ["a.js"], "d.js": []]
        #expect(Self.cycle(in: graph) == ["a.js", "b.js", "c.js", "a.js"])
        #expect(Self.cycle(in: ["a.js": ["b.js"], "b.js": []]) == nil)
    }
}
