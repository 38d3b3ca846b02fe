import AppRuntime
import AppTesting
import Composition
import Features
import Foundation
import Sockets
import TerminalUI
import TerminalUITesting
import Testing
import Wire

/// Styled golden frames: each app's key screens with their colors and attributes, so a theme or
/// accent bound to the wrong provider fails even though every character is where it was.
@Suite @MainActor struct StyledGoldenScenarios {
    /// A key screen a styled golden keeps.
    enum Place: String, CaseIterable, CustomTestStringConvertible {
        case home, thread, composer, sync, help

        var testDescription: String { rawValue }
    }

    /// The sizes each screen is kept at: the usual terminal and a larger one.
    static let sizes = [(width: 80, height: 24), (width: 100, height: 30)]

    /// Launches `definition` at `size`, goes to `place` and returns the session (stop it when done).
    static func open(
        _ place: Place, of definition: AppDefinition, width: Int, height: Int
    ) async throws -> AppSession {
        let (session, _) = try await HeadlessHarness.session(
            definition, directories: try TestDirectories.make(), width: width, height: height)
        let shell = try #require(session.shell)
        switch place {
        case .home: break
        case .thread:
            _ = shell.handle(.character("j"))
            _ = shell.handle(.enter)
        case .composer:
            shell.openTab(.compose)
            for character in "Golden hour ✨" { _ = shell.handle(.character(character)) }
        case .sync:
            // A like made offline waits in Sync, drawn in the pending color.
            shell.context.faultControl?.setFaultProfile(.offline)
            session.networkDidChange()
            _ = shell.handle(.character("l"))
            await session.settle()
            shell.openTab(.mutations)
        case .help:
            _ = shell.handle(.character("?"))
        }
        await session.settle()
        return session
    }

    @Test(arguments: ShippedApp.withHome, Place.allCases)
    func keyScreen_matchesItsStyledGolden_atTwoSizes(app: ShippedApp, place: Place) async throws {
        for size in Self.sizes {
            let session = try await Self.open(
                place, of: app.definition, width: size.width, height: size.height)
            let frame = HeadlessHarness.frame(of: session)
            #expect(lines(frame).count == size.height)
            StyledGoldenFrames.check(
                session, app: app.id, name: "\(place.rawValue)-\(size.width)x\(size.height)",
                directory: goldenDirectory)
            await session.stop()
        }
    }

