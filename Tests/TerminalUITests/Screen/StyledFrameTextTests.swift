import TerminalUI
import TerminalUITesting
import Testing

@Suite struct StyledFrameTextTests {
    let accent = RGBColor(hex: 0xB06CFF)
    let grey = RGBColor(hex: 0x9A948C)

    @Test func render_keepsThePlainLines_thenListsRunsByRole() {
        // Given a title in the accent, bold, and a handle in grey at the right
        var buffer = ScreenBuffer(width: 12, height: 3)
        buffer.put("Home", style: Style(foreground: accent).bold(), x: 0, y: 0)
        buffer.put("@ada", style: Style(foreground: grey), x: 8, y: 0)
        buffer.put("plain", x: 0, y: 2)

        let text = StyledFrameText.render(buffer, names: [("accent", accent), ("secondary", grey)])

        #expect(
            text == """
                Home    @ada

                plain
                --- style ---
                colors: accent #B06CFF · secondary #9A948C
                row 0: 0-3 fg=accent bold; 8-11 fg=secondary
                """)
    }

    @Test func render_namesUnknownColorsByValue_andJoinsRolesThatShareOne() {
        var buffer = ScreenBuffer(width: 6, height: 1)
        buffer.put("ab", style: Style(foreground: RGBColor(hex: 0x102030)), x: 0, y: 0)
        buffer.put("cd", style: Style(background: accent).underlined(), x: 2, y: 0)

        let text = StyledFrameText.render(buffer, names: [("accent", accent), ("link", accent)])

        #expect(
            text.hasSuffix("colors: accent/link #B06CFF\nrow 0: 0-1 fg=#102030; 2-3 bg=accent/link underline")
        )
    }

    @Test func render_countsAWideGraphemeAsTwoColumnsOfOneRun_andBlanksThatShowNothingSplitNoRun() {
        var buffer = ScreenBuffer(width: 10, height: 1)
        buffer.put("漢字 x", style: Style(foreground: accent), x: 1, y: 0)
        // Padding in a color shows nothing; a background does.
        buffer.put("  ", style: Style(foreground: grey), x: 7, y: 0)
        buffer.put(" ", style: Style(background: grey), x: 9, y: 0)

        let text = StyledFrameText.render(buffer, names: [("accent", accent), ("secondary", grey)])

        #expect(text.hasSuffix("row 0: 1-6 fg=accent; 9 bg=secondary"))
    }

    @Test func render_foldsPhotoArtIntoOneRunWhoseDigestFollowsItsColors() {
        func frame(bottom: UInt32) -> String {
            var buffer = ScreenBuffer(width: 6, height: 1)
            buffer.put("▌", style: Style(foreground: accent), x: 0, y: 0)
            for x in 1...4 {
                let style = Style(
                    foreground: RGBColor(hex: 0x112233 * UInt32(x)), background: RGBColor(hex: bottom))
                buffer.put("▀", style: style, x: x, y: 0)
            }
            return StyledFrameText.render(buffer, names: [("accent", accent)])
        }

        let one = frame(bottom: 0x000000)
        let other = frame(bottom: 0x000001)

        let row = one.split(separator: "\n").last
        #expect(row?.hasPrefix("row 0: 0 fg=accent; 1-4 art:") == true, "\(one)")
        #expect(one != other, "a changed pixel changes the digest")
    }

    @Test func render_ofAnUnstyledFrame_saysNoColorIsNamed() {
        var buffer = ScreenBuffer(width: 4, height: 1)
        buffer.put("hi", x: 0, y: 0)
        #expect(StyledFrameText.render(buffer) == "hi\n--- style ---\ncolors: (none named)")
    }
}
