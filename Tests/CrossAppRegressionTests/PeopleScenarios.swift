import AppRuntime
import AppTesting
import Backend
import Features
import Foundation
import HTTPServer
import MediaModel
import Mutations
import ServerAPI
import Sockets
import TerminalUI
import Testing
import Wire

/// Finding a person, as a new account with an empty Home does it: `/` opens "Find people" on the
/// tab shown, typing narrows the accounts (handles that start with the text, then names with a
/// word that does), enter opens one's profile, where `f` follows, and Home's refresh then shows
/// their posts. The field keeps every printable key as text; esc comes back to where they were.
@Suite @MainActor struct PeopleScenarios {
    /// The result rows of a frame: lines naming a handle and a follower count, in order.
    static func rows(_ frame: String) -> [String] {
        lines(frame).filter { $0.contains("  @") && $0.contains(" follower") }.map {
            String($0).trimmingCharacters(in: .whitespaces)
        }
    }

    /// A row as the screen writes it, selected or not.
    static func row(_ account: AccountSummary, selected: Bool, follows: Bool = false) -> String {
        let followers = account.followerCount + (follows ? 1 : 0)
        return (selected ? "▌ " : "")
            + "\(account.user.displayName)  @\(account.user.handle) · \(followers) "
            + (followers == 1 ? "follower" : "followers") + (follows ? " · you follow" : "")
    }

    /// The field's line of a frame (`Find: ...`), trimmed.
    static func fieldLine(_ frame: String) -> String? {
        lines(frame).first { $0.contains("Find: ") }.map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// Types `text` key by key.
    static func type(_ text: String, into session: AppSession) async {
        for character in text { _ = session.shell?.handle(.character(character)) }
        await session.settle()
    }

    @Test(arguments: ShippedApp.withHome)
    func aNewAccount_findsAPersonByName_followsThem_andHomeShowsTheirPosts(app: ShippedApp) async throws {
        // Given a new account (following nobody), an account whose name (not handle) starts with
        // "ka", and a new photo post by the seed's kathleen
        let directories = try TestDirectories.make()
        let backend = try directories.openBackend()
        try await BackendFixtures.createAccount(on: backend, handle: "nia_new", displayName: "Nia Newton")
        try await BackendFixtures.createAccount(on: backend, handle: "reef_lee", displayName: "Kai Reef")
        _ = try await BackendFixtures.post(
            on: backend, as: "kathleen", text: "Kathleen's tide chart \(app.id)",
            attachmentsJSON: BackendFixtures.photoJSON)
        let listed = try WireFormat.decode(
            AccountList.self, from: await backend.handle(Request(.get, "/v1/accounts")).body
        ).payload.accounts
        try await BackendFixtures.signIn(on: backend, handle: "nia_new", savingIn: directories.data)
        backend.close()
        let account = { (handle: String) in try #require(listed.first { $0.user.handle == handle }) }
        let (session, _) = try await HeadlessHarness.session(app.definition, directories: directories)
        defer { Task { await session.stop() } }
        let shell = try #require(session.shell)
        let home = try await SocialScenarios.refreshedHome(session)
        #expect(home.isEmpty, "a new account's Home has nobody's posts")
        let empty = HeadlessHarness.frame(of: session)
        #expect(
            lines(empty)[3...4].map { $0.trimmingCharacters(in: .whitespaces) } == [
                "Nothing here yet. Pull to refresh (↑).",
                "Posts of the people you follow show here: / finds people to follow.",
            ],
            "Home says how to find people:\n\(empty)")

        // When the person presses / and types part of a name
        _ = shell.handle(.character("/"))
        await session.settle()
        let opened = HeadlessHarness.frame(of: session)
        #expect(lines(opened).first?.contains("· Find people") == true, "title bar:\n\(opened)")
        #expect(
            Self.fieldLine(opened) == "Find: type a handle or a name",
            "the field is empty and has the focus:\n\(opened)")
        await Self.type("Ka", into: session)
        let found = HeadlessHarness.frame(of: session)

        // Then the matches are listed, handles first (by handle), then the name match, the first
        // selected
        let expected = try ["karen", "katherine", "kathleen", "reef_lee"].map(account)
        #expect(
            Self.rows(found) == expected.enumerated().map { Self.row($1, selected: $0 == 0) },
            "rows:\n\(found)")
        #expect(shell.tabs[shell.activeTab].destination == .home, "on Home's tab")

