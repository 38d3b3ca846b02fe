import AppRuntime
import AppTesting
import Backend
import Features
import Foundation
import MediaModel
import Sockets
import Storage
import Testing

/// Photos from disk, as a person attaches them: the picker lists a folder (folders, then
/// photos), the keys move through it and stop at its ends, two picks make a carousel with the
/// alt text written for it, and both apps show the post by their own rules. Bad files say what
/// is wrong and lose nothing.
@Suite @MainActor struct PhotoPickerScenarios {
    /// A folder with `trips/`, `a-pier.jpg` (wide), `b-dunes.png` (tall) and `notes.txt`.
    static func photosFolder() throws -> String {
        let folder = try TestPhotos.folder()
        try FileManager.default.createDirectory(atPath: folder + "/trips", withIntermediateDirectories: false)
        try TestPhotos.write("a-pier.jpg", in: folder, width: 96, height: 64)
        try TestPhotos.write(
            "b-dunes.png", in: folder, width: 64, height: 96, top: .init(red: 240, green: 220, blue: 160),
            bottom: .init(red: 200, green: 160, blue: 90))
        try TestPhotos.writeText("not a photo", as: "notes.txt", in: folder)
        try TestPhotos.write("harbor.jpg", in: folder + "/trips")
        return folder
    }

    /// The post with `text` on the server, decoded.
    static func serverPost(_ directories: TestDirectories, text: String) throws -> Media? {
        let server = try directories.openBackend()
        defer { server.close() }
        let rows = try server.database.query(
            "SELECT json FROM posts WHERE instr(CAST(json AS TEXT), ?) > 0", text)
        guard let row = rows.first else { return nil }
        return try JSONDecoder().decode(Media.self, from: try row.data(0))
    }

    static func selected(_ frame: String) -> [Substring] {
        lines(frame).map { $0.drop { $0 == " " } }.filter { $0.hasPrefix("▌") }
    }

    @Test(arguments: ShippedApp.withComposer)
    func twoPhotosPickedWithAltText_postACarousel_thatBothAppsShow(app: ShippedApp) async throws {
        // Given a folder of photos and the composer with a caption
        let folder = try Self.photosFolder()
        let directories = try TestDirectories.make()
        let text = "Low tide, two ways, from \(app.id)"

        // When the person opens the picker, moves past its first and last rows, picks both
        // photos, describes the first and posts
        let run = await HeadlessHarness.run(
            app.definition,
            script: """
                wait
                key n
                type \(text)
                key tab
                key up
                frame
                key down
                key down
                key enter
                key down
                key down
                key down
                frame
                key enter
                frame
                key esc
                key h
                key t
                type The pier at low tide
                key enter
                wait
                frame
                key enter
                wait
                frame

                """,
            directories: directories, height: 40, extraArguments: ["--photos-dir", folder])
        #expect(run.status == 0, "\(app.id): \(run.errors)")
        try #require(run.frames.count == 5, "\(app.id): \(run.output)")
        let (top, bottom, picked, composer, home) = (
            run.frames[0], run.frames[1], run.frames[2], run.frames[3], run.frames[4]
        )

        // Then the picker lists the folder above, the folder, then the photos, nothing else; up on
        // the first row stays there, down on the last stays there
        let rows = lines(top).dropFirst(5).prefix(5).map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(rows == ["▌▸ ../", "▸ trips/", "a-pier.jpg", "b-dunes.png", ""], "\(app.id):\n\(top)")
        #expect(lines(top)[4].contains("1 folder · 2 photos · 0 picked"), "\(app.id):\n\(top)")
        #expect(Self.selected(bottom).map { $0.trimmingCharacters(in: .whitespaces) } == ["▌  b-dunes.png"])
        #expect(
            Self.selected(picked).map { $0.trimmingCharacters(in: .whitespaces) } == ["▌  b-dunes.png  ✓ 2"])
        #expect(picked.contains("  a-pier.jpg  ✓ 1"), "\(app.id):\n\(picked)")
        #expect(picked.contains("1 folder · 2 photos · 2 picked"))
        #expect(!picked.contains("notes.txt"))

