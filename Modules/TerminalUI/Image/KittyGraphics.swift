import Foundation

/// The kitty graphics protocol, as far as a cell-based app needs it: transmit an image once,
/// give it a virtual placement, and show it with Unicode placeholder cells that scroll, diff
/// and redraw like any other text.
///
/// Every command is an APC escape, `ESC _ G <control data> ; <payload> ESC \`. The image is
/// sent as 24-bit RGB (`f=24`), base64 in chunks of at most 4096 bytes (`m=1` on every chunk
/// but the last, `m=0`), quietly (`q=2`: the terminal sends no replies). A virtual placement
/// (`a=p,U=1`) says how many columns and rows the image fills; the image then appears wherever
/// cells hold the placeholder character U+10EEEE with the image id in their 24-bit foreground
/// color and two combining marks giving the cell's row and column within the image.
///
/// Pure functions; ``KittyImageRegistry`` decides what to send when.
///
/// ```swift
/// terminal.write(KittyGraphics.transmit(image, id: 42) + KittyGraphics.virtualPlacement(id: 42, columns: 20, rows: 5))
/// let lines = KittyGraphics.placeholderLines(id: 42, columns: 20, rows: 5)  // draw these like text
/// ```
public enum KittyGraphics {
    /// The placeholder character, U+10EEEE (private use; one column wide).
    public static let placeholder: Unicode.Scalar = "\u{10EEEE}"

    /// The most columns or rows a placement can span: the number of row/column marks.
    public static var maximumSpan: Int { KittyDiacritics.scalars.count }

    /// The most base64 bytes one transmission command carries.
    public static let chunkSize = 4096

    /// The id ``Terminal/supportsKittyGraphics(timeout:)`` queries with (a query stores nothing).
    public static let probeID: UInt32 = 0x4B_4954

    /// The largest image id a placeholder's 24-bit foreground color can carry.
    public static let maximumImageID: UInt32 = 0xFF_FFFF

    /// The commands that send `image` as image `id` (stored, not shown): its RGB bytes in
    /// base64, in chunks of at most ``chunkSize`` bytes. O(pixels).
    public static func transmit(_ image: RGBImage, id: UInt32) -> String {
        let payload = Data(image.rgb).base64EncodedString()
        var output = ""
        var start = payload.startIndex
        var first = true
        repeat {
            let end =
                payload.index(start, offsetBy: chunkSize, limitedBy: payload.endIndex) ?? payload.endIndex
            let more = end < payload.endIndex ? 1 : 0
            let control =
                first ? "a=t,f=24,s=\(image.width),v=\(image.height),i=\(id),q=2,m=\(more)" : "m=\(more)"
            output += "\u{1B}_G\(control);\(payload[start..<end])\u{1B}\\"
            start = end
            first = false
        } while start < payload.endIndex
        return output
    }

    /// The command that gives image `id` a virtual placement `columns` wide and `rows` tall:
    /// the image is fit into that many cells, its aspect ratio kept, wherever placeholder cells
    /// for it appear. The cursor does not move (`C=1`).
    public static func virtualPlacement(id: UInt32, columns: Int, rows: Int) -> String {
        "\u{1B}_Ga=p,U=1,i=\(id),c=\(columns),r=\(rows),C=1,q=2\u{1B}\\"
    }

    /// The command that deletes image `id`: its placements and its stored pixels (`d=I`).
    public static func delete(id: UInt32) -> String {
        "\u{1B}_Ga=d,d=I,i=\(id),q=2\u{1B}\\"
    }

    /// The support query: a 1×1 RGB image sent with the query action (`a=q`: checked, never
    /// stored) as image `id`, followed by the primary device attributes request (`ESC [ c`).
    /// A terminal that speaks the protocol answers `ESC _ G i=<id>;OK ESC \` before its device
    /// attributes; one that does not answers only the device attributes.
    public static func supportQuery(id: UInt32) -> String {
        "\u{1B}_Gi=\(id),s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\\u{1B}[c"
    }

    /// The placeholder cell for `row` and `column` of an image: U+10EEEE, the row's mark, the
    /// column's mark. One grapheme, one column wide. Both must be below ``maximumSpan``.
    public static func placeholderCell(row: Int, column: Int) -> Character {
        var scalars = String.UnicodeScalarView()
        scalars.append(placeholder)
        scalars.append(diacritic(row))
        scalars.append(diacritic(column))
        return Character(String(scalars))
    }

    /// The foreground color that names image `id` (below 2^24) in a placeholder cell.
    public static func color(forImageID id: UInt32) -> RGBColor {
        RGBColor(red: UInt8((id >> 16) & 0xFF), green: UInt8((id >> 8) & 0xFF), blue: UInt8(id & 0xFF))
    }

    /// The lines of placeholder cells that show image `id` in a `columns` × `rows` placement,
    /// each cell carrying its own row and column (so any single cell can be redrawn alone).
    /// O(columns × rows).
    public static func placeholderLines(id: UInt32, columns: Int, rows: Int) -> [StyledLine] {
        let style = Style(foreground: color(forImageID: id))
        let columns = min(max(columns, 1), maximumSpan)
        let rows = min(max(rows, 1), maximumSpan)
        return (0..<rows).map { row in
            StyledLine(String((0..<columns).map { placeholderCell(row: row, column: $0) }), style: style)
        }
    }

    /// Whether `character` is a placeholder cell (starts with U+10EEEE).
    @inlinable
    public static func isPlaceholder(_ character: Character) -> Bool {
        character.unicodeScalars.first?.value == 0x10EEEE
    }

    private static func diacritic(_ number: Int) -> Unicode.Scalar {
        let table = KittyDiacritics.scalars
        // Every entry is a valid scalar; the fallback is the mark for 0.
        return Unicode.Scalar(table[min(max(number, 0), table.count - 1)]) ?? "\u{305}"
    }
}
