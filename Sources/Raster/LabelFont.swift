import Geometry

/// The one 5 × 7 pixel font, for the few words a diagnostic picture needs (a failure sheet's
/// column names, a contact sheet's times, a curve plot's axes): letters in both cases, digits
/// and `. , : = + - × % ( ) /`. `draw(_:into:x:y:scale:color:)` sets whole pixels at an
/// integer scale, so labels are the same bytes everywhere; a character without a glyph draws
/// as a space. (The raster itself draws no text: text arrives inside snapshots.)
public enum LabelFont {
    /// A glyph's width and height in font pixels, and the advance between glyphs.
    public static let glyphWidth = 5, glyphHeight = 7, advance = 6

    /// The width in pixels of `text` at `scale`.
    public static func width(of text: String, scale: Int) -> Int {
        max(0, text.count * advance - 1) * scale
    }

    /// Draws `text` with its top-left corner at (`x`, `y`), each font pixel a `scale` ×
    /// `scale` square of `color`; what falls outside the bitmap is not drawn.
    public static func draw(
        _ text: String, into bitmap: inout Bitmap, x: Int, y: Int, scale: Int, color: PremultipliedColor
    ) {
        var left = x
        for character in text {
            if let rows = glyphs[character] {
                for (row, bits) in rows.enumerated() {
                    for column in 0..<glyphWidth where bits & (1 << (glyphWidth - 1 - column)) != 0 {
                        fill(&bitmap, x: left + column * scale, y: y + row * scale, size: scale, color: color)
                    }
                }
            }
            left += advance * scale
        }
    }

    /// Draws `text` in capitals with its top-left at (`x`, `y`) through `view`, each font pixel
    /// a `size`-pixel square, covering pixels in part where it falls between them (a plot's
    /// centred labels); a character without a glyph draws as a dash.
    public static func drawCapitals(
        _ text: String, at x: Double, _ y: Double, size: Double, color: Color, on view: BitmapView
    ) {
        var pen = x
        for character in text.uppercased() {
            let rows = glyphs[character] ?? glyphs["-"]!
            for (row, bits) in rows.enumerated() {
                for column in 0..<glyphWidth where bits & (1 << (glyphWidth - 1 - column)) != 0 {
                    view.fill(
                        .rect(
                            Rect(x: pen + Double(column) * size, y: y + Double(row) * size, width: size, height: size)),
                        color: color.premultiplied)
                }
            }
            pen += Double(advance) * size
        }
    }

    /// The width in pixels of `text` in capitals at `size` pixels per font pixel.
    public static func capitalsWidth(_ text: String, size: Double) -> Double {
        Double(text.count * advance) * size - size
    }

    static func fill(_ bitmap: inout Bitmap, x: Int, y: Int, size: Int, color: PremultipliedColor) {
        for py in max(0, y)..<min(bitmap.height, y + size) {
            for px in max(0, x)..<min(bitmap.width, x + size) { bitmap[px, py] = color }
        }
    }

    /// Each glyph's seven rows, five bits each, the leftmost pixel the highest bit.
    static let glyphs: [Character: [UInt8]] = [
        "a": [0, 0, 14, 1, 15, 17, 15], "b": [16, 16, 30, 17, 17, 17, 30], "c": [0, 0, 14, 16, 16, 17, 14],
        "d": [1, 1, 15, 17, 17, 17, 15], "e": [0, 0, 14, 17, 31, 16, 14], "f": [6, 9, 8, 28, 8, 8, 8],
        "g": [0, 15, 17, 17, 15, 1, 14], "h": [16, 16, 22, 25, 17, 17, 17], "i": [4, 0, 12, 4, 4, 4, 14],
        "j": [2, 0, 6, 2, 2, 18, 12], "k": [16, 16, 18, 20, 24, 20, 18], "l": [12, 4, 4, 4, 4, 4, 14],
        "m": [0, 0, 26, 21, 21, 17, 17], "n": [0, 0, 22, 25, 17, 17, 17], "o": [0, 0, 14, 17, 17, 17, 14],
        "p": [0, 0, 30, 17, 30, 16, 16], "q": [0, 0, 15, 17, 15, 1, 1], "r": [0, 0, 22, 25, 16, 16, 16],
        "s": [0, 0, 15, 16, 14, 1, 30], "t": [8, 8, 28, 8, 8, 9, 6], "u": [0, 0, 17, 17, 17, 19, 13],
        "v": [0, 0, 17, 17, 17, 10, 4], "w": [0, 0, 17, 17, 21, 21, 10], "x": [0, 0, 17, 10, 4, 10, 17],
        "y": [0, 0, 17, 17, 15, 1, 14], "z": [0, 0, 31, 2, 4, 8, 31],
        "0": [14, 17, 19, 21, 25, 17, 14], "1": [4, 12, 4, 4, 4, 4, 14], "2": [14, 17, 1, 2, 4, 8, 31],
        "3": [31, 2, 4, 2, 1, 17, 14], "4": [2, 6, 10, 18, 31, 2, 2], "5": [31, 16, 30, 1, 1, 17, 14],
        "6": [6, 8, 16, 30, 17, 17, 14], "7": [31, 1, 2, 4, 8, 8, 8], "8": [14, 17, 17, 14, 17, 17, 14],
        "9": [14, 17, 17, 15, 1, 2, 12],
        ".": [0, 0, 0, 0, 0, 12, 12], "-": [0, 0, 0, 31, 0, 0, 0], ":": [0, 12, 12, 0, 12, 12, 0],
        "×": [0, 17, 10, 4, 10, 17, 0], "%": [24, 25, 2, 4, 8, 19, 3],
        "A": [14, 17, 17, 31, 17, 17, 17], "B": [30, 17, 17, 30, 17, 17, 30], "C": [14, 17, 16, 16, 16, 17, 14],
        "D": [28, 18, 17, 17, 17, 18, 28], "E": [31, 16, 16, 30, 16, 16, 31], "F": [31, 16, 16, 30, 16, 16, 16],
        "G": [14, 17, 16, 23, 17, 17, 15], "H": [17, 17, 17, 31, 17, 17, 17], "I": [14, 4, 4, 4, 4, 4, 14],
        "J": [7, 2, 2, 2, 2, 18, 12], "K": [17, 18, 20, 24, 20, 18, 17], "L": [16, 16, 16, 16, 16, 16, 31],
        "M": [17, 27, 21, 21, 17, 17, 17], "N": [17, 17, 25, 21, 19, 17, 17], "O": [14, 17, 17, 17, 17, 17, 14],
        "P": [30, 17, 17, 30, 16, 16, 16], "Q": [14, 17, 17, 17, 21, 18, 13], "R": [30, 17, 17, 30, 20, 18, 17],
        "S": [15, 16, 16, 14, 1, 1, 30], "T": [31, 4, 4, 4, 4, 4, 4], "U": [17, 17, 17, 17, 17, 17, 14],
        "V": [17, 17, 17, 17, 17, 10, 4], "W": [17, 17, 17, 21, 21, 21, 10], "X": [17, 17, 10, 4, 10, 17, 17],
        "Y": [17, 17, 17, 10, 4, 4, 4], "Z": [31, 1, 2, 4, 8, 16, 31], ",": [0, 0, 0, 0, 12, 4, 8],
        "=": [0, 0, 31, 0, 31, 0, 0], "+": [0, 4, 4, 31, 4, 4, 0], "(": [2, 4, 8, 8, 8, 4, 2],
        ")": [8, 4, 2, 2, 2, 4, 8], "/": [0, 1, 2, 4, 8, 16, 0], " ": [0, 0, 0, 0, 0, 0, 0],
    ]
}
