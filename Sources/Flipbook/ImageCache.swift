import Codecs
import Foundation
import Raster
import Synchronization

/// Decoded snapshots kept between loads of a transition, so that a transition rebuilt with
/// other values (a live preview, a fit) decodes each PNG once. An entry is used again only
/// while its file's size and modification time are the same; an edited image is read anew.
public final class ImageCache: Sendable {
    private struct Entry {
        var size: Int
        var modified: Date
        var bitmap: Bitmap
    }

    private let entries = Mutex<[String: Entry]>([:])

    public init() {}

    /// The bitmap of the PNG at `path`, decoded now or earlier if the file has not changed.
    func bitmap(at path: String, maximumPixels: Int) throws -> Bitmap {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        let size = attributes?[.size] as? Int
        let modified = attributes?[.modificationDate] as? Date
        if let size, let modified,
            let entry = entries.withLock({ $0[path] }), entry.size == size, entry.modified == modified,
            entry.bitmap.width * entry.bitmap.height <= maximumPixels
        {
            return entry.bitmap
        }
        let bitmap = try PNGCodec.read(path: path, maximumPixels: maximumPixels)
        if let size, let modified {
            entries.withLock { $0[path] = Entry(size: size, modified: modified, bitmap: bitmap) }
        }
        return bitmap
    }

    /// How many decoded images it holds.
    public var count: Int { entries.withLock { $0.count } }

    /// Forgets every image not among `paths` (the images a transition uses now).
    public func keep(only paths: Set<String>) {
        entries.withLock { $0 = $0.filter { paths.contains($0.key) } }
    }
}
