import TerminalUI

/// A frame as text that keeps its colors and attributes, for styled golden frames: the plain
/// lines exactly as `HeadlessRenderer` gives them, then a style section a reviewer can read in a
/// diff.
///
/// ```
/// ◈ Prism · Home                                   @ada
/// ...
/// --- style ---
/// colors: accent #B06CFF · text #F2EEE8 · secondary #9A948C
/// row 0: 0-6 fg=accent bold; 76-79 fg=secondary
/// row 3: 0 fg=accent; 2-23 art:1c9e03aa
/// ```
///
/// - `colors:` lists each named color the frame uses, once, with its value; runs name colors by
///   role (from `names`), and by value (`#RRGGBB`) when no role has that value. Two roles with
///   one value are named together (`text/strong`).
/// - `row N:` lists the row's runs left to right: inclusive display columns, then `fg=` and
///   `bg=` and the attributes (`bold`, `dim`, `italic`, `underline`, `inverse`). Adjacent cells
///   of one look make one run; a wide grapheme's two columns are one cell's. Rows with nothing
///   styled are left out.
/// - A blank that shows nothing of its style (no background, not inverse, not underlined) counts
///   as unstyled, so padding never adds noise, and it never splits a run: `0-12 fg=secondary`
///   covers the words of a hint and the spaces between them.
/// - Photo art (block elements U+2580...U+259F drawn in colors no role has) is one `art:` run per
///   stretch, with a digest of its colors, so a picture stays one short token yet any change of
///   its colors shows.
///
/// Complexity: O(width × height).
public enum StyledFrameText {
    /// The line between the plain text and the style section.
    public static let separator = "--- style ---"

    /// The frame `buffer` in the styled notation, naming colors by `names` (color → role).
    public static func render(_ buffer: ScreenBuffer, names: [(role: String, color: RGBColor)] = []) -> String
    {
        let naming = Naming(names)
        var rows: [String] = []
        var used: [RGBColor] = []
        for y in 0..<buffer.height {
            let runs = self.runs(of: buffer.line(y), naming: naming)
            guard !runs.isEmpty else { continue }
            for run in runs {
                for color in run.namedColors where naming.name(of: color) != nil && !used.contains(color) {
                    used.append(color)
                }
            }
            rows.append("row \(y): " + runs.map { $0.text(naming) }.joined(separator: "; "))
        }
        var lines = HeadlessRenderer.lines(of: buffer)
        lines.append(separator)
        let legend = naming.legend(for: used)
        lines.append("colors: " + (legend.isEmpty ? "(none named)" : legend))
        lines += rows
        return lines.joined(separator: "\n")
    }

    /// One run of cells of one look.
    struct Run {
        var start: Int
        var end: Int
        var look: Look

        var namedColors: [RGBColor] {
            switch look {
            case .styled(let style): [style.foreground, style.background].compactMap { $0 }
            case .art: []
            }
        }

        func text(_ naming: Naming) -> String {
            let columns = start == end ? "\(start)" : "\(start)-\(end)"
            switch look {
            case .styled(let style): return columns + " " + naming.describe(style)
            case .art(let digest): return columns + " art:" + hex(digest)
            }
        }
    }

    /// How a run looks: a style, or a stretch of photo art (with the digest of its colors).
    enum Look: Equatable {
        case styled(Style)
        case art(UInt32)
    }

    static func runs(of line: ArraySlice<Cell>, naming: Naming) -> [Run] {
        var runs: [Run] = []
        var column = 0
        for cell in line {
            defer { column += 1 }
            if cell.isContinuation, let last = runs.last, last.end == column - 1 {
                runs[runs.count - 1].end = column
                continue
            }
            guard let look = look(of: cell, naming: naming) else { continue }
            if let last = runs.last {
                switch (last.look, look) {
                case (.styled(let a), .styled(let b)) where a == b:
                    // Blanks between (which show nothing) never split a run.
                    runs[runs.count - 1].end = column
                    continue
                case (.art(let digest), .art(let cellDigest)) where last.end == column - 1:
                    runs[runs.count - 1].end = column
                    runs[runs.count - 1].look = .art(fnv(digest, cellDigest))
                    continue
                default: break
                }
            }
            runs.append(Run(start: column, end: column, look: look))
        }
        return runs
    }

    /// A cell's look, or nil when it shows nothing of a style.
    static func look(of cell: Cell, naming: Naming) -> Look? {
        let style = cell.style
        if cell.character == " " && style.background == nil && !style.isInverse && !style.isUnderlined {
            return nil
        }
        if style == .plain { return nil }
        if isBlockElement(cell.character), naming.isArt(style.foreground) || naming.isArt(style.background) {
            return .art(fnv(fnv(2_166_136_261, style.foreground), style.background))
        }
        return .styled(style)
    }

    static func isBlockElement(_ character: Character) -> Bool {
        guard let scalar = character.unicodeScalars.first, character.unicodeScalars.count == 1 else {
            return false
        }
        return (0x2580...0x259F).contains(scalar.value)
    }

    static func fnv(_ hash: UInt32, _ color: RGBColor?) -> UInt32 {
        guard let color else { return fnv(hash, UInt32(0xFF00_0000)) }
        return fnv(hash, UInt32(color.red) << 16 | UInt32(color.green) << 8 | UInt32(color.blue))
    }

    static func fnv(_ hash: UInt32, _ value: UInt32) -> UInt32 {
        var hash = hash
        for shift in stride(from: 24, through: 0, by: -8) {
            hash = (hash ^ UInt32(truncatingIfNeeded: value >> UInt32(shift))) &* 16_777_619
        }
        return hash
    }

    static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }

    /// Color names: each color's roles, in the order given.
    struct Naming {
        var names: [RGBColor: String] = [:]

        init(_ roles: [(role: String, color: RGBColor)]) {
            for (role, color) in roles {
                if let existing = names[color] {
                    if !existing.split(separator: "/").contains(Substring(role)) {
                        names[color] = existing + "/" + role
                    }
                } else {
                    names[color] = role
                }
            }
        }

        func name(of color: RGBColor) -> String? { names[color] }

        /// Whether `color` is one no role has (photo art's colors).
        func isArt(_ color: RGBColor?) -> Bool {
            guard let color else { return false }
            return names[color] == nil
        }

        func describe(_ color: RGBColor) -> String { names[color] ?? color.description }

        func describe(_ style: Style) -> String {
            var parts: [String] = []
            if let foreground = style.foreground { parts.append("fg=" + describe(foreground)) }
            if let background = style.background { parts.append("bg=" + describe(background)) }
            if style.isBold { parts.append("bold") }
            if style.isDim { parts.append("dim") }
            if style.isItalic { parts.append("italic") }
            if style.isUnderlined { parts.append("underline") }
            if style.isInverse { parts.append("inverse") }
            return parts.joined(separator: " ")
        }

        func legend(for colors: [RGBColor]) -> String {
            colors.compactMap { color in names[color].map { "\($0) \(color)" } }.sorted().joined(
                separator: " · ")
        }
    }
}
