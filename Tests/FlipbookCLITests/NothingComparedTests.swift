import Codecs
import Foundation
import Geometry
import Raster
import Testing

@Suite("compare never calls nothing a MATCH")
struct NothingComparedTests {
    /// A still (one-frame) WebP of one colour, as Flipbook writes one for a storyboard that holds.
    func still(_ colour: Color, size: Int, to path: String) throws {
        let encoder = try WebPEncoder(path: path, width: size, height: size)
        try encoder.add(Bitmap(width: size, height: size, fill: colour.premultiplied), at: 0)
        _ = try encoder.finish(at: 2)
    }

    @Test("Two still WebPs of other colours and sizes are DIFFERENT; the same one is a MATCH of one moment")
    func stillWebPs() throws {
        let folder = temporaryFolder()
        let red = folder + "/red.webp", blue = folder + "/blue.webp"
        try still(Color(r: 255, g: 0, b: 0), size: 8, to: red)
        try still(Color(r: 0, g: 0, b: 255), size: 12, to: blue)
        let different = try Tool.run(["compare", red, blue])
        #expect(different.status == 1, "\(different.stdout)\(different.stderr)")
        #expect(different.stdout.contains("1 moments compared, 1 differ") && different.stdout.contains("DIFFERENT"))
        let same = try Tool.run(["compare", red, red])
        #expect(same.status == 0 && same.stdout.contains("1 moments compared, 0 differ"))
    }

}
