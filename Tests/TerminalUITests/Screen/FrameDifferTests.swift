import Basics
import TerminalUI
import TerminalUITesting
import Testing

@Suite struct FrameDifferTests {
    @Test func firstFrame_clearsAndRedrawsEveryLine() {
        var next = ScreenBuffer(width: 10, height: 3)
        next.put("hello", x: 0, y: 1)
        let update = FrameDiffer.diff(from: nil, to: next, colorMode: .trueColor)
        #expect(update.isFullRedraw)
        #expect(update.changedLines == [0, 1, 2])
        // The clear resets the pen, so the text needs no SGR of its own.
        #expect(update.output == "\u{1B}[0m\u{1B}[H\u{1B}[2J\u{1B}[2Hhello")
    }

    @Test func unchangedFrame_emitsNothing() {
        var frame = ScreenBuffer(width: 10, height: 3)
        frame.put("same", x: 2, y: 2)
        let update = FrameDiffer.diff(from: frame, to: frame, colorMode: .trueColor)
        #expect(update.output.isEmpty)
        #expect(update.changedLineCount == 0)
    }

    @Test func changedCells_onlyThoseAreRewritten() {
        var previous = ScreenBuffer(width: 20, height: 4)
        previous.put("line zero", x: 0, y: 0)
        previous.put("count: 41", x: 0, y: 2)
        var next = previous
        next.put("count: 42", x: 0, y: 2)
        let update = FrameDiffer.diff(from: previous, to: next, colorMode: .trueColor)
        #expect(update.changedLines == [2])
        #expect(update.output == "\u{1B}[3;9H\u{1B}[0m2")
    }

    @Test func changedTailOfBlanks_isErasedWithOneEL() {
        var previous = ScreenBuffer(width: 20, height: 1)
        previous.put("a long line of text", x: 0, y: 0)
        var next = ScreenBuffer(width: 20, height: 1)
        next.put("a long", x: 0, y: 0)
        let update = FrameDiffer.diff(from: previous, to: next, colorMode: .trueColor)
        // Column 6 was a space already; the erase starts at the first changed cell.
        #expect(update.output == "\u{1B}[1;8H\u{1B}[0m\u{1B}[K")
    }

    @Test func styleChanges_emitMinimalSGR() {
        let red = RGBColor(hex: 0xFF0000)
        var previous = ScreenBuffer(width: 10, height: 1)
        previous.put("abc", x: 0, y: 0)
        var next = ScreenBuffer(width: 10, height: 1)
        next.put(
            StyledLine([
                StyledSpan("a", style: .plain.bold()),
                StyledSpan("bc", style: Style.plain.bold().withForeground(red)),
            ]), x: 0, y: 0)
        let update = FrameDiffer.diff(from: previous, to: next, colorMode: .trueColor)
        // One SGR per style change; the second only adds the color.
        #expect(update.output == "\u{1B}[1H\u{1B}[0;1ma\u{1B}[38;2;255;0;0mbc")
        let palette = FrameDiffer.diff(from: previous, to: next, colorMode: .palette256)
        #expect(palette.output == "\u{1B}[1H\u{1B}[0;1ma\u{1B}[38;5;196mbc")
        let none = FrameDiffer.diff(from: previous, to: next, colorMode: .none)
        #expect(none.output == "\u{1B}[1H\u{1B}[0;1mabc")
    }

    @Test func colorOnlyChange_withoutColor_stillCountsTheLineButSendsNoColor() {
        var previous = ScreenBuffer(width: 4, height: 1)
        previous.put("ab", x: 0, y: 0)
        var next = ScreenBuffer(width: 4, height: 1)
        next.put("ab", style: .plain.withForeground(RGBColor(hex: 0x00FF00)), x: 0, y: 0)
        let update = FrameDiffer.diff(from: previous, to: next, colorMode: .none)
        #expect(!update.output.contains("38;"))
    }