        // When they move down to kathleen and open her profile
        _ = shell.handle(.down)
        _ = shell.handle(.down)
        #expect(
            selectedHeader(HeadlessHarness.frame(of: session)) == " " + Self.row(expected[2], selected: false)
        )
        _ = shell.handle(.enter)
        await session.settle()
        let profileFrame = HeadlessHarness.frame(of: session)
        let profile = try #require(shell.currentScreen as? ProfileScreen, "enter opens:\n\(profileFrame)")
        #expect(profile.title == "@kathleen")

        // And follow her, then go back
        _ = shell.handle(.character("f"))
        await session.settle()
        #expect(shell.context.manager.pending.isEmpty, "the follow is confirmed")
        _ = shell.handle(.escape)
        await session.settle()
        let back = HeadlessHarness.frame(of: session)

        // Then the search is as they left it, kathleen selected and followed
        #expect(Self.fieldLine(back) == "Find: Ka", "\(back)")
        #expect(
            Self.rows(back) == [
                Self.row(expected[0], selected: false), Self.row(expected[1], selected: false),
                Self.row(expected[2], selected: true, follows: true), Self.row(expected[3], selected: false),
            ], "rows:\n\(back)")

        // When they go back to Home and refresh
        _ = shell.handle(.escape)
        await session.settle()
        #expect(shell.currentScreen is FeedScreen, "esc goes back to Home")
        let refreshed = try await SocialScenarios.refreshedHome(session)

        // Then Home shows kathleen's posts, her newest first
        #expect(refreshed.first?.author == "kathleen", "\(refreshed.prefix(3))")
        #expect(refreshed.first?.text == "Kathleen's tide chart \(app.id)")
        #expect(refreshed.filter { $0.author == "kathleen" }.count > 1, "her earlier posts too")
    }

    @Test(arguments: ShippedApp.withHome)
    func printableKeys_areText_andEscReturnsToTheSamePlace(app: ShippedApp) async throws {
        // Given Home with the second post selected
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: try TestDirectories.make())
        defer { Task { await session.stop() } }
        let shell = try #require(session.shell)
        _ = shell.handle(.character("j"))
        await session.settle()
        let before = HeadlessHarness.frame(of: session)

        // When the person opens Find people and types q, 1, n, ? and /
        _ = shell.handle(.character("/"))
        await session.settle()
        let finder = shell.currentScreen
        var outcomes: [AppShell.KeyOutcome] = []
        for character in "q1n?/" { outcomes.append(shell.handle(.character(character))) }
        await session.settle()
        let typed = HeadlessHarness.frame(of: session)

        // Then every one is text: nothing quits, switches tabs, opens the help or another screen
        #expect(outcomes == Array(repeating: .handled, count: 5))
        #expect(Self.fieldLine(typed) == "Find: q1n?/", "\(typed)")
        #expect(shell.currentScreen === finder)
        #expect(shell.tabs[shell.activeTab].destination == .home)
        #expect(!typed.contains("any key closes this help"))

        // When they press backspace on the text, then esc
        for _ in 0..<5 { _ = shell.handle(.backspace) }
        _ = shell.handle(.backspace)
        #expect(shell.currentScreen === finder, "backspace on an empty field stays")
        _ = shell.handle(.escape)
        await session.settle()
        let after = HeadlessHarness.frame(of: session)

        // Then Home is back as it was
        #expect(shell.currentScreen is FeedScreen)
        #expect(lines(after).dropLast(2) == lines(before).dropLast(2), "Home is as it was:\n\(after)")
    }

    @Test(arguments: ShippedApp.all)
    func noMatch_andOffline_saySoPlainly_andTheFieldStaysUsable(app: ShippedApp) async throws {
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: try TestDirectories.make())
        defer { Task { await session.stop() } }
        let shell = try #require(session.shell)
        _ = shell.handle(.character("/"))
        await Self.type("gra", into: session)
        let graceRows = Self.rows(HeadlessHarness.frame(of: session))
        #expect(graceRows.count == 1 && graceRows.first?.contains("@grace") == true, "\(graceRows)")

        // No match
        await Self.type("zz", into: session)
        let none = HeadlessHarness.frame(of: session)
        #expect(Self.rows(none).isEmpty, "\(none)")
        #expect(
            lines(none).contains { $0.trimmingCharacters(in: .whitespaces) == "no account matches 'grazz'" })

        // Offline: it says so, keeps the text, and works again when the network is back
        shell.context.faultControl?.setFaultProfile(.offline)
        for _ in 0..<2 { _ = shell.handle(.backspace) }
        await session.settle()
        let offline = HeadlessHarness.frame(of: session)
        #expect(Self.fieldLine(offline) == "Find: gra")
        #expect(
            lines(offline).contains {
                $0.trimmingCharacters(in: .whitespaces) == "offline: cannot search until the network is back"
            }, "\(offline)")
        shell.context.faultControl?.setFaultProfile(.perfect)
        await Self.type("c", into: session)
        let again = Self.rows(HeadlessHarness.frame(of: session))
        #expect(again.count == 1 && again.first?.contains("@grace") == true, "\(again)")
    }

    @Test(arguments: ShippedApp.withHome)
    func theHelp_listsSlashToFindPeople_andStillFits(app: ShippedApp) async throws {
        let session = try await KeyHelpScenarios.open(.home, in: app)
        defer { Task { await session.stop() } }
        let help = try KeyHelpScenarios.help(of: session)
        #expect(help.contains(KeyHelpScenarios.line("/", "find people")), "\(help)")
        #expect(help.last == "any key closes this help")
    }

    @Test(arguments: ShippedApp.all)
    func anOlderAnswer_neverReplacesTheAnswerToNewerText(app: ShippedApp) async throws {
        // Given the backend over HTTP, holding its answer to a search for "k" until released
        let directories = try TestDirectories.make()
        let backend = try directories.openBackend()
        let gate = Gate()
        let server = try HTTPServer.start(HTTPServer.Configuration(port: 0)) { request in
            if request.path == "/v1/accounts", request.queryValue("q") == "k" { await gate.wait() }
            return await backend.handle(request)
        }
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: directories,
            extraArguments: ["--server", server.baseURL.absoluteString])
        let shell = try #require(session.shell)

        // When the person types "k" (its answer held), then "a" (answered at once)
        _ = shell.handle(.character("/"))
        _ = shell.handle(.character("k"))
        _ = shell.handle(.character("a"))
        var rows: [String] = []
        for _ in 0..<500 where rows.isEmpty {
            try await Task.sleep(for: .milliseconds(10))
            rows = Self.rows(HeadlessHarness.frame(of: session))
        }
        #expect(
            rows.map { $0.split(separator: "@")[1].split(separator: " ")[0] } == [
                "karen", "katherine", "kathleen",
            ],
            "\(rows)")

        // And the answer to "k" arrives after it
        await gate.release()
        await session.settle()
        let after = HeadlessHarness.frame(of: session)

        // Then the answer to "ka" stays
        #expect(Self.rows(after) == rows, "\(after)")
        #expect(Self.fieldLine(after) == "Find: ka")
        #expect(
            lines(after)[3].trimmingCharacters(in: .whitespaces).isEmpty, "no problem is shown:\n\(after)")
        await session.stop()
        _ = await server.shutdown(gracePeriod: .seconds(2))
        backend.close()
    }
}

/// Holds requests until released.
private actor Gate {
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// Returns once the gate is open.
    func wait() async {
        guard !isOpen else { return }
        await withCheckedContinuation { waiters.append($0) }
    }

    /// Opens the gate for every request, held or to come.
    func release() {
        isOpen = true
        for waiter in waiters { waiter.resume() }
        waiters = []
    }
}
