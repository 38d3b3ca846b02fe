import TerminalUI
import TerminalUITesting
import Testing

@MainActor
@Suite struct ScreenTests {
    @Test func commit_sendsOnlyChangesAfterTheFirstFrame() {
        let screen = Screen(size: TerminalSize(columns: 10, rows: 3), colorMode: .trueColor)
        screen.buffer.put("a", x: 0, y: 0)
        let first = screen.commit()
        #expect(first.isFullRedraw)
        screen.buffer.put("b", x: 0, y: 2)
        let second = screen.commit()
        #expect(second.changedLines == [2])
        #expect(!second.isFullRedraw)
    }

    @Test func commit_placesAndShowsTheCursorOnlyWhenAsked() {
        let screen = Screen(size: TerminalSize(columns: 10, rows: 3), colorMode: .trueColor)
        let hidden = screen.commit()
        #expect(hidden.output.hasSuffix("\u{1B}[?25l"))
        screen.cursor = Point(x: 4, y: 1)
        let shown = screen.commit()
        #expect(shown.output == "\u{1B}[2;5H\u{1B}[?25h")
        let again = screen.commit()
        #expect(again.output == "\u{1B}[2;5H")
    }

    @Test func invalidateAndResize_forceAFullRedraw() {
        let screen = Screen(size: TerminalSize(columns: 10, rows: 3), colorMode: .trueColor)
        _ = screen.commit()
        screen.invalidate()
        #expect(screen.commit().isFullRedraw)
        screen.resize(to: TerminalSize(columns: 12, rows: 4))
        #expect(screen.size == TerminalSize(columns: 12, rows: 4))
        #expect(screen.commit().changedLineCount == 4)
        screen.colorMode = .none
        #expect(screen.commit().isFullRedraw)
    }

    @Test func committedFrames_appliedToATerminal_matchThePlainText() {
        let screen = Screen(size: TerminalSize(columns: 16, rows: 4), colorMode: .palette256)
        var terminal = ANSITerminalSimulator(width: 16, height: 4)
        for step in 0..<5 {
            screen.buffer.clear()
            screen.buffer.put(
                "frame \(step)", style: .plain.withForeground(RGBColor(hex: 0x3366FF)), x: step, y: step % 4)
            screen.buffer.put("漢字", x: 0, y: 3)
            terminal.apply(screen.commit().output)
            #expect(terminal.plainText == screen.plainText)
            #expect(terminal.firstDifference(from: screen.buffer, mode: .palette256) == nil)
        }
    }
}