    @Test func wideGraphemeReplacedByNarrow_redrawsTheWholeCell() {
        var previous = ScreenBuffer(width: 6, height: 1)
        previous.put("a漢b", x: 0, y: 0)
        var next = ScreenBuffer(width: 6, height: 1)
        next.put("axyb", x: 0, y: 0)
        var terminal = ANSITerminalSimulator(width: 6, height: 1)
        terminal.apply(FrameDiffer.diff(from: nil, to: previous, colorMode: .trueColor).output)
        terminal.apply(FrameDiffer.diff(from: previous, to: next, colorMode: .trueColor).output)
        #expect(terminal.plainText == "axyb")
        #expect(terminal.firstDifference(from: next, mode: .trueColor) == nil)
    }

    @Test func sizeChange_redrawsEverything() {
        let previous = ScreenBuffer(width: 5, height: 2)
        var next = ScreenBuffer(width: 6, height: 2)
        next.put("x", x: 0, y: 0)
        let update = FrameDiffer.diff(from: previous, to: next, colorMode: .trueColor)
        #expect(update.isFullRedraw)
        #expect(update.changedLineCount == 2)
    }

    @Test(arguments: ColorMode.allCases)
    func randomFrames_outputAppliedToATerminalReproducesEachTarget(mode: ColorMode) {
        let seed = UInt64.random(in: 0...UInt64.max)
        var random = SplitMix64(seed: seed)
        let width = 24
        let height = 8
        var terminal = ANSITerminalSimulator(width: width, height: height)
        var shown: ScreenBuffer?
        var frame = ScreenBuffer(width: width, height: height)
        for step in 0..<200 {
            let previousFrame = frame
            mutate(&frame, using: &random)
            let update = FrameDiffer.diff(from: shown, to: frame, colorMode: mode)
            terminal.apply(update.output)
            shown = frame
            let difference = terminal.firstDifference(from: frame, mode: mode)
            #expect(difference == nil, "seed \(seed), step \(step): \(String(describing: difference))")
            #expect(terminal.unsupported.isEmpty, "seed \(seed): \(terminal.unsupported.prefix(3))")
            #expect(terminal.plainText == HeadlessRenderer.text(of: frame), "seed \(seed), step \(step)")
            let expectedChanged = (0..<height).filter { previousFrame.line($0) != frame.line($0) }
            if !update.isFullRedraw {
                #expect(update.changedLines == expectedChanged, "seed \(seed), step \(step)")
            }
            if difference != nil { break }
        }
    }

    /// A few random edits: text of mixed widths and styles, fills, rules, clears.
    private func mutate(_ frame: inout ScreenBuffer, using random: inout SplitMix64) {
        let texts = ["hello", "漢字", "👍🏽ok", "e\u{301}x", "🇯🇵", "wide漢narrow", "  ", "abc def", "─"]
        let colors: [RGBColor?] = [
            nil, RGBColor(hex: 0xFF0000), RGBColor(hex: 0x00AA55), RGBColor(hex: 0x808080),
        ]
        func style() -> Style {
            Style(
                foreground: colors.randomElement(using: &random) ?? nil,
                background: colors.randomElement(using: &random) ?? nil,
                isBold: Bool.random(using: &random), isDim: Int.random(in: 0..<4, using: &random) == 0,
                isItalic: Int.random(in: 0..<4, using: &random) == 0,
                isUnderlined: Int.random(in: 0..<4, using: &random) == 0,
                isInverse: Int.random(in: 0..<6, using: &random) == 0)
        }
        for _ in 0..<Int.random(in: 0...4, using: &random) {
            switch Int.random(in: 0..<10, using: &random) {
            case 0:
                frame.fill(
                    Rect(
                        x: Int.random(in: 0..<frame.width, using: &random),
                        y: Int.random(in: 0..<frame.height, using: &random),
                        width: Int.random(in: 1...8, using: &random),
                        height: Int.random(in: 1...3, using: &random)),
                    style: style())
            case 1:
                frame.horizontalRule(y: Int.random(in: 0..<frame.height, using: &random), style: style())
            case 2 where Int.random(in: 0..<5, using: &random) == 0:
                frame.clear()
            default:
                frame.put(
                    texts.randomElement(using: &random) ?? "", style: style(),
                    x: Int.random(in: -2..<frame.width, using: &random),
                    y: Int.random(in: 0..<frame.height, using: &random))
            }
        }
    }
}
