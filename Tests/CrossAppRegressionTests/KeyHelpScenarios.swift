import AppRuntime
import AppTesting
import Composition
import Features
import Mutations
import Sockets
import TerminalUI
import Testing

/// The keys a person is told about: the footer of each screen and the `?` help agree with each
/// other and with the keys the screen shown really takes, in each app's own words.
@Suite @MainActor struct KeyHelpScenarios {
    /// A screen a headless session can reach and open the help on.
    enum Place: String, CaseIterable, CustomTestStringConvertible {
        case home, thread, activity, profile, sync, composerPhotos

        var testDescription: String { rawValue }
    }

    /// Launches `app`, goes to `place` and returns the session (stop it when done).
    static func open(_ place: Place, in app: ShippedApp) async throws -> AppSession {
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: try TestDirectories.make())
        let shell = try #require(session.shell)
        switch place {
        case .home: break
        case .thread: _ = shell.handle(.enter)
        case .activity: shell.openTab(.activity)
        case .profile: shell.openTab(.profile)
        case .sync: shell.openTab(.mutations)
        case .composerPhotos:
            shell.openTab(.compose)
            let composer = try #require(shell.currentScreen as? ComposerScreen)
            try composer.attach(path: try TestPhotos.sample())
            _ = shell.handle(.tab)
        }
        await session.settle()
        return session
    }

    /// The status line of the session's frame.
    static func footer(of session: AppSession) -> String {
        let rows = HeadlessRenderer.lines(of: session.render().buffer)
        return rows[rows.count - 2]
    }

    /// Presses `?` and reads the help overlay off the frame.
    static func help(of session: AppSession) throws -> [String] {
        _ = session.shell?.handle(.character("?"))
        return try #require(HelpOverlayReader.lines(of: session), "the help is drawn")
    }

    /// The help's line for one key: the key column, then what it does.
    static func line(_ keys: String, _ does: String) -> String {
        "  " + keys + String(repeating: " ", count: max(13 - keys.count, 1)) + does
    }

    @Test(arguments: ShippedApp.withHome, Place.allCases)
    func theHelp_fitsTheScreenWithTheTabsAndHowToCloseIt(app: ShippedApp, place: Place) async throws {
        let session = try await Self.open(place, in: app)
        defer { Task { await session.stop() } }
        let tabs = try #require(session.shell?.tabs).map(\.title)

        let help = try Self.help(of: session)

        #expect(help.last == "any key closes this help", "the last line is not cut off")
        #expect(help.contains(Self.line("1–\(tabs.count)", tabs.joined(separator: ", "))))
        #expect(help.contains(Self.line("?", "this help")))
        #expect(help.contains(Self.line("q ctrl-c", "quit")))
        #expect(help.contains(Self.line("ctrl-z", "suspend (fg resumes)")))
    }

    @Test(arguments: ShippedApp.all)
    func syncHelp_listsRetryAndDiscardUnderMove(app: ShippedApp) async throws {
        let session = try await Self.open(.sync, in: app)
        defer { Task { await session.stop() } }
        #expect(Self.footer(of: session) == "j/k move · r retry now · x discard (failed changes)")

        let help = try Self.help(of: session)

        let move = try #require(help.firstIndex(of: Self.line("↑ ↓  j k", "move")))
        #expect(
            Array(help[move...].prefix(4)) == [
                Self.line("↑ ↓  j k", "move"), Self.line("r", "retry now"),
                Self.line("x", "discard (failed changes)"), "",
            ])
        #expect(help.filter { $0.hasPrefix("  r ") }.count == 1)
    }

    @Test(arguments: ShippedApp.withHome)
    func composerPhotosHelp_listsChooseAddRemoveMoveAndAltText_inTheFootersOrder(app: ShippedApp) async throws
    {
        let session = try await Self.open(.composerPhotos, in: app)
        defer { Task { await session.stop() } }
        #expect(
            Self.footer(of: session)
                == "←/→ choose · a add · x remove · t alt text · tab text · enter post · esc back")

        let help = try Self.help(of: session)

        let choose = try #require(help.firstIndex(of: Self.line("← →  h l", "choose a photo")))
        #expect(
            Array(help[choose...].prefix(10)) == [
                Self.line("← →  h l", "choose a photo"), Self.line("a", "add photos from disk"),
                Self.line("x delete", "remove the photo"), Self.line("< >", "move the photo"),
                Self.line("t", "write its alt text"), Self.line("tab", "back to text"),
                Self.line("enter", "post"), Self.line("esc", "back"),
                Self.line("ctrl-d", "discard the draft (press twice)"), "",
            ])
        // Esc is the composer's here (back to the feed, the draft kept), so the shell's back is only
        // backspace.
        #expect(help.contains(Self.line("⌫", "back")))
        #expect(!help.contains { $0.hasPrefix("  esc ⌫") })
    }

    @Test(arguments: ShippedApp.withHome)
    func photoPickerKeys_listMoveOpenCompleteUpAndDone_inTheFootersOrder(app: ShippedApp) async throws {
        // The picker's path line takes every printable key (`?` included), so its keys are read
        // from the table the help would show.
        let session = try await Self.open(.home, in: app)
        defer { Task { await session.stop() } }
        session.shell?.openTab(.compose)
        _ = session.shell?.handle(.tab)
        let picker = try #require(
            session.shell?.currentScreen as? PhotoPickerScreen, "\(app.id): tab opens it")
        #expect(Self.footer(of: session) == "type a path · ↑/↓ move · enter pick · tab complete · esc done")
        #expect(
            picker.keyBindings.map { "\($0.label) \($0.does)" } == [
                "type a path ", "↑ ↓ move", "enter open the folder or pick the photo",
                "tab complete the path",
                "backspace up a folder (when no path is typed)", "esc back to the post",
            ])
    }

    @Test(arguments: ShippedApp.withHome, [Place.home, .thread])
    func footerAndHelp_callAReplyWhatTheReplyModelCallsIt(app: ShippedApp, place: Place) async throws {
        let session = try await Self.open(place, in: app)
        defer { Task { await session.stop() } }
        let noun = try #require(session.shell?.context).registry[.replyModel].noun
        let footer = Self.footer(of: session)
        #expect(footer.contains(" · l like · r \(noun) · s repost"), "footer: \(footer)")

        let help = try Self.help(of: session)

        let like = try #require(help.firstIndex(of: Self.line("l", "like")))
        // The kinds' keys in their order (`MutationKind.all`), the reply's in the app's word, then p.
        let postKeys = MutationKind.all.compactMap(\.key).map { key in
            Self.line(String(key.character), key.action == .compose ? noun : key.help)
        }
        #expect(Array(help[like...].prefix(postKeys.count + 1)) == postKeys + [Self.line("p", "profile")])
        #expect(
            Array(postKeys.prefix(4)) == [
                Self.line("l", "like"), Self.line("r", noun), Self.line("s", "repost / undo repost"),
                Self.line("d", "delete"),
            ])
        #expect(
            !footer.contains("delete") && !footer.contains("profile"),
            "profile and delete are in the help only: the footer fits 80 columns")
        #expect(help.filter { $0.hasPrefix("  r ") }.count == 1)
    }

    @Test(arguments: ShippedApp.withHome, Place.allCases)
    func theHelp_listsTheScreensTableInOrder_thenTheShellKeysItLeavesToTheShell(app: ShippedApp, place: Place)
        async throws
    {
        let session = try await Self.open(place, in: app)
        defer { Task { await session.stop() } }
        let shell = try #require(session.shell)
        let screen = try #require(shell.currentScreen)
        let table = screen.keyBindings
        let footer = Self.footer(of: session)
        let status = screen.status

        let help = try Self.help(of: session)

        // The footer is the table's footer entries, in order (unless a status replaces it), and
        // it fits the line.
        let entries = table.compactMap(\.footerEntry)
        #expect(!entries.isEmpty)
        if let status {
            #expect(footer == status)
        } else {
            #expect(footer.split(separator: " · ").map(String.init) == entries)
        }
        // The heading, then every row of the screen's table in order, then a blank line.
        #expect(help.first == "Keys · \(screen.title)")
        let rows = table.map { Self.line($0.label, $0.does) }
        #expect(Array(help.dropFirst(1).prefix(rows.count + 1)) == rows + [""])
        // Then the shell's rows, less the keys the screen takes first, and how to close.
        let taken = Set(table.flatMap(\.keys))
        let shellRows = shell.keys.bindings.filter { !Set($0.keys).isSubset(of: taken) }
        #expect(help.count == 1 + rows.count + 1 + shellRows.count + 1)
        for binding in shellRows {
            #expect(help.dropFirst(2 + rows.count).contains { $0.hasSuffix(" " + binding.does) })
        }
    }

    @Test(arguments: ShippedApp.withHome, Place.allCases)
    func everyKeyOfTheScreensTable_isHandledByIt_andOtherPrintableKeysAreLeftToTheShell(
        app: ShippedApp, place: Place
    ) async throws {
        let session = try await Self.open(place, in: app)
        defer { Task { await session.stop() } }
        let screen = try #require(session.shell?.currentScreen)
        let keys = screen.keyBindings.flatMap(\.keys)
        #expect(Set(keys).count == keys.count, "no key is in two rows (the second would never work)")
        #expect(!screen.capturesText, "the help opens here, so printable keys are shortcuts")

        // A printable key outside the table is not the screen's: the shell gets it.
        let outside = "abcdefghijklmnopqrstuvwxyz0123456789?".filter { !keys.contains(.character($0)) }
        // (Most of them: every letter a screen or a kind of change has not taken, and the digits.)
        #expect(outside.count >= 20)
        for character in outside {
            #expect(!screen.handle(.character(character)), "\(character) is not in \(place)'s table")
        }
        // Every key in the table is.
        for key in keys {
            #expect(screen.handle(key), "\(key) is in \(place)'s table")
            await session.settle()
        }
    }

    @Test(arguments: ShippedApp.all, [Place.home, .sync])
    func theHelp_hidesTheScreenBehindIt(app: ShippedApp, place: Place) async throws {
        let session = try await Self.open(place, in: app)
        defer { Task { await session.stop() } }

        _ = session.shell?.handle(.character("?"))
        let rows = HeadlessRenderer.lines(of: session.render().buffer).map { Array($0) }

        // The box's top rule is the first content row; nothing of the screen shows beside the box
        // or below it, down to the status line.
        let top = rows[2]
        let left = try #require(top.firstIndex(of: "─"))
        let right = try #require(top.lastIndex(of: "─"))
        let bottom = try #require(
            (3..<(rows.count - 2)).first { rows[$0].count > left && rows[$0][left] == "─" })
        for y in 2..<(rows.count - 2) {
            let row = rows[y]
            let outside = row.indices.filter { x in y > bottom || x < left || x > right }
            #expect(outside.allSatisfy { row[$0] == " " }, "row \(y) shows the screen: \(String(row))")
        }
    }

    @Test(arguments: ShippedApp.withHome)
    func aHelpTallerThanTheScreen_takesTwoColumns_andStillShowsEveryKeyAndHowToClose(app: ShippedApp)
        async throws
    {
        let session = try await Self.open(.home, in: app)
        defer { Task { await session.stop() } }
        let shell = try #require(session.shell)
        let screen = try #require(shell.currentScreen)
        // Given Home's table with six more rows than an 80x24 terminal has room for, two of them
        // too long for a column
        let extra = [
            KeyBinding(keys: [.character("/")], does: "find people"),
            KeyBinding(keys: [.left, .right], label: "← →", does: "previous and next photo of a carousel"),
            KeyBinding(keys: [.character("u")], does: "undo your repost of the selected post"),
            KeyBinding(keys: [.character("b")], does: "bookmark"),
            KeyBinding(keys: [.character("c")], does: "copy the link"),
        ]
        let table = screen.keyBindings + extra
        let expected = HelpOverlay.lines(title: "Home", screen: table, shell: shell.keys.bindings)
        #expect(expected.count > 20, "more lines than the content area has rows")

        // When the help is drawn in an 80x24 terminal's content area (on pages of two columns,
        // should one more key of the app's own make it taller than two)
        let area = Rect(x: 0, y: 2, width: 80, height: 20)
        let pages = HelpOverlay.pageCount(in: area, title: "Home", screen: table, shell: shell.keys.bindings)
        var buffers: [ScreenBuffer] = []
        for page in 0..<pages {
            var buffer = ScreenBuffer(width: 80, height: 24)
            HelpOverlay.draw(
                into: &buffer, in: area, title: "Home", screen: table, shell: shell.keys.bindings, page: page,
                style: shell.context.style)
            buffers.append(buffer)
        }

        // Then every line of it is there, in order, and the last says how to close it
        let read = try buffers.map { try #require(HelpOverlayReader.lines(of: $0)) }
        #expect(read.flatMap { $0.dropFirst().dropLast() } == Array(expected.dropFirst().dropLast()))
        #expect(read.allSatisfy { $0.first == expected.first })
        #expect(
            read.last?.last
                == (pages == 1 ? "any key closes this help" : "page \(pages) of \(pages) · space: close"))
        // In two columns side by side, inside the content area
        let rows = HeadlessRenderer.lines(of: buffers[0])
        let like = try #require(rows.first { $0.contains(Self.line("l", "like")) })
        #expect(like.contains(" │   "), "another key beside it: \(like)")
        #expect(rows[22...].allSatisfy { !$0.contains("any key") }, "the status line and the tabs stay free")
    }

    /// A key that does nothing on the screen shown says so, briefly, and points at the help;
    /// the next key clears it.
    @Test(arguments: ShippedApp.all, Place.allCases.filter { $0 != .composerPhotos })
    func aKeyThatDoesNothing_saysSo(app: ShippedApp, place: Place) async throws {
        let session = try await Self.open(place, in: app)
        defer { Task { await session.stop() } }
        let before = Self.footer(of: session)

        _ = session.shell?.handle(.character("Z"))
        #expect(Self.footer(of: session) == "Z does nothing here; ? for help", "\(app.id) \(place)")
        _ = session.shell?.handle(.control("x"))
        #expect(Self.footer(of: session) == "ctrl-x does nothing here; ? for help", "\(app.id) \(place)")

        _ = session.shell?.handle(.character("j"))
        #expect(
            !Self.footer(of: session).contains("does nothing"), "\(app.id) \(place): a working key clears it")
        #expect(!before.contains("does nothing"))
    }

    /// On the welcome screen `?` shows its keys, and only the shell's keys that work there.
    @Test(arguments: ShippedApp.all)
    func theWelcomeHelp_listsItsKeysAndQuit(app: ShippedApp) async throws {
        let (session, _) = try await HeadlessHarness.firstLaunch(
            app.definition, directories: try TestDirectories.make())
        defer { Task { await session.stop() } }
        let shell = try #require(session.shell)
        #expect(shell.modal is OnboardingScreen)

        let help = try Self.help(of: session)

        #expect(help.contains { $0.contains("choose") }, "\(app.id): \(help)")
        #expect(help.contains { $0.contains("first / last") }, "\(app.id): \(help)")
        #expect(help.contains { $0.contains("quit") }, "\(app.id): \(help)")
        #expect(
            !help.contains { $0.contains("new post") || $0.contains("find people") }, "\(app.id): \(help)")
        _ = shell.handle(.character("x"))
        #expect(HelpOverlayReader.lines(of: session) == nil, "any key closes it")
        #expect(shell.modal is OnboardingScreen)
    }

    /// On a screen too small for every key in one column (50x20), the help pages: each page
    /// says which it is and that space shows the next; read page after page, it lists every
    /// line of the help, in order, none dropped.
    @Test(arguments: ShippedApp.withHome, Place.allCases)
    func theHelpAt50x20_pages_andListsEveryKey(app: ShippedApp, place: Place) async throws {
        let session = try await Self.open(place, in: app)
        defer { Task { await session.stop() } }
        session.resize(width: 50, height: 20)
        let shell = try #require(session.shell)
        let screen = try #require(shell.currentScreen)
        let expected = HelpOverlay.lines(
            title: screen.title, screen: screen.keyBindings, shell: shell.keys.bindings
        ).dropFirst().dropLast().filter { !$0.isEmpty }

        var read: [String] = []
        var page = try Self.help(of: session)
        var pages = 1
        while page.last?.hasSuffix("space: next") == true, pages < 10 {
            read += page.dropFirst().dropLast()
            _ = shell.handle(.character(" "))
            page = try #require(HelpOverlayReader.lines(of: session), "space shows the next page")
            pages += 1
        }
        read += page.dropFirst().dropLast()
        #expect(pages == 1 || page.last?.hasPrefix("page \(pages) of \(pages)") == true, "\(page.last ?? "")")
        #expect(read.filter { !$0.isEmpty } == Array(expected), "\(app.id) \(place): \(pages) pages")

        _ = shell.handle(.character(" "))
        #expect(HelpOverlayReader.lines(of: session) == nil, "space on the last page closes it")
    }

    /// At 50 columns the tab bar shows every tab (its number and glyph, the active one's title
    /// too), cutting none off: labels shorten before a tab disappears.
    @Test(arguments: ShippedApp.all)
    func theTabBarAt50Columns_showsEveryTab(app: ShippedApp) async throws {
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: try TestDirectories.make(), width: 50, height: 20)
        defer { Task { await session.stop() } }
        let shell = try #require(session.shell)
        for (index, tab) in shell.tabs.enumerated() {
            shell.openTab(at: index)
            await session.settle()
            let bar = String(lines(HeadlessHarness.frame(of: session)).last ?? "")
            #expect(bar.contains("[\(index + 1) \(tab.glyph) \(tab.title)]"), "\(app.id): \(bar)")
            for (other, item) in shell.tabs.enumerated() where other != index {
                #expect(bar.contains("\(other + 1) \(item.glyph)"), "\(app.id) tab \(other + 1): \(bar)")
            }
            #expect(!bar.contains("…"), "\(app.id): nothing cut: \(bar)")
        }
    }

    /// `--help`'s key summary names every letter key of the post lists (Home, a thread, a
    /// profile) and the paging keys: what a person reads before launching is what works.
    @Test(arguments: ShippedApp.all, [Place.home, .thread, .profile])
    func theHelpFlagsKeySummary_namesEveryLetterKeyOfTheLists(app: ShippedApp, place: Place) async throws {
        let session = try await Self.open(place, in: app)
        defer { Task { await session.stop() } }
        let screen = try #require(session.shell?.currentScreen)
        let help = LaunchConfiguration.keysHelp(.init(try #require(app.registry)))
        let words = Set(help.split { " ,/()".contains($0) || $0.isNewline }.map(String.init))

        for binding in screen.keyBindings {
            for case .character(let letter) in binding.keys where letter.isLetter {
                #expect(words.contains(String(letter)), "\(app.id) \(place): \(letter) (\(binding.does))")
            }
        }
        #expect(words.contains("pgdn") && words.contains("pgup"), "\(help)")
        #expect(words.contains("home") && words.contains("end"), "\(help)")
        #expect(words.contains("1–\(app.tabs.count)"), "\(app.id): every tab's key: \(help)")
        // The shell's keys too, each with what it does, as the `?` help says it.
        for binding in try #require(session.shell).keys.bindings {
            let phrase = binding.label.split(separator: " ").joined(separator: " ") + " " + binding.does
            #expect(help.split(whereSeparator: \.isNewline).joined().contains(phrase), "\(app.id): \(phrase)")
        }
    }
}
