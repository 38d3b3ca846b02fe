import AppRuntime
import AppTesting
import Backend
import Features
import Foundation
import MediaModel
import Mutations
import Sockets
import Storage
import TerminalUI
import Testing
import Wire

/// A person sets their display name and bio: `e` on their own profile, the limits tried at,
/// under and over (counted as they type, refused before anything is saved), a save while the
/// server is away kept as a change and sent when it is back, and the new name shown where names
/// show: the profile's header at once, and their posts on Home once the server has it.
@Suite @MainActor struct ProfileEditScenarios {
    static func press(_ key: Key, in session: AppSession) async {
        _ = session.shell?.handle(key)
        await session.settle()
    }

    static func type(_ text: String, in session: AppSession) async {
        for character in text { _ = session.shell?.handle(.character(character)) }
        await session.settle()
    }

    /// Empties the focused field of the editor.
    static func clear(_ field: TextField, in session: AppSession) async {
        field.buffer.moveToEnd()
        for _ in 0..<field.characterCount { _ = session.shell?.handle(.backspace) }
        await session.settle()
    }

    @Test(arguments: ShippedApp.all)
    func aNameAndBio_atUnderAndOverTheLimits_areSavedOrRefused_andShowWhereNamesShow(app: ShippedApp)
        async throws
    {
        // Given the viewer's own post (with a photo where Home needs one), and their profile open
        let directories = try TestDirectories.make()
        let (session, clock) = try await HeadlessHarness.session(app.definition, directories: directories)
        defer { Task { await session.stop() } }
        let shell = try #require(session.shell)
        if app.hasTab(.home) {
            let files =
                app.requiresPhoto || !app.showsTextPosts ? [PickedPhoto(path: try TestPhotos.sample())] : []
            let actions = try #require(shell.context.actions)
            #expect(actions.submit(Draft(text: "Notes on the engine, part one", files: files)))
            await session.settle()
        }
        shell.openTab(.profile)
        await session.settle()
        let keys = try #require(shell.currentScreen as? ProfileScreen, "\(app.id)").keyBindings
        let edit = try #require(
            keys.first { $0.keys == [.character("e")] }, "\(app.id): e on the own profile")
        #expect(edit.does == "edit your name and bio" && edit.footerLabel == "e")

        // When e opens the editor
        await Self.press(.character("e"), in: session)
        let editor = try #require(shell.currentScreen as? ProfileEditorScreen, "\(app.id)")
        let opened = HeadlessHarness.frame(of: session)
        #expect(opened.contains("Edit profile") && opened.contains("Ada Abbott"), "\(app.id):\n\(opened)")

        // Then a name one over the limit is counted as over, and refused before it is sent
        await Self.clear(editor.nameField, in: session)
        await Self.type(String(repeating: "n", count: 51), in: session)
        #expect(HeadlessHarness.frame(of: session).contains("51/50 · 1 over"), "\(app.id)")
        await Self.press(.enter, in: session)
        let refused = HeadlessHarness.frame(of: session)
        #expect(
            lines(refused)[lines(refused).count - 2].contains("✕ the name is 51 characters; 50 at most"),
            "\(app.id):\n\(refused)")
        #expect(shell.currentScreen === editor, "\(app.id): still editing")

        // And a bio one over its limit too
        _ = shell.handle(.backspace)
        await Self.press(.tab, in: session)
        #expect(editor.focus == .bio)
        await Self.clear(editor.bioField, in: session)
        _ = shell.handle(InputEvent.paste(String(repeating: "b", count: 301)))
        await Self.press(.enter, in: session)
        #expect(HeadlessHarness.frame(of: session).contains("✕ the bio is 301 characters; 300 at most"))

        // When both are at their limits (50 and 300), they are saved
        _ = shell.handle(.backspace)
        await Self.press(.enter, in: session)
        #expect(!(shell.currentScreen is ProfileEditorScreen), "\(app.id): saved and closed")
        let atLimits = HeadlessHarness.frame(of: session)
        #expect(atLimits.contains("name and bio saved"), "\(app.id):\n\(atLimits)")
        let check = try directories.openBackend()
        let saved = try check.database.queryFirst(
            "SELECT display_name, bio FROM users WHERE handle = 'ada'"
        ) { (try $0.string(0), try $0.string(1)) }
        check.close()
        #expect(
            saved?.0 == String(repeating: "n", count: 50) && saved?.1 == String(repeating: "b", count: 300))

        // When a short name and bio (under the limits) are saved while the server is away
        await Self.press(.character("e"), in: session)
        let second = try #require(shell.currentScreen as? ProfileEditorScreen)
        await Self.clear(second.nameField, in: session)
        await Self.type("  Ada L.  ", in: session)
        await Self.press(.tab, in: session)
        await Self.clear(second.bioField, in: session)
        await Self.type("Counting machines.", in: session)
        shell.context.faultControl?.setFaultProfile(.offline)
        await Self.press(.enter, in: session)

        // Then nothing is lost: they are kept as a change waiting to be sent, and the profile
        // shows the trimmed name and the bio at once
        #expect(!(shell.currentScreen is ProfileEditorScreen), "\(app.id): saved here and closed")
        let waiting = lines(HeadlessHarness.frame(of: session))
        #expect(waiting[2].contains("Ada L.  @ada"), "\(app.id):\n\(waiting.all)")
        #expect(waiting[3].contains("Counting machines."), "\(app.id):\n\(waiting.all)")
        let actions = try #require(shell.context.actions)
        #expect(actions.pendingChanges.map(\.title) == ["name and bio · \"Ada L.\""], "\(app.id)")
        let beforeSending = try directories.openBackend()
        #expect(
            try beforeSending.database.queryFirst("SELECT display_name FROM users WHERE handle = 'ada'") {
                try $0.string(0)
            } == String(repeating: "n", count: 50))
        beforeSending.close()

        // And once the server is back, the change is sent: the server has them, and the
        // profile still shows them (from the server now)
        shell.context.faultControl?.setFaultProfile(.perfect)
        clock.advance(by: RetryPolicy.standard.cap)
        await session.settle()
        #expect(actions.pendingChanges.isEmpty, "\(app.id): \(actions.pendingChanges.map(\.title))")
        let sent = try directories.openBackend()
        let server = try sent.database.queryFirst("SELECT display_name, bio FROM users WHERE handle = 'ada'")
        {
            (try $0.string(0), try $0.string(1))
        }
        sent.close()
        #expect(server?.0 == "Ada L." && server?.1 == "Counting machines.", "\(app.id)")
        shell.openTab(.profile)
        await session.settle()
        let header = lines(HeadlessHarness.frame(of: session))
        #expect(header[2].contains("Ada L.  @ada"), "\(app.id):\n\(header.all)")
        #expect(header[3].contains("Counting machines."), "\(app.id):\n\(header.all)")

        // And Home, where the app has one, shows the new name on the viewer's post
        guard app.hasTab(.home) else { return }
        shell.openTab(.home)
        await session.settle()
        let home = HeadlessHarness.frame(of: session)
        let post = try #require(
            lines(home).firstIndex { $0.contains("Notes on the engine") }, "\(app.id):\n\(home)")
        let postHeader = lines(home)[0...post].last { $0.contains("@ada ·") }
        #expect(
            postHeader?.contains("Ada L. @ada") == true,
            "\(app.id): the post's header has the new name:\n\(home)")
        #expect(!home.contains("Ada Abbott"), "\(app.id):\n\(home)")
    }
}
