import AppRuntime
import AppTesting
@_spi(Testing) import Backend
import Composition
import Features
import Foundation
import MediaModel
import Sockets
import TerminalUI
import Testing

/// Handles, display names and bios at their limits, where a person meets them: a handle typed on
/// the first launch's welcome screen (the only place a person sets one; the display name it makes
/// is the handle, and nothing in either app sets a name or a bio), and the longest names and bios
/// the server takes, shown on a profile, in Find people and on a post, at 80 and 40 columns.
@Suite @MainActor struct NameLimitScenarios {
    /// The server's handle rule (`POST /v1/accounts`): 2 to 24 characters of a-z, 0-9 and _.
    static let handleRange = 2...24
    /// The server's display name rule: 1 to 50 characters (grapheme clusters, after trimming).
    static let nameLimit = 50
    /// The server's bio rule: 300 characters at most.
    static let bioLimit = 300

    /// A handle of `count` characters (24 at most).
    static func handle(_ count: Int) -> String { String("low_tide_at_the_harbour_wall".prefix(count)) }

    /// Opens "Create a new account" on the welcome screen of a first launch on `directories`.
    static func startCreating(_ app: ShippedApp, on directories: TestDirectories, width: Int) async throws
        -> AppSession
    {
        let (session, _) = try await HeadlessHarness.firstLaunch(
            app.definition, directories: directories, width: width)
        let shell = try #require(session.shell)
        let onboarding = try #require(shell.modal as? OnboardingScreen, "\(app.id): the welcome screen")
        let create = try #require(onboarding.offered.firstIndex(of: .createAccount))
        for _ in 0..<create { _ = shell.handle(.character("j")) }
        _ = shell.handle(.enter)
        await session.settle()
        return session
    }

