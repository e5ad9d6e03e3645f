import Scenes
import Flipbook
import Foundation
import Glibc
import Studio
import Testing
import TestSupport

/// The studio on a built-in: the installation is read, never written.
@Suite("Studio: a built-in is saved as a copy where the user is")
struct StudioBuiltInTests {
    @Test(
        "An edit saved on a built-in writes its copy, file and images, leaves the installed file as it was, and goes on with the copy"
    )
    func saveWritesACopy() throws {
        let installed = SceneCatalog.path(of: "expanding-cells")
        let before = try Data(contentsOf: URL(fileURLWithPath: installed))
        let folder = temporaryFolder() + "/mine"
        let session = try StudioSession(options: StudioOptions(scene: "expanding-cells", copyFolder: folder))
        #expect(session.savesTo == folder + "/expanding-cells.yaml")
        #expect(!FileManager.default.fileExists(atPath: folder), "nothing is written before a save")
        #expect(session.edit(["present.duration": "0.9"]) == nil)
        try session.save()
        #expect(try Data(contentsOf: URL(fileURLWithPath: installed)) == before)
        let copy = try String(contentsOfFile: folder + "/expanding-cells.yaml", encoding: .utf8)
        #expect(copy.contains("duration: 0.9"))
        #expect(session.scene == folder + "/expanding-cells.yaml" && session.valueFile.path == session.scene)
        let images = try Transition(session.scene).imageFiles.map(\.path)
        #expect(!images.isEmpty && images.allSatisfy { $0.hasPrefix(folder + "/") })
        // The next save writes the copy again, and only it.
        #expect(session.edit(["present.dampingRatio": "0.8"]) == nil)
        try session.save()
        #expect(try Data(contentsOf: URL(fileURLWithPath: installed)) == before)
        #expect(try String(contentsOfFile: session.scene, encoding: .utf8).contains("dampingRatio: 0.8"))
    }

    @Test("A copy folder holding another version of the file is not written over: the save says so")
    func copyInTheWay() throws {
        let folder = temporaryFolder()
        try Data("version: 1\n".utf8).write(to: URL(fileURLWithPath: folder + "/expanding-cells.yaml"))
        let session = try StudioSession(options: StudioOptions(scene: "expanding-cells", copyFolder: folder))
        #expect(session.edit(["present.duration": "0.9"]) == nil)
        #expect(throws: (any Error).self) { try session.save() }
        #expect(try String(contentsOfFile: folder + "/expanding-cells.yaml", encoding: .utf8) == "version: 1\n")
    }

    @Test("A read-only scene file is not saved over, though its folder is writable")
    func readOnlyScene() throws {
        let folder = temporaryFolder()
        try FileManager.default.copyItem(atPath: Transition.assetsFolder + "/expanding-cells", toPath: folder + "/ec")
        let scene = folder + "/ec/expanding-cells.yaml"
        chmod(scene, 0o444)
        let before = try Data(contentsOf: URL(fileURLWithPath: scene))
        let session = try StudioSession(options: StudioOptions(scene: scene))
        #expect(session.edit(["present.duration": "0.9"]) == nil)
        #expect(throws: (any Error).self) { try session.save() }
        #expect(try Data(contentsOf: URL(fileURLWithPath: scene)) == before)
    }
}
