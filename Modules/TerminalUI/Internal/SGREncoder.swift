/// Select Graphic Rendition sequences: the shortest way from one pen to another.
enum SGREncoder {
    /// The sequence that turns pen `from` (nil: unknown) into `to`; empty when they match.
    ///
    /// Compares an incremental form (only what changed, using the per-attribute "off" codes)
    /// with a reset form (`0` and everything `to` sets) and returns the shorter. O(1).
    static func transition(from: ResolvedStyle?, to: ResolvedStyle) -> String {
        if let from, from == to { return "" }
        let full = parameters(of: to)
        let resetForm = "\u{1B}[" + (["0"] + full).joined(separator: ";") + "m"
        guard let from else { return resetForm }
        var changes: [String] = []
        if (from.isBold && !to.isBold) || (from.isDim && !to.isDim) {
            // 22 turns off both bold and dim.
            changes.append("22")
            if to.isBold { changes.append("1") }
            if to.isDim { changes.append("2") }
        } else {
            if to.isBold && !from.isBold { changes.append("1") }
            if to.isDim && !from.isDim { changes.append("2") }
        }
        if from.isItalic != to.isItalic { changes.append(to.isItalic ? "3" : "23") }
        if from.isUnderlined != to.isUnderlined { changes.append(to.isUnderlined ? "4" : "24") }
        if from.isInverse != to.isInverse { changes.append(to.isInverse ? "7" : "27") }
        if from.foreground != to.foreground { changes.append(color(to.foreground, base: 38, reset: "39")) }
        if from.background != to.background { changes.append(color(to.background, base: 48, reset: "49")) }
        let incremental = "\u{1B}[" + changes.joined(separator: ";") + "m"
        return incremental.utf8.count <= resetForm.utf8.count ? incremental : resetForm
    }

    /// Every parameter needed to set `style` from a reset pen.
    static func parameters(of style: ResolvedStyle) -> [String] {
        var codes: [String] = []
        if style.isBold { codes.append("1") }
        if style.isDim { codes.append("2") }
        if style.isItalic { codes.append("3") }
        if style.isUnderlined { codes.append("4") }
        if style.isInverse { codes.append("7") }
        if let foreground = style.foreground { codes.append(color(foreground, base: 38, reset: "39")) }
        if let background = style.background { codes.append(color(background, base: 48, reset: "49")) }
        return codes
    }

    private static func color(_ color: TerminalColor?, base: Int, reset: String) -> String {
        switch color {
        case .none: reset
        case .rgb(let rgb): "\(base);2;\(rgb.red);\(rgb.green);\(rgb.blue)"
        case .indexed(let index): "\(base);5;\(index)"
        }
    }
}
