import Foundation
import Geometry
import Raster

/// A grid of frames, each labelled (with its time, or what it shows): for looking at a whole render at once.
public struct ContactSheet: Sendable {
    public let columns: Int
    public let cellWidth: Int
    private(set) var cells: [(Bitmap, String)] = []

    public init(columns: Int = 8, cellWidth: Int = 150) {
        self.columns = columns
        self.cellWidth = cellWidth
    }

    /// Keeps a small copy of `frame` (mip-filtered, so text does not alias), labelled with its time.
    public mutating func add(_ frame: Bitmap, at t: Double) { add(frame, label: String(format: "%.2fS", t)) }

    /// Keeps a small copy of `frame`, with `label` (in capitals) above it.
    public mutating func add(_ frame: Bitmap, label: String) {
        let h = Int((Double(frame.height) * Double(cellWidth) / Double(frame.width)).rounded())
        var small = Bitmap(width: cellWidth, height: h, fill: Color.white.premultiplied)
        let texture = Texture(frame)
        small.withView {
            $0.draw(texture, from: texture.bounds, to: Rect(x: 0, y: 0, width: Double(cellWidth), height: Double(h)))
        }
        cells.append((small, label))
    }

    public func render() -> Bitmap {
        let labelRow = 22, gap = 8
        let cellHeight = (cells.first?.0.height ?? 0) + labelRow
        let rows = (cells.count + columns - 1) / columns
        let width = gap + columns * (cellWidth + gap), height = gap + rows * (cellHeight + gap)
        var sheet = Bitmap(width: width, height: height, fill: Color(rgb: 0xE5E5EA).premultiplied)
        sheet.withView { view in
            for (i, (frame, label)) in cells.enumerated() {
                let x = gap + (i % columns) * (cellWidth + gap), y = gap + (i / columns) * (cellHeight + gap)
                LabelFont.drawCapitals(
                    label, at: Double(x + 2), Double(y + 4), size: 2, color: Color(rgb: 0x1C1C1E),
                    on: view)
                view.draw(
                    Texture(frame), from: Rect(x: 0, y: 0, width: Double(frame.width), height: Double(frame.height)),
                    to: Rect(
                        x: Double(x), y: Double(y + labelRow), width: Double(frame.width), height: Double(frame.height))
                )
            }
        }
        return sheet
    }
}