    /// The welcome screen's handle line, trimmed.
    static func handleLine(_ frame: String) -> String? {
        lines(frame).first { $0.contains("Handle: @") }.map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// Checks that `line` is a name then `  @handle`: the handle whole at its end, the name whole
    /// or cut with "…", and the line no wider than `width`.
    static func expectNameThenHandle(
        _ line: String, name: String, handle: String, width: Int, _ place: String
    ) {
        #expect(
            DisplayColumns.of(line) <= width, "\(place): \(DisplayColumns.of(line)) columns wide: \(line)")
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        let tail = "  @" + handle
        #expect(trimmed.hasSuffix(tail), "\(place): the handle whole at the end of \"\(line)\"")
        let shownName = String(trimmed.dropLast(tail.count))
        #expect(
            shownName == name || (shownName.hasSuffix("…") && name.hasPrefix(shownName.dropLast())),
            "\(place): the name whole or cut with …: \"\(shownName)\"")
    }

    // MARK: A handle, through onboarding

    @Test(arguments: ShippedApp.all, [80, 40])
    func aHandleAtItsLimits_isTakenWhole_andBeyondThemIsStoppedWithAReason(app: ShippedApp, width: Int)
        async throws
    {
        let first = try TestDirectories.make()
        for count in [
            Self.handleRange.lowerBound, Self.handleRange.upperBound - 1, Self.handleRange.upperBound,
        ] {
            let handle = Self.handle(count)
            let place = "\(app.id) at \(width) columns, a handle of \(count)"
            let session = try await Self.startCreating(
                app, on: count == Self.handleRange.lowerBound ? first : first.sibling(), width: width)
            let shell = try #require(session.shell)
            // (where the welcome screen lists accounts to continue as, each row's handle is whole)
            let welcome = lines(HeadlessHarness.frame(of: session)).filter { $0.contains("Continue as ") }
            let cut = welcome.filter {
                !$0.contains("Continue as another") && $0.firstMatch(of: /\(@[a-z0-9_]+\)/) == nil
            }
            #expect(cut.isEmpty, "\(place): rows with the handle cut: \(cut)")
            var typed = ""
            func type(_ character: Character) async {
                _ = shell.handle(.character(character))
                await session.settle()
            }

            if count == Self.handleRange.lowerBound {
                // One character short of the least: enter says why, and keeps what was typed
                await type(handle.first ?? "l")
                typed.append(handle.first ?? "l")
                _ = shell.handle(.enter)
                await session.settle()
                let short = HeadlessHarness.frame(of: session)
                #expect(short.contains("a handle has 2 characters at least"), "\(place):\n\(short)")
                #expect(Self.handleLine(short) == "Handle: @\(typed)", "\(place): kept\n\(short)")
            }
            for character in handle.dropFirst(typed.count) { await type(character) }
            typed = handle
            var frame = HeadlessHarness.frame(of: session)
            #expect(Self.handleLine(frame) == "Handle: @\(handle)", "\(place): shown whole\n\(frame)")

            if count == Self.handleRange.upperBound {
                // One more letter, a wide character and an emoji are each stopped with a reason,
                // and the handle typed so far stays as it was
                for (extra, reason) in [
                    ("w", "a handle has at most 24 characters"),
                    ("潮", "a handle uses a-z, 0-9 and _ only"),
                    ("🌊", "a handle uses a-z, 0-9 and _ only"),
                ] as [(Character, String)] {
                    await type(extra)
                    frame = HeadlessHarness.frame(of: session)
                    #expect(frame.contains(reason), "\(place): '\(extra)' says why\n\(frame)")
                    #expect(
                        Self.handleLine(frame) == "Handle: @\(handle)", "\(place): nothing lost\n\(frame)")
                }
            }

            // When the person goes on with a password
            _ = shell.handle(.enter)
            await session.settle()
            frame = HeadlessHarness.frame(of: session)
            // (the words cut on a narrow screen, never the handle)
            let heading = lines(frame).map { $0.trimmingCharacters(in: .whitespaces) }
                .first { $0.hasPrefix("New acc") }
            #expect(heading?.hasSuffix(" @" + handle) == true, "\(place): the handle asked for\n\(frame)")
            for character in "harbour-pass" { _ = shell.handle(.character(character)) }
            _ = shell.handle(.enter)
            await session.settle()

            // Then Home's title ends with the whole handle, within the screen
            #expect(shell.modal == nil, "\(place): signed in")
            #expect(shell.context.viewer?.handle == handle, "\(place)")
            let home = lines(HeadlessHarness.frame(of: session))
            #expect(home[0].hasSuffix(" @" + handle), "\(place): Home's title \"\(home[0])\"")
            #expect(DisplayColumns.of(home[0]) <= width, "\(place): \(home[0])")

            // And their profile shows their name (the handle) and the handle, the handle whole
            shell.openTab(.profile)
            await session.settle()
            let profile = lines(HeadlessHarness.frame(of: session))
            Self.expectNameThenHandle(String(profile[2]), name: handle, handle: handle, width: width, place)
            await session.stop()
        }
    }

    // MARK: Display names and bios of others

    @Test(arguments: ShippedApp.withHome, [80, 40])
    func wideNamesAndBiosAtTheirLimits_showCutToTheScreen_withTheHandleWhole(app: ShippedApp, width: Int)
        async throws
    {
        // Given accounts made through the API (the only way to set a name or bio): a name of 50
        // wide characters with a bio of 300, and a name of 49 emoji and wide characters
        let directories = try TestDirectories.make()
        let backend = try directories.openBackend()
        let wideName = String(repeating: "潮見灯台守", count: Self.nameLimit / 5)
        let emojiName = String(String(repeating: "🌊潮", count: Self.nameLimit / 2).prefix(Self.nameLimit - 1))
        let bio = String(String(repeating: "港の朝、霧笛が鳴る。", count: 40).prefix(Self.bioLimit))
        #expect(wideName.count == Self.nameLimit && emojiName.count == Self.nameLimit - 1)
        #expect(bio.count == Self.bioLimit)
        try await BackendFixtures.createAccount(
            on: backend, handle: "shiomi_kaito", displayName: wideName, bio: bio)
        try await BackendFixtures.createAccount(on: backend, handle: "mina_umi", displayName: emojiName)
        let text = "Fog horn at dawn, \(app.id)"
        try await BackendFixtures.post(
            on: backend, as: "shiomi_kaito", text: text, attachmentsJSON: BackendFixtures.photoJSON)
        // and one over each limit is refused, with a plain message
        await #expect {
            try await BackendFixtures.createAccount(
                on: backend, handle: "too_long_name", displayName: wideName + "潮")
        } throws: {
            "\($0)".contains(
                "displayName: must be 1 to \(Self.nameLimit) characters, found \(Self.nameLimit + 1)")
        }
        await #expect {
            try await BackendFixtures.createAccount(
                on: backend, handle: "too_long_bio", displayName: "Bio", bio: bio + "。")
        } throws: {
            "\($0)".contains("bio: \(Self.bioLimit + 1) characters is over the limit of \(Self.bioLimit)")
        }
        backend.close()
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: directories, width: width)
        defer { Task { await session.stop() } }
        let shell = try #require(session.shell)

        for (handle, name) in [("shiomi_kaito", wideName), ("mina_umi", emojiName)] {
            let place = "\(app.id) at \(width) columns, @\(handle)"
            // When the person finds the account: its row shows the name cut, the handle whole
            await BoundaryScenarios.press(.character("/"), in: session)
            for character in handle { _ = shell.handle(.character(character)) }
            await session.settle()
            let found = lines(HeadlessHarness.frame(of: session))
            let row = try #require(found.first { $0.contains("@" + handle) }, "\(place): listed")
            #expect(DisplayColumns.of(row) <= width, "\(place): \(row)")
            #expect(
                row.contains("  @\(handle) · 0 followers"), "\(place): the handle and count whole: \(row)")

            // and opens its profile: the name cut to the screen, the handle whole after it
            await BoundaryScenarios.press(.enter, in: session)
            let profile = try #require(shell.currentScreen as? ProfileScreen, "\(place): the profile opens")
            let frame = lines(HeadlessHarness.frame(of: session))
            Self.expectNameThenHandle(String(frame[2]), name: name, handle: handle, width: width, place)
            if handle == "shiomi_kaito" {
                // its bio on three lines, the third cut with … within the screen, and the
                // counts right under them
                let bioLines = (3...5).map { frame[$0].trimmingCharacters(in: .whitespaces) }
                for line in 3...5 {
                    #expect(DisplayColumns.of(frame[line]) <= width, "\(place): \(frame[line])")
                }
                let shown = (bioLines[0] + bioLines[1] + bioLines[2].dropLast())
                    .trimmingCharacters(in: .whitespaces)
                #expect(
                    bioLines[2].hasSuffix("…") && bio.hasPrefix(shown) && shown.count > bioLines[0].count * 2,
                    "\(place): the bio cut: \(bioLines)")
                #expect(frame[6].contains("1 post · 0 followers"), "\(place): \(frame.all)")
                // and its post's header keeps the handle whole after the cut name
                try #require(profile.items.first?.media.text == text, "\(place): its post is listed")
                let header = try #require(selectedHeader(HeadlessHarness.frame(of: session)))
                #expect(DisplayColumns.of(header) + 1 <= width, "\(place): \(header)")
                #expect(header.contains(" @\(handle) · "), "\(place): the post's header \"\(header)\"")
            }
            await BoundaryScenarios.press(.escape, in: session)
            await BoundaryScenarios.press(.escape, in: session)
        }
    }
}
