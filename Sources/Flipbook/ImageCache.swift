import Codecs
import Foundation
import Raster
import Synchronization

/// Decoded snapshots kept between loads of a transition, so that a transition rebuilt with
/// other values (a live preview, a fit) decodes each PNG and builds its texture once. An entry
/// is used again only while its file's size and modification time are the same; an edited
/// image is read anew.
public final class ImageCache: Sendable {
    private struct Entry {
        var size: Int
        var modified: Date
        var texture: Texture
    }

    private let entries = Mutex<[String: Entry]>([:])

    public init() {}

    /// The texture of the PNG at `path`, decoded now or earlier if the file has not changed.
    func texture(at path: String, maximumPixels: Int) throws -> Texture {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        let size = attributes?[.size] as? Int
        let modified = attributes?[.modificationDate] as? Date
        if let size, let modified,
            let entry = entries.withLock({ $0[path] }), entry.size == size, entry.modified == modified,
            entry.texture.width * entry.texture.height <= maximumPixels
        {
            return entry.texture
        }
        let texture = Texture(try PNGCodec.read(path: path, maximumPixels: maximumPixels))
        if let size, let modified {
            entries.withLock { $0[path] = Entry(size: size, modified: modified, texture: texture) }
        }
        return texture
    }

    /// How many decoded images it holds.
    public var count: Int { entries.withLock { $0.count } }

    /// Forgets every image not among `paths` (the images a transition uses now).
    public func keep(only paths: Set<String>) {
        entries.withLock { $0 = $0.filter { paths.contains($0.key) } }
    }
}
