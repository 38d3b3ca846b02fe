import AppRuntime
import AppTesting
import Features
import TerminalUI
import TerminalUITesting
import Testing

/// A terminal with 256 colors and no 24-bit color (`TERM=xterm-256color` without `COLORTERM`):
/// every color an app draws reaches it as the nearest color of the xterm palette, so the theme,
/// the accent and the photos look as close to themselves as the terminal allows.
@Suite @MainActor struct PaletteScenarios {
    /// The xterm palette's colors 16...255 as xterm defines them: the 6×6×6 cube on the levels
    /// 0, 95, 135, 175, 215 and 255, then the gray ramp 8, 18, ..., 238. (0...15 are the
    /// person's own and never chosen.)
    static let palette: [(index: Int, red: Int, green: Int, blue: Int)] = {
        let levels = [0, 95, 135, 175, 215, 255]
        var colors: [(index: Int, red: Int, green: Int, blue: Int)] = []
        for cube in 0..<216 {
            colors.append((16 + cube, levels[cube / 36], levels[(cube / 6) % 6], levels[cube % 6]))
        }
        for step in 0..<24 {
            let level = 8 + 10 * step
            colors.append((232 + step, level, level, level))
        }
        return colors
    }()

    /// The squared distance from `color` to palette entry `index` (16...255).
    static func distance(_ color: RGBColor, toPaletteIndex index: Int) -> Int {
        let entry = palette[index - 16]
        let red = Int(color.red) - entry.red
        let green = Int(color.green) - entry.green
        let blue = Int(color.blue) - entry.blue
        return red * red + green * green + blue * blue
    }

    /// What is wrong with drawing `color` as palette `index`, or nil when it is a nearest entry
    /// (a cube entry when a cube entry and a gray are equally near).
    static func problem(drawing color: RGBColor, as index: UInt8) -> String? {
        guard index >= 16 else { return "\(color) drawn as the person's own color \(index)" }
        let nearest = palette.map { distance(color, toPaletteIndex: $0.index) }.min() ?? 0
        let drawn = distance(color, toPaletteIndex: Int(index))
        if drawn != nearest {
            let best = palette.first { distance(color, toPaletteIndex: $0.index) == nearest }?.index ?? 0
            return "\(color) drawn as \(index) (distance \(drawn)); \(best) is nearer (\(nearest))"
        }
        if index >= 232,
            palette[0..<216].contains(where: { distance(color, toPaletteIndex: $0.index) == nearest })
        {
            return "\(color) drawn as the gray \(index); a cube color is as near and wins the tie"
        }
        return nil
    }

    @Test(arguments: ShippedApp.withHome)
    func in256Colors_everyColorOnHomeAndAPhoto_isTheNearestOfThePalette(app: ShippedApp) async throws {
        // Given the app in a 256-color terminal, on Home and then on a photo shown full screen
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: try TestDirectories.make(), colorMode: .palette256)
        defer { Task { await session.stop() } }
        let shell = try #require(session.shell)
        var checked = 0
        var grays = 0
        for place in ["Home", "Photo"] {
            if place == "Photo" {
                _ = shell.handle(.character("v"))
                await session.settle()
            }
            // When the frame is sent to the terminal
            let buffer = session.render().buffer
            let screen = Screen(size: TerminalSize(columns: 80, rows: 24), colorMode: .palette256)
            screen.buffer = buffer
            var terminal = ANSITerminalSimulator(width: 80, height: 24)
            terminal.apply(screen.commit().output)
            #expect(terminal.unsupported.isEmpty, "\(app.id), \(place): \(terminal.unsupported.prefix(3))")
            #expect(
                lines(terminal.plainText)[0].contains(place), "\(app.id): \(lines(terminal.plainText)[0])")

            // Then every colored cell reaches it as a nearest palette color
            var problems: [String] = []
            for y in 0..<24 {
                for x in 0..<80 where !buffer[x, y].isContinuation {
                    let style = buffer[x, y].style
                    let pen = terminal[x, y].pen
                    for (color, received) in [
                        (style.foreground, pen.foreground), (style.background, pen.background),
                    ] {
                        guard let color else { continue }
                        guard case .indexed(let index)? = received else {
                            problems.append(
                                "(\(x), \(y)): \(color) reached the terminal as \(String(describing: received))"
                            )
                            continue
                        }
                        checked += 1
                        if index >= 232 { grays += 1 }
                        if let problem = Self.problem(drawing: color, as: index) {
                            problems.append("(\(x), \(y)): \(problem)")
                        }
                    }
                }
            }
            #expect(
                problems.isEmpty, "\(app.id), \(place): \(problems.count) cells, first: \(problems.prefix(3))"
            )
        }
        #expect(checked > 1000, "\(app.id): colored cells checked")
        #expect(grays > 0, "\(app.id): some colors are nearest to the gray ramp")
    }
}
