import AppRuntime
import AppTesting
@_spi(Testing) import Backend
import Composition
import Features
import Foundation
import MediaModel
import Mutations
import PhotoTesting
import ServerAPI
import Sockets
import Storage
import Testing
import Wire

/// Photos picked from disk, posted in one app and seen in both: journaled with durable copies,
/// uploaded once, stored by the server, shown in each app's feed by its own rules.
@Suite @MainActor struct PhotoUploadScenarios {
    /// A JPEG and a PNG the test writes, with their alt texts.
    static func pickedPhotos() throws -> [PickedPhoto] {
        let folder = try TestPhotos.folder()
        return [
            PickedPhoto(
                path: try PhotoBytes.write(
                    PhotoBytes.jpeg(width: 1600, height: 1200), named: "harbour.jpg", in: folder),
                altText: "boats in the harbour"),
            PickedPhoto(
                path: try PhotoBytes.write(
                    PhotoBytes.png(width: 500, height: 500, blue: 200), named: "tile.png", in: folder),
                altText: "a blue tile"),
        ]
    }

    /// The post `id` as the server has it, read as ada.
    /// The ids of the `count` photos the server stored last, oldest first (the seed's own photos
    /// come before them).
    static func newestPhotoIDs(_ count: Int, on server: BackendServer) throws -> [String?] {
        // An upload is served by its random name; a photo stored before names by its row id.
        try server.database.query(
            "SELECT COALESCE(name, 'p' || id) FROM photos ORDER BY id DESC LIMIT ?", count
        ) { row in try row.string(0) }.reversed()
    }

    static func serverPost(_ id: MediaID, on server: BackendServer) async throws -> Media {
        let response = await server.handle(
            Request(
                .get, "/v1/posts/\(id.rawValue)",
                headers: ["Authorization": "Bearer \(server.testToken(forHandle: BackendSeed.firstHandle))"]))
        try #require(response.status == 200)
        return try WireFormat.decode(Media.self, from: response.body).payload
    }

    /// The stored photo ids of a carousel post, in order.
    static func photoIDs(_ media: Media) -> [String?] {
        guard case .carousel(let items)? = media.attachments.first else { return [] }
        return items.map { item in
            if case .photo(let photo) = item { return photo.id }
            return nil
        }
    }

    @Test(arguments: ShippedApp.withHome.filter(\.takesPhotos))
    func aPostWithTwoPhotosFromDisk_isOneCarouselInEveryAppsFeed(app: ShippedApp) async throws {
        // Given an app that takes photos, and a JPEG and a PNG on disk
        let directories = try TestDirectories.make()
        let picked = try Self.pickedPhotos()
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: directories)
        let shell = try #require(session.shell)
        let uploads = directories.data + "/uploads"

        // When the person posts them with a caption, offline
        shell.context.faultControl?.setFaultProfile(.offline)
        session.networkDidChange()
        let text = "Two from the harbour walk"
        let accepted = shell.context.actions?.submit(Draft(text: text, files: picked))
        #expect(accepted == true)
        await session.settle()

