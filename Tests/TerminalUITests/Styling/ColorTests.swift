import Basics
import TerminalUI
import Testing

@Suite struct ColorTests {
    @Test(arguments: [
        (0x000000, 16), (0xFFFFFF, 231), (0xFF0000, 196), (0x00FF00, 46), (0x0000FF, 21),
        (0x808080, 244),  // exact gray ramp step (128)
        (0x080808, 232), (0xEEEEEE, 255),  // ramp ends
        (0x5F87AF, 67),  // exact cube color (95, 135, 175)
        (0xFF8700, 208), (0x767676, 243), (0x303030, 236), (0x123456, 23),
    ])
    func xterm256Index_isTheNearestPaletteColor(hex: UInt32, expected: UInt8) {
        #expect(RGBColor(hex: hex).xterm256Index == expected, "\(RGBColor(hex: hex))")
    }

    @Test func xterm256Index_neverPicksTheSystemColors() {
        let seed = UInt64.random(in: 0...UInt64.max)
        var random = SplitMix64(seed: seed)
        for _ in 0..<2000 {
            let color = RGBColor(hex: UInt32(truncatingIfNeeded: random.next()))
            let index = color.xterm256Index
            #expect(index >= 16, "seed \(seed): \(color)")
            // No palette color (16...255) is closer than the chosen one.
            let chosen = RGBColor.xterm256Color(at: index).map(distance(color))
            let best = (16...255).compactMap { RGBColor.xterm256Color(at: UInt8($0)) }.map(distance(color))
                .min()
            #expect(chosen == best, "seed \(seed): \(color) → \(index)")
        }
    }

    @Test func xterm256Color_roundTripsThroughTheIndex() {
        for index in UInt8(16)...255 {
            let color = RGBColor.xterm256Color(at: index)
            #expect(color?.xterm256Index == index, "index \(index)")
        }
        #expect(RGBColor.xterm256Color(at: 7) == nil)
    }

    @Test(arguments: [
        (["TERM": "xterm-256color", "COLORTERM": "truecolor"], ColorMode.trueColor),
        (["TERM": "xterm-256color", "COLORTERM": "24bit"], .trueColor),
        (["TERM": "xterm", "COLORTERM": "TrueColor"], .trueColor),
        (["TERM": "xterm-256color"], .palette256),
        (["TERM": "screen"], .palette256),
        (["TERM": "xterm-256color", "COLORTERM": "truecolor", "NO_COLOR": "1"], ColorMode.none),
        (["TERM": "xterm-256color", "NO_COLOR": ""], ColorMode.none),
        (["TERM": "dumb", "COLORTERM": "truecolor"], ColorMode.none),
        ([:], ColorMode.none),
    ])
    func detect_followsTheEnvironment(environment: [String: String], expected: ColorMode) {
        #expect(ColorMode.detect(environment: environment) == expected)
    }

    @Test func style_buildersSetEachAttribute() {
        let style = Style.plain.bold().dim().italic().underlined().inverse()
            .withForeground(RGBColor(hex: 0x010203)).withBackground(RGBColor(hex: 0x040506))
        #expect(
            style
                == Style(
                    foreground: RGBColor(red: 1, green: 2, blue: 3),
                    background: RGBColor(red: 4, green: 5, blue: 6),
                    isBold: true, isDim: true, isItalic: true, isUnderlined: true, isInverse: true))
        #expect(RGBColor(hex: 0x0A0B0C).description == "#0A0B0C")
    }

    @Test func styledLine_buildersConcatenateAndMergeSpans() {
        let bold = Style.plain.bold()
        let pending = true
        let built = StyledLine {
            "@ada".styled(bold)
            " · "
            "2h"
            if pending { " (sending)".styled(.plain.dim()) }
        }
        #expect(
            built.spans == [
                StyledSpan("@ada", style: bold), StyledSpan(" · 2h"),
                StyledSpan(" (sending)", style: .plain.dim()),
            ])
        #expect(("a".styled(bold) + "b".styled(bold)).spans == [StyledSpan("ab", style: bold)])
        #expect((StyledLine("x") + StyledLine("y")).plainText == "xy")
        #expect(built.displayWidth == 19)
    }

    private func distance(_ color: RGBColor) -> (RGBColor) -> Int {
        { other in
            let dr = Int(color.red) - Int(other.red)
            let dg = Int(color.green) - Int(other.green)
            let db = Int(color.blue) - Int(other.blue)
            return dr * dr + dg * dg + db * db
        }
    }
}
