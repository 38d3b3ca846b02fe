import AppTesting
import Composition
import Features
import Sockets
import TerminalUI
import Testing

/// A help taller than two columns of the screen (an app with one key more than fits 80x24):
/// nothing is dropped; it is cut into pages of two columns, turned with space.
@Suite struct HelpTallerThanTwoColumnsTests {
    static func style() throws -> AppStyle {
        let registry = try #require(ShippedApp.all.first?.registry)
        return AppStyle(
            branding: registry[.branding], theme: registry[.theme], colorMode: .none, imageMode: .ascii)
    }

    /// `count` keys, a few with words long enough to wrap.
    static func keys(_ count: Int) -> [KeyBinding] {
        (0..<count).map { index in
            KeyBinding(
                keys: [.character(Character(Unicode.Scalar(UInt8(0x41 + index % 26))))],
                label: "k\(index)",
                does: index % 5 == 0
                    ? "a key whose words are long enough to wrap in a column \(index)" : "key \(index)")
        }
    }

    @Test(arguments: [44, 60])
    func everyLine_isOnSomePage_inOrder_andEachPageSaysHowToTurn(count: Int) throws {
        let screen = Self.keys(count)
        let shell = [
            KeyBinding(keys: [.character("?")], does: "this help"),
            KeyBinding(keys: [.character("q")], does: "quit"),
        ]
        let area = Rect(x: 0, y: 2, width: 80, height: 20)
        let expected = HelpOverlay.lines(title: "Home", screen: screen, shell: shell)
        let pages = HelpOverlay.pageCount(in: area, title: "Home", screen: screen, shell: shell)
        #expect(pages > 1, "\(expected.count) lines cannot fit two columns of 16 rows")

        let style = try Self.style()
        var read: [String] = []
        for page in 0..<pages {
            var buffer = ScreenBuffer(width: 80, height: 24)
            HelpOverlay.draw(
                into: &buffer, in: area, title: "Home", screen: screen, shell: shell, page: page, style: style
            )
            let lines = try #require(HelpOverlayReader.lines(of: buffer), "page \(page) draws a box")
            #expect(lines.first == "Keys · Home")
            #expect(
                lines.last?.hasPrefix("page \(page + 1) of \(pages) · space: ") == true, "\(lines.last ?? "")"
            )
            let rows = HeadlessRenderer.lines(of: buffer)
            #expect(rows.contains { $0.contains(" │") }, "page \(page) is in two columns")
            read += lines.dropFirst().dropLast()
        }
        let keysRead = read.filter { $0.hasPrefix("  k") || $0.hasPrefix("  ?") || $0.hasPrefix("  q") }
        let keysExpected = expected.filter {
            $0.hasPrefix("  k") || $0.hasPrefix("  ?") || $0.hasPrefix("  q")
        }
        #expect(
            keysRead.map { $0.split(separator: " ").first }
                == keysExpected.map { $0.split(separator: " ").first })
    }

    /// Sixteen keys of the screen and sixteen of the shell in 16 rows: the blank line between them
    /// stays out of both columns, so they fit one page, which says how to close it as any help does.
    @Test func twoFullColumns_areOnePage_closedByAnyKey() throws {
        let screen = Self.keys(16).map { KeyBinding(keys: $0.keys, label: $0.label, does: "key") }
        let shell = (0..<16).map { KeyBinding(keys: [.character("?")], label: "s\($0)", does: "shell key") }
        let area = Rect(x: 0, y: 2, width: 80, height: 20)
        #expect(HelpOverlay.pageCount(in: area, title: "Home", screen: screen, shell: shell) == 1)
        var buffer = ScreenBuffer(width: 80, height: 24)
        HelpOverlay.draw(
            into: &buffer, in: area, title: "Home", screen: screen, shell: shell, style: try Self.style())
        let lines = try #require(HelpOverlayReader.lines(of: buffer))
        #expect(lines.last == "any key closes this help")
        #expect(lines.filter { $0.hasPrefix("  k") || $0.hasPrefix("  s") }.count == 32, "\(lines)")
    }
}