    /// `app` with the other app's theme in its `theme` socket (the other app's binding, or the
    /// default when it leaves the socket unbound) and the other app's accent in its branding;
    /// names, glyphs and every other socket stay its own.
    static func withTheOtherAppsColors(_ app: ShippedApp) throws -> AppDefinition {
        let other = try #require(ShippedApp.withHome.first { $0.id != app.id })
        func sockets(of definition: AppDefinition) throws -> [String: Any] {
            let data = Data(definition.manifest.contents.utf8)
            let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            return try #require(object["sockets"] as? [String: Any])
        }
        let otherTheme = try sockets(of: other.definition)["theme"] as? String
        let ownBranding = try AppHost.compose(app.definition).registry[.branding]
        let otherAccent = try AppHost.compose(other.definition).registry[.branding].accentColor
        let swappedBranding = Provider(id: "test.swappedAccent", fills: .branding) { _ in
            SwappedAccentBranding(base: ownBranding, accentColor: otherAccent)
        }

        var object = try #require(
            try JSONSerialization.jsonObject(with: Data(app.definition.manifest.contents.utf8))
                as? [String: Any])
        var bindings = try sockets(of: app.definition)
        bindings["theme"] = otherTheme
        bindings["branding"] = swappedBranding.id
        object["sockets"] = bindings
        let text = String(
            decoding: try JSONSerialization.data(
                withJSONObject: object, options: [.prettyPrinted, .sortedKeys]),
            as: UTF8.self)
        let borrowed = other.definition.catalog.providers.filter { $0.id == otherTheme }
        return AppDefinition(
            id: app.id,
            catalog: Catalog.merging([
                app.definition.catalog, Catalog(providers: borrowed + [swappedBranding]),
            ]),
            manifest: EmbeddedManifest(path: app.definition.manifest.path, contents: text))
    }

    @Test(arguments: ShippedApp.withHome)
    func theOtherAppsThemeAndAccent_passThePlainGolden_butFailTheStyledOne(app: ShippedApp) async throws {
        // Given the app as it ships and the same app wearing the other app's colors
        let shipped = try await Self.open(.home, of: app.definition, width: 80, height: 24)
        let swapped = try await Self.open(
            .home, of: try Self.withTheOtherAppsColors(app), width: 80, height: 24)
        defer {
            Task {
                await shipped.stop()
                await swapped.stop()
            }
        }

        // Then every character is where it was: the plain golden would pass
        #expect(HeadlessHarness.frame(of: swapped) == HeadlessHarness.frame(of: shipped))
        // but the styled frame differs, and says it is only the colors
        let expected = StyledGoldenFrames.text(of: shipped)
        let actual = StyledGoldenFrames.text(of: swapped)
        #expect(actual != expected)
        #expect(
            StyledGoldenFrames.explain(golden: expected, actual: actual)
                == "the text is the same; only colors or attributes differ (see 'colors:' and the rows below)"
        )
        let diff = GoldenFrames.lineDiff(expected: expected, actual: actual)
        let shippedAccent = try #require(shipped.shell?.context.style.accent.foreground)
        let swappedAccent = try #require(swapped.shell?.context.style.accent.foreground)
        #expect(diff.contains("- colors: accent \(shippedAccent)"), "\(diff)")
        #expect(diff.contains("+ colors: accent \(swappedAccent)"), "\(diff)")

        // and against the recorded styled golden the check fails with that message
        guard ProcessInfo.processInfo.environment[GoldenFrames.recordVariable] != "1" else { return }
        withKnownIssue("the styled golden catches the other app's colors") {
            StyledGoldenFrames.check(swapped, app: app.id, name: "home-80x24", directory: goldenDirectory)
        } matching: { issue in
            let text = String(describing: issue)
            return text.contains("only colors or attributes differ") && text.contains("+ colors: accent")
        }
        // (the check left the swapped frame beside the golden; it is this test's, not a real failure)
        try? FileManager.default.removeItem(
            atPath: "\(goldenDirectory)/\(app.id)/styled/home-80x24.actual.txt")
    }

    @Test(arguments: ShippedApp.all)
    func withNoColor_theTerminalGetsNoColorEscapes_butKeepsItsAttributes(app: ShippedApp) async throws {
        // Given NO_COLOR in an environment that would otherwise give 24-bit color
        let environment = ["NO_COLOR": "1", "TERM": "xterm-256color", "COLORTERM": "truecolor"]
        let mode = ColorMode.detect(environment: environment)
        #expect(mode == .none)

        for (colorMode, expectsColor) in [(ColorMode.trueColor, true), (mode, false)] {
            let (session, _) = try await HeadlessHarness.session(
                app.definition, directories: try TestDirectories.make(), colorMode: colorMode)
            // When the home screen is sent to a terminal
            let screen = Screen(size: TerminalSize(columns: 80, rows: 24), colorMode: colorMode)
            screen.buffer = session.render().buffer
            let output = screen.commit().output
            await session.stop()

            // Then only the color mode decides whether color escapes go out
            let parameters = Self.sgrParameters(in: output)
            let colors = parameters.filter(Self.isColor)
            #expect(!colors.isEmpty == expectsColor, "\(colorMode): color parameters \(colors.prefix(5))")
            #expect(parameters.contains("1"), "\(colorMode): bold still goes out")
        }
    }

    /// Every SGR parameter group in `output` (`ESC[...m`), split on `;` at the top level: a
    /// `38;2;r;g;b` stays one item.
    static func sgrParameters(in output: String) -> [String] {
        var result: [String] = []
        var rest = Substring(output)
        while let start = rest.range(of: "\u{1B}[") {
            rest = rest[start.upperBound...]
            guard let end = rest.firstIndex(where: { !"0123456789;".contains($0) }) else { break }
            if rest[end] == "m" {
                var parts = rest[..<end].split(separator: ";", omittingEmptySubsequences: false).map(
                    String.init)
                while !parts.isEmpty {
                    let head = parts.removeFirst()
                    if head == "38" || head == "48" {
                        let count = parts.first == "2" ? 4 : 2
                        result.append(([head] + parts.prefix(count)).joined(separator: ";"))
                        parts.removeFirst(min(count, parts.count))
                    } else {
                        result.append(head)
                    }
                }
            }
            rest = rest[end...]
        }
        return result
    }

    /// Whether an SGR parameter sets a color (8, 16, 256 or 24-bit, foreground or background).
    static func isColor(_ parameter: String) -> Bool {
        if parameter.hasPrefix("38;") || parameter.hasPrefix("48;") { return true }
        guard let value = Int(parameter) else { return false }
        return (30...37).contains(value) || (40...47).contains(value) || (90...97).contains(value)
            || (100...107).contains(value)
    }
}

/// An app's branding with another accent color: what a wrong `branding` binding would look like
/// on screen when the names happen to agree.
struct SwappedAccentBranding: Branding {
    let base: any Branding
    let accentColor: Sockets.RGBColor
    var appName: String { base.appName }
    var logoGlyph: String { base.logoGlyph }
    var tagline: String { base.tagline }
}