        // and the composer shows both previews, numbered, and the first one's alt text
        #expect(composer.contains("2 photos, a carousel"), "\(app.id):\n\(composer)")
        #expect(
            composer.contains("›1 a-pier.jpg") && composer.contains(" 2 b-dunes.png"),
            "\(app.id):\n\(composer)")
        #expect(composer.contains("alt 1: The pier at low tide"))
        #expect(
            lines(composer).filter { $0.contains("▀") }.count >= 4, "the previews are drawn:\n\(composer)")

        // and the server has one carousel of the two photos, in order, at their true sizes
        let post = try #require(
            try Self.serverPost(directories, text: text), "\(app.id): the post reached the server")
        guard case .carousel(let items) = try #require(post.attachments.first), post.attachments.count == 1
        else {
            Issue.record("\(app.id): one carousel, got \(post.attachments)")
            return
        }
        let photos = items.compactMap { item -> MediaModel.Attachment.Photo? in
            if case .photo(let photo) = item { return photo }
            return nil
        }
        #expect(photos.map { "\($0.width)x\($0.height)" } == ["96x64", "64x96"])
        #expect(photos.map(\.altText) == ["The pier at low tide", nil])
        #expect(post.kind == .carousel)

        // and home shows it at the top with its carousel marker, in the poster's app and the other
        #expect(home.contains(text), "\(app.id):\n\(home)")
        for viewer in ShippedApp.withHome {
            let seen = await HeadlessHarness.run(
                viewer.definition, script: "wait\nframe\n", directories: directories.sibling(), height: 60)
            let post = lines(seen.lastFrame).drop { !$0.contains(text) }
            #expect(!post.isEmpty, "\(viewer.id) shows \(app.id)'s carousel:\n\(seen.lastFrame)")
            #expect(
                seen.lastFrame.contains("◂ 1/2 ▸"), "\(viewer.id): the carousel marker:\n\(seen.lastFrame)")
            // each by its own rules: the photo-first app draws the photo above the caption, the
            // text-first app the text above the photo
            let shown = lines(seen.lastFrame)
            let header = try #require(shown.firstIndex { $0.contains("Ada Abbott @ada · ") })
            let textLine = try #require(shown[header...].firstIndex { $0.contains(text) })
            let artLine = try #require(shown[header...].firstIndex { $0.contains("▀") })
            #expect((artLine < textLine) == viewer.requiresPhoto, "\(viewer.id):\n\(seen.lastFrame)")
        }
    }

    @Test(arguments: ShippedApp.withComposer)
    func badFilesAndPaths_sayWhatIsWrong_andKeepTheDraft(app: ShippedApp) async throws {
        // Given a folder with a text file named like a photo, a JPEG cut short and a good one
        let folder = try TestPhotos.folder()
        try TestPhotos.writeText("not a photo", as: "broken.jpg", in: folder)
        let whole = try Data(
            contentsOf: URL(
                fileURLWithPath: try TestPhotos.write("whole.jpg", in: folder, width: 320, height: 240)))
        try FileManager.default.removeItem(atPath: folder + "/whole.jpg")
        try whole.prefix(whole.count - 40).write(to: URL(fileURLWithPath: folder + "/cut.jpg"))
        try TestPhotos.write("good.jpg", in: folder)
        let directories = try TestDirectories.make()
        let text = "Still here, \(app.id)"

        // When the person picks each of them, types a path that is not there, and posts
        let run = await HeadlessHarness.run(
            app.definition,
            script: """
                wait
                key n
                type \(text)
                key tab
                key down
                key enter
                frame
                type nowhere
                key enter
                frame
                key backspace
                key backspace
                key backspace
                key backspace
                key backspace
                key backspace
                key backspace
                key down
                key enter
                key down
                key enter
                key esc
                wait
                frame
                key enter
                frame
                key x
                key enter
                wait
                frame

                """,
            directories: directories, height: 30, extraArguments: ["--photos-dir", folder])
        #expect(run.status == 0, "\(app.id): \(run.errors)")
        try #require(run.frames.count == 5, "\(app.id): \(run.output)")
        let (broken, nowhere, previews, refused, posted) = (
            run.frames[0], run.frames[1], run.frames[2], run.frames[3], run.frames[4]
        )

        // Then a file that is not a photo is refused with what it is, and nothing is picked
        #expect(
            lines(broken)[28] == "✕ 'broken.jpg': not a JPEG or PNG file (it starts with 6E 6F 74 20)",
            "\(app.id):\n\(broken)")
        #expect(broken.contains("0 folders · 3 photos · 0 picked"))
        // and a path that is not there says so, the picker still listing its folder
        #expect(
            lines(nowhere)[28] == "✕ 'nowhere' does not exist: tab completes a path", "\(app.id):\n\(nowhere)"
        )
        #expect(nowhere.contains("  good.jpg"))
        // and the photo cut short shows why it cannot be read in place of its preview
        #expect(previews.contains("2 photos, a carousel"), "\(app.id):\n\(previews)")
        #expect(previews.contains("✕ JPEG file"), "\(app.id):\n\(previews)")
        // and posting is refused, naming the photo, with the text and photos kept
        #expect(
            lines(refused)[28] == "✕ photo 1 'cut.jpg': JPEG file ends early (truncated) · x removes it",
            "\(app.id):\n\(refused)")
        #expect(refused.contains(text) && refused.contains("2 photos, a carousel"))
        // and once it is removed, the post goes with the good photo
        #expect(posted.contains(text), "\(app.id):\n\(posted)")
        let post = try #require(try Self.serverPost(directories, text: text))
        guard case .photo(let photo) = try #require(post.attachments.first), post.attachments.count == 1
        else {
            Issue.record("\(app.id): one photo, got \(post.attachments)")
            return
        }
        #expect(photo.width == 96 && photo.height == 64)
    }

    @Test(arguments: ShippedApp.withComposer)
    func thePathLine_completesOpensFoldersAndGoesUp(app: ShippedApp) async throws {
        // Given the picker on the photos folder
        let folder = try Self.photosFolder()
        let run = await HeadlessHarness.run(
            app.definition,
            script: """
                wait
                key n
                key tab
                key tab
                frame
                type tr
                key tab
                frame
                type ../a
                key tab
                frame
                key enter
                key backspace
                frame
                type b
                key tab
                key enter
                type ..
                key enter
                frame

                """,
            directories: try TestDirectories.make(), height: 30, extraArguments: ["--photos-dir", folder])
        #expect(run.status == 0, "\(app.id): \(run.errors)")
        try #require(run.frames.count == 5, "\(app.id): \(run.output)")
        let (matches, trips, completed, up, root) = (
            run.frames[0], run.frames[1], run.frames[2], run.frames[3], run.frames[4]
        )

        // Then tab on an empty path lists what it could complete to, in the listing's order
        #expect(lines(matches)[28] == "3 matches: trips  a-pier.jpg  b-dunes.png", "\(app.id):\n\(matches)")
        // (the path line is cut at its start to fit: its end names the folder)
        let leaf = (folder as NSString).lastPathComponent
        let parentLeaf = ((folder as NSString).deletingLastPathComponent as NSString).lastPathComponent

        // and "tr" completes to the one folder it starts, which opens
        #expect(lines(trips)[2].hasSuffix(leaf + "/trips"), "\(app.id):\n\(trips)")
        #expect(lines(trips)[3] == " path: type a path, or pick below")
        #expect(trips.contains("0 folders · 1 photo · 0 picked") && trips.contains("  harbor.jpg"))
        // and a path into the folder above completes to the one photo it starts
        #expect(lines(completed)[3] == " path: ../a-pier.jpg", "\(app.id):\n\(completed)")
        // and enter picks it; backspace on the empty path goes up, the folder left selected
        #expect(lines(up)[2].hasSuffix("/" + leaf), "\(app.id):\n\(up)")
        #expect(Self.selected(up).map { $0.trimmingCharacters(in: .whitespaces) } == ["▌▸ trips/"])
        #expect(up.contains("  a-pier.jpg  ✓ 1"), "\(app.id):\n\(up)")
        // and "b" completes to the only match, enter picks it, ".." goes up once more
        #expect(lines(root)[2].hasSuffix("/" + parentLeaf), "\(app.id):\n\(root)")
        #expect(lines(root)[4].hasSuffix("· 2 picked"), "\(app.id):\n\(root)")
    }

    /// A folder whose path ends in 77 columns of fixed names, holding names too long for the
    /// screen, in two scripts: the same frame wherever the test runs.
    static func longNamesFolder() throws -> String {
        let folder =
            try TestPhotos.folder()
            + "/Summer at the harbor, the dunes and the lighthouse, with friends and family/Pictures"
        try FileManager.default.createDirectory(atPath: folder + "/trips", withIntermediateDirectories: true)
        try TestPhotos.write(
            "a very long file name of a photo taken at the harbor at dusk on a windy day.jpg", in: folder)
        try TestPhotos.write("b-dunes.png", in: folder)
        try TestPhotos.write("港の夕暮れ、風の強い日に撮った写真、友だちと家族と一緒に.jpg", in: folder)
        return folder
    }

    @Test(arguments: ShippedApp.withComposer, [80, 40])
    func thePicker_fitsLongNamesInTheScreen(app: ShippedApp, width: Int) async throws {
        // Given long folder and file names, in Latin and in wide characters
        let folder = try Self.longNamesFolder()

        // When the picker shows them with the long photo picked and the wide one selected
        let run = await HeadlessHarness.run(
            app.definition,
            script: "wait\nkey n\nkey tab\nkey down\nkey down\nkey enter\nkey down\nkey down\nframe\n",
            directories: try TestDirectories.make(), width: width, height: 24,
            extraArguments: ["--photos-dir", folder])
        #expect(run.status == 0, "\(app.id): \(run.errors)")

        // Then every line fits, each name cut with an ellipsis, the pick's mark kept whole
        let frame = run.lastFrame
        #expect(lines(frame).allSatisfy { DisplayColumns.of($0) <= width }, "\(app.id):\n\(frame)")
        #expect(lines(frame)[2].hasPrefix(" …") && lines(frame)[2].hasSuffix("/Pictures"), "\(frame)")
        #expect(lines(frame).contains { $0.hasSuffix("…  ✓ 1") }, "\(app.id):\n\(frame)")
        #expect(Self.selected(frame).count == 1 && Self.selected(frame)[0].contains("港の"), "\(frame)")
        GoldenFrames.check(frame, app: app.id, name: "photo-picker-\(width)x24", directory: goldenDirectory)
    }

    @Test(arguments: ShippedApp.withComposer)
    func theKeptDraft_keepsItsPhotosAndAltText_andDropsAFileThatIsGone(app: ShippedApp) async throws {
        // Given a draft with two photos, the first described
        let folder = try Self.photosFolder()
        let directories = try TestDirectories.make()
        let (session, _) = try await HeadlessHarness.session(app.definition, directories: directories)
        func composer() throws -> ComposerScreen {
            session.shell?.openTab(.compose)
            return try #require(session.shell?.currentScreen as? ComposerScreen)
        }
        let pier = folder + "/a-pier.jpg"
        let dunes = folder + "/b-dunes.png"
        try composer().attach(path: pier)
        try composer().attach(path: dunes)
        try composer().setAltText("The pier", ofPhotoAt: 0)
        session.shell?.openTab(.home)

        // When the app starts again
        try await session.restart()

        // Then the draft has both, in order, with the alt text
        #expect(
            try composer().files == [PickedPhoto(path: pier, altText: "The pier"), PickedPhoto(path: dunes)],
            "\(app.id)")

        // and when a photo's file is deleted, the composer drops it and says so
        session.shell?.openTab(.home)
        try FileManager.default.removeItem(atPath: dunes)
        #expect(try composer().files == [PickedPhoto(path: pier, altText: "The pier")], "\(app.id)")
        #expect(
            HeadlessHarness.frame(of: session).contains(
                "✕ 'b-dunes.png' is gone from disk: removed from the draft"),
            "\(app.id):\n\(HeadlessHarness.frame(of: session))")
        try await session.restart()
        #expect(
            try composer().files == [PickedPhoto(path: pier, altText: "The pier")], "and it stays dropped")
        await session.stop()
    }

    @Test(arguments: ShippedApp.withComposer)
    func attachAndAltInAScript_nameTheLineAndThePathWhenTheyCannotRun(app: ShippedApp) async throws {
        let folder = try Self.photosFolder()
        let cases: [(script: String, error: String)] = [
            (
                "wait\nattach \(folder)/a-pier.jpg\n",
                "<stdin>:2: error: 'attach' needs the composer open (key n opens it); the screen is 'Home'"
            ),
            ("key n\nattach nope.jpg\n", "<stdin>:2: error: cannot attach 'nope.jpg': the file is gone"),
            (
                "key n\nattach \(folder)/notes.txt\n",
                "<stdin>:2: error: cannot attach '\(folder)/notes.txt': not a JPEG or PNG file (it starts with 6E 6F 74 20)"
            ),
            ("key n\nalt A pier\n", "<stdin>:2: error: 'alt' needs a photo attached first ('attach PATH')"),
        ]
        for (script, error) in cases {
            let run = await HeadlessHarness.run(
                app.definition, script: script, directories: try TestDirectories.make())
            #expect(run.status == 1, "\(app.id): \(script)")
            #expect(run.errors == error + "\n", "\(app.id)")
        }
        #expect(
            HeadlessScriptErrorCheck.parse("attach")
                == "t.script:1: error: 'attach' needs the path of a JPEG or PNG file")
        #expect(HeadlessScriptErrorCheck.parse("alt") == "t.script:1: error: 'alt' needs the alt text")
    }

    @Test(arguments: ShippedApp.withComposer)
    func aRelativePathInAScript_isFromTheCurrentDirectory(app: ShippedApp) async throws {
        let folder = try Self.photosFolder()
        let depth = FileManager.default.currentDirectoryPath.split(separator: "/").count
        let relative = String(repeating: "../", count: depth) + folder.dropFirst() + "/a-pier.jpg"
        let directories = try TestDirectories.make()
        let run = await HeadlessHarness.run(
            app.definition,
            script:
                "wait\nkey n\ntype Relative from \(app.id)\nattach \(relative)\nalt Pier\nkey enter\nwait\n",
            directories: directories)
        #expect(run.status == 0, "\(app.id): \(run.errors)")
        let post = try #require(try Self.serverPost(directories, text: "Relative from \(app.id)"))
        guard case .photo(let photo) = try #require(post.attachments.first) else {
            Issue.record("\(app.id): a photo, got \(post.attachments)")
            return
        }
        #expect(photo.altText == "Pier")
    }
}

/// Parses a one-line script and returns its error, for the parse errors of `attach` and `alt`.
enum HeadlessScriptErrorCheck {
    static func parse(_ line: String) -> String? {
        do {
            _ = try HeadlessScript.parse(line, name: "t.script")
            return nil
        } catch {
            return error.description
        }
    }
}