        // Then the post shows at once, before the server has it, with the photos' true sizes and
        // small renditions decoded from the copies, which are in the data directory
        let feed = try #require(shell.currentScreen as? FeedScreen)
        let optimistic = try #require(feed.items.first { $0.media.text == text }?.media)
        guard case .carousel(let shown)? = optimistic.attachments.first else {
            Issue.record("the optimistic post is not a carousel: \(optimistic.attachments)")
            return
        }
        let sizes = shown.compactMap { item -> String? in
            guard case .photo(let photo) = item else { return nil }
            return
                "\(photo.width)x\(photo.height) \(photo.pixels.width)x\(photo.pixels.height) \(photo.altText ?? "-")"
        }
        #expect(sizes == ["1600x1200 64x48 boats in the harbour", "500x500 64x64 a blue tile"])
        #expect(
            PhotoBytes.files(in: uploads).count == 2, "the copies are made before the change is journaled")

        // And once sent, the server's truth is one carousel of two stored photos, and the copies
        // are gone
        shell.context.faultControl?.setFaultProfile(.perfect)
        session.networkDidChange()
        await session.settle()
        #expect(shell.context.manager.pending.isEmpty && shell.context.manager.failed.isEmpty)
        let server = try #require(session.app?.service(.embeddedBackend)?.embeddedTransport?.server)
        let inApp = try #require(feed.items.first { $0.media.text == text }?.media)
        let uploaded = try Self.newestPhotoIDs(2, on: server)
        #expect(Self.photoIDs(inApp) == uploaded, "\(app.id)'s feed shows the server's post")
        let stored = try await Self.serverPost(inApp.id, on: server)
        #expect(Self.photoIDs(stored) == uploaded)
        #expect(PhotoBytes.files(in: uploads).isEmpty, "copies left: \(PhotoBytes.files(in: uploads))")
        await session.stop()

        // And every other app whose feed shows photos, on the same server, shows the post as a
        // carousel of two, with the text first when its layout puts the text above the media
        for other in ShippedApp.withHome where other.id != app.id && other.feed?.shows(.carousel) == true {
            let (reader, _) = try await HeadlessHarness.session(
                other.definition, directories: directories.sibling())
            let readerFeed = try #require(reader.shell?.currentScreen as? FeedScreen)
            let inReader = try #require(
                readerFeed.items.first { $0.media.text == text }?.media, "\(other.id)")
            #expect(Self.photoIDs(inReader) == uploaded, "\(other.id)")
            let frame = HeadlessHarness.frame(of: reader)
            await reader.stop()
            let rows = frame.split(separator: "\n").map(String.init)
            let textRow = try #require(rows.firstIndex { $0.contains(text) }, "\(frame)")
            let artRow = try #require(rows.firstIndex { $0.contains("▀") || $0.contains("▄") }, "\(frame)")
            let rowsOfPost = other.layout?.rows ?? []
            if let textIndex = rowsOfPost.firstIndex(of: .text),
                let mediaIndex = rowsOfPost.firstIndex(of: .media),
                textIndex + 1 == mediaIndex
            {
                #expect(
                    artRow == textRow + 1, "\(other.id) puts the text first, the photo under it:\n\(frame)")
            }
            #expect(
                rows[artRow...].first { $0.contains("◂") }?.contains("◂ 1/2 ▸") == true,
                "a carousel of two in \(other.id):\n\(frame)")
        }
    }

    @Test(arguments: ShippedApp.all.filter(\.takesPhotos), ["words.txt", "cut.jpg", "missing.jpg"])
    func aFileThatIsNotAPhoto_isRefusedAtSubmit_andNothingIsPostedOrCopied(app: ShippedApp, name: String)
        async throws
    {
        // Given an app that takes photos, and a picked file that cannot be posted
        let directories = try TestDirectories.make()
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: directories)
        defer { Task { await session.stop() } }
        let shell = try #require(session.shell)
        let jpeg = try PhotoBytes.jpeg(width: 800, height: 600)
        let folder = try TestPhotos.folder()
        let good = try PhotoBytes.write(jpeg, named: "good.jpg", in: folder)
        let path =
            switch name {
            case "words.txt": try PhotoBytes.write(Array("just words".utf8), named: name, in: folder)
            case "cut.jpg": try PhotoBytes.write(Array(jpeg.prefix(jpeg.count / 3)), named: name, in: folder)
            default: folder + "/" + name
            }
        let before = shell.context.manager.pending.count

        // When the person posts it after a good photo
        let accepted = shell.context.actions?.submit(
            Draft(text: "Should not go", files: [PickedPhoto(path: good), PickedPhoto(path: path)]))
        await session.settle()

        // Then the draft is refused, saying which file and why; nothing is journaled or copied
        #expect(accepted == false)
        let status = DeleteScenarios.status(HeadlessHarness.frame(of: session))
        let expected =
            switch name {
            case "words.txt":
                "✕ cannot attach 'words.txt': not a JPEG or PNG file (it starts with 6A 75 73 74)"
            case "cut.jpg": "✕ cannot attach 'cut.jpg': "
            default: "✕ cannot attach 'missing.jpg': there is no file at '\(path)'"
            }
        #expect(status.hasPrefix(String(expected.prefix(60))), "status: \(status)")
        #expect(shell.context.manager.pending.count == before)
        #expect(PhotoBytes.files(in: directories.data + "/uploads").isEmpty)
    }

    @Test(arguments: ShippedApp.all.filter(\.takesPhotos))
    func aPhotoOfExactlyTheLimit_isPostedAndStored_andOneByteMoreIsRefusedSayingBothSizes(app: ShippedApp)
        async throws
    {
        // Given an app that takes photos, a JPEG of exactly the 10 MiB a photo may be, and one a
        // byte longer
        let limit = 10 << 20
        let directories = try TestDirectories.make()
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: directories, width: 120)
        defer { Task { await session.stop() } }
        let shell = try #require(session.shell)
        let folder = try TestPhotos.folder()
        let atLimit = try PhotoBytes.jpeg(width: 640, height: 480, paddedTo: limit)
        let over = try PhotoBytes.jpeg(width: 640, height: 480, paddedTo: limit + 1)
        try #require(atLimit.count == limit && over.count == limit + 1)
        let atLimitPath = try PhotoBytes.write(atLimit, named: "at-limit.jpg", in: folder)
        let overPath = try PhotoBytes.write(over, named: "over.jpg", in: folder)

        // When the person posts the photo at the limit: in one app online, in the others offline
        // (the upload is the same shared code in each, and one of 10 MiB through the debug
        // build's JSON takes seconds)
        let uploads = app.id == ShippedApp.all.first(where: \.takesPhotos)?.id
        if !uploads {
            shell.context.faultControl?.setFaultProfile(.offline)
            session.networkDidChange()
        }
        let text = "Exactly as big as a photo may be"
        #expect(
            shell.context.actions?.submit(Draft(text: text, files: [PickedPhoto(path: atLimitPath)])) == true)
        await session.settle()
        #expect(shell.context.manager.failed.isEmpty, "\(shell.context.manager.failed)")
        guard uploads else {
            // Then it is journaled, waiting for the network, with its copy made
            #expect(shell.context.manager.pending.count == 1, "\(app.id): \(shell.context.manager.pending)")
            #expect(PhotoBytes.files(in: directories.data + "/uploads").count == 1)
            try await Self.refuseOneByteOver(overPath, in: session)
            return
        }

        // Then the server takes it: nothing waits, the server's post has the photo it stored, and
        // Home (in an app with one) shows that post
        #expect(shell.context.manager.pending.isEmpty, "\(shell.context.manager.pending)")
        let server = try #require(session.app?.service(.embeddedBackend)?.embeddedTransport?.server)
        let stored = try Self.newestPhotoIDs(1, on: server)
        let newest = try server.database.query("SELECT id FROM posts ORDER BY id DESC LIMIT 1") { row in
            try row.int64(0)
        }
        let onServer = try await Self.serverPost(MediaID("m\(try #require(newest.first))"), on: server)
        #expect(onServer.text == text, "\(app.id): the server's newest post")
        guard case .photo(let photo)? = onServer.attachments.first else {
            Issue.record("\(app.id): not one photo: \(onServer.attachments)")
            return
        }
        #expect([photo.id] == stored && photo.width == 640 && photo.height == 480)
        if app.hasTab(.home) {
            let feed = try #require(shell.currentScreen as? FeedScreen, "\(app.id) opens on Home")
            #expect(feed.items.first { $0.media.text == text }?.media == onServer, "\(app.id)")
        }
        try await Self.refuseOneByteOver(overPath, in: session)
    }

    /// Submits the photo at `path`, one byte over the limit: refused when it is attached, both
    /// sizes in bytes (in megabytes they would read the same), and nothing journaled.
    static func refuseOneByteOver(_ path: String, in session: AppSession) async throws {
        let shell = try #require(session.shell)
        let before = shell.context.manager.pending.count
        #expect(
            shell.context.actions?.submit(Draft(text: "One byte over", files: [PickedPhoto(path: path)]))
                == false)
        await session.settle()
        #expect(
            DeleteScenarios.status(HeadlessHarness.frame(of: session))
                == "✕ cannot attach 'over.jpg': it is 10485761 bytes and a photo may be at most 10485760 bytes"
        )
        #expect(shell.context.manager.pending.count == before)
    }

    @Test(arguments: ShippedApp.all.filter(\.takesPhotos))
    func photosTooBigTogetherForOnePost_areRefusedAtSubmit_andTheDraftIsKept(app: ShippedApp) async throws {
        // Given an app that takes photos and four photos of 9.5 MB each: each within the 10 MB a photo may be, but
        // together over what one post carries (as base64, about 50 MB against the server's 40)
        let directories = try TestDirectories.make()
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: directories)
        defer { Task { await session.stop() } }
        let shell = try #require(session.shell)
        let folder = try TestPhotos.folder()
        let big = try PhotoBytes.jpeg(width: 640, height: 480, paddedTo: 19 << 19)
        let files = try (1...4).map { try PhotoBytes.write(big, named: "big\($0).jpg", in: folder) }
        let before = shell.context.manager.pending.count

        // When the person posts them together
        let accepted = shell.context.actions?.submit(
            Draft(text: "Four big ones", files: files.map { PickedPhoto(path: $0) }))
        await session.settle()

        // Then the post is refused at once, saying so in a person's words, and nothing is
        // journaled, copied or sent (the draft stays with the composer)
        #expect(accepted == false)
        let status = DeleteScenarios.status(HeadlessHarness.frame(of: session))
        #expect(
            status.hasPrefix("✕ cannot post these 4 photos together: they come to 50.7 MB as sent"),
            "status: \(status)")
        #expect(shell.context.manager.pending.count == before)
        #expect(PhotoBytes.files(in: directories.data + "/uploads").isEmpty)

        // And three of them go in one post
        #expect(
            shell.context.actions?.submit(
                Draft(text: "Three big ones", files: files.prefix(3).map { PickedPhoto(path: $0) })) == true)
    }

    @Test(arguments: ShippedApp.all.filter(\.takesPhotos))
    func aCopyMissingAtSendTime_failsTheChangeWithAClearMessage(app: ShippedApp) async throws {
        // Given a photo post waiting offline, whose copy then disappears
        let directories = try TestDirectories.make()
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: directories, width: 140)
        defer { Task { await session.stop() } }
        let shell = try #require(session.shell)
        shell.context.faultControl?.setFaultProfile(.offline)
        session.networkDidChange()
        let picked = try Self.pickedPhotos()
        #expect(shell.context.actions?.submit(Draft(text: "Gone before sending", files: [picked[0]])) == true)
        await session.settle()
        let copies = PhotoBytes.files(in: directories.data + "/uploads")
        #expect(copies.count == 1)
        for copy in copies {
            try FileManager.default.removeItem(atPath: directories.data + "/uploads/" + copy)
        }

        // When the network is back and it is sent
        shell.context.faultControl?.setFaultProfile(.perfect)
        session.networkDidChange()
        await session.settle()

        // Then the change failed (nothing crashed), and Sync says why and what to do
        let manager = shell.context.manager
        #expect(manager.pending.isEmpty)
        let failed = try #require(manager.failed.first)
        #expect(
            failed.lastError?.contains("cannot be read (no such file)") == true, "\(failed.lastError ?? "")")
        let summary = try #require(shell.context.actions?.failedChanges.first)
        #expect(
            summary.problem
                == "client error: the photo file '\(directories.data)/uploads/\(copies[0])' this change uploads "
                + "cannot be read (no such file): discard the change and attach the photo again",
            "without the advice meant for a programmer")
    }

    @Test(arguments: ShippedApp.all.filter(\.takesPhotos))
    func aColdStartAfterTheUploadReachedTheServer_losesNothingAndStoresNothingTwice(app: ShippedApp)
        async throws
    {
        // Given a photo post journaled while offline
        let directories = try TestDirectories.make()
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: directories)
        let shell = try #require(session.shell)
        shell.context.faultControl?.setFaultProfile(.offline)
        session.networkDidChange()
        let text = "Sent once, whatever happens"
        #expect(shell.context.actions?.submit(Draft(text: text, files: try Self.pickedPhotos())) == true)
        await session.settle()
        let record = try #require(shell.context.manager.pending.first)
        let server = try #require(session.app?.service(.embeddedBackend)?.embeddedTransport?.server)

        // When its upload reaches the server (as a first attempt would) and the app dies before
        // the answer, then starts cold with the network back
        let request = try record.mutation.request(
            clientToken: record.token.rawValue,
            bearerToken: server.testToken(forHandle: BackendSeed.firstHandle))
        let first = await server.handle(request)
        #expect(first.status == 201)
        try await session.restart {}
        session.shell?.context.faultControl?.setFaultProfile(.perfect)
        session.networkDidChange()
        await session.settle()
        defer { Task { await session.stop() } }

        // Then the resent change is the same post: two photos stored once, the copies gone
        let manager = try #require(session.shell?.context.manager)
        #expect(manager.pending.isEmpty && manager.failed.isEmpty)
        let restarted = try #require(session.app?.service(.embeddedBackend)?.embeddedTransport?.server)
        let id = try #require(manager.serverID(of: record.token))
        let uploaded = try Self.newestPhotoIDs(2, on: restarted)
        #expect(
            Self.photoIDs(try await Self.serverPost(id, on: restarted)) == uploaded,
            "no photo was stored twice")
        // (Uploads are named at random, the seed's photos are not: every named photo is an upload.)
        let stored = try restarted.database.query("SELECT COUNT(*) FROM photos WHERE name IS NOT NULL") {
            try $0.int(0)
        }
        #expect(stored == [2], "the two photos were stored once: \(uploaded)")
        #expect(PhotoBytes.files(in: directories.data + "/uploads").isEmpty)
    }
}
