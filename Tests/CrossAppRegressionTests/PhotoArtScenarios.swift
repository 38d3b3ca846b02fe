import AppRuntime
import AppTesting
@_spi(Testing) import Backend
import Composition
import Features
import Foundation
import MediaModel
import PhotoTesting
import TerminalUI
import Testing
import Wire

/// A photo posted from disk is drawn in the feed from the stored variant's real pixels, at each
/// width, in the cells its placeholder took: the frame's text and every neighbour stay put when
/// the art arrives; offline, a cold start draws it from the disk cache at once.
@Suite @MainActor struct PhotoArtScenarios {
    /// Where an art grid is drawn in a frame: its top line and first column.
    struct Placement: Equatable {
        var line: Int
        var column: Int
    }

    /// The expected art of stored photo `photo` at `key`: the server's variant for the grid's
    /// width, decoded and scaled to the grid in linear light.
    static func expectedGrid(of photo: String, key: PhotoArtKey, on server: BackendServer) async throws
        -> RGBImage
    {
        let response = await server.handle(
            Request(
                .get, "/v1/photos/\(photo)", query: [QueryItem("width", String(key.pixelWidth))],
                headers: ["Authorization": "Bearer \(server.testToken(forHandle: BackendSeed.firstHandle))"]))
        try #require(response.status == 200)
        return try PhotoArtStore.grid(
            fromEncoded: [UInt8](response.body), key: key, background: PhotoArtStore.defaultBackground)
    }

    /// How many of the grid's cells differ from the frame's cells at `placement` (an upper pixel
    /// is a cell's foreground, a lower one its background; a cell that is not `▀` differs).
    static func differingCells(_ grid: RGBImage, in buffer: ScreenBuffer, at placement: Placement) -> Int {
        var differing = 0
        for line in 0..<((grid.height + 1) / 2) {
            for x in 0..<grid.width {
                let cell = buffer[placement.column + x, placement.line + line]
                let upper = grid.pixel(x: x, y: 2 * line)
                let lower = 2 * line + 1 < grid.height ? grid.pixel(x: x, y: 2 * line + 1) : nil
                let same =
                    cell.character == "▀" && cell.style.foreground == upper
                    && (lower == nil || cell.style.background == lower)
                if !same { differing += 1 }
            }
        }
        return differing
    }

    /// The first place in `buffer` where a run of `columns` `▀` cells starts a line below
    /// a line: where the post's photo is drawn (the newest post, at the top).
    static func placement(ofArt columns: Int, in buffer: ScreenBuffer) -> Placement? {
        for line in 0..<buffer.height {
            let cells = buffer.line(line).map(\.character)
            guard let first = cells.firstIndex(of: "▀") else { continue }
            let start = first - cells.startIndex
            if start + columns <= cells.count, cells[first..<(first + columns)].allSatisfy({ $0 == "▀" }) {
                return Placement(line: line, column: start)
            }
        }
        return nil
    }

    /// The frame's text without its first line.
    static func textBelowTitle(_ buffer: ScreenBuffer) -> String {
        HeadlessRenderer.text(of: buffer).split(separator: "\n", omittingEmptySubsequences: false).dropFirst()
            .joined(separator: "\n")
    }

    @Test(arguments: ShippedApp.withHome)
    func aPhotoFromDisk_isDrawnFromTheStoredVariantAtEachWidth_inItsPlaceholdersCells(app: ShippedApp)
        async throws
    {
        // Given the app, and a photo of 80 fine stripes on disk (detail a 64-pixel rendition
        // cannot hold)
        let directories = try TestDirectories.make()
        let folder = try TestPhotos.folder()
        let path = try PhotoBytes.write(
            PhotoBytes.stripedJPEG(width: 1600, height: 160, stripes: 80), named: "stripes.jpg", in: folder)
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: directories, width: 120, height: 40)
        let shell = try #require(session.shell)
        let server = try #require(session.app?.service(.embeddedBackend)?.embeddedTransport?.server)

        // When the person posts it, and it is stored
        let text = "Stripes on the pier"
        #expect(shell.context.actions?.submit(Draft(text: text, files: [PickedPhoto(path: path)])) == true)
        await session.settle()
        let feed = try #require(shell.currentScreen as? FeedScreen)
        let post = try #require(feed.items.first { $0.media.text == text })
        guard case .photo(let photo)? = post.media.attachments.first, let id = photo.id else {
            Issue.record("the post has no stored photo: \(post.media.attachments)")
            return
        }

        var expectedAtLastWidth: RGBImage?
        for width in [100, 80] {
            // When the width changes while offline (the variant cannot be fetched)
            shell.context.faultControl?.setFaultProfile(.offline)
            session.networkDidChange()
            session.resize(width: width, height: 40)
            await session.settle()
            _ = session.render()
            await session.settle()
            let before = session.render().buffer

            // And the network comes back
            shell.context.faultControl?.setFaultProfile(.perfect)
            session.networkDidChange()
            await session.settle()
            let after = session.render().buffer

            // Then the art is the stored variant's pixels scaled to the cells, where the
            // placeholder was; the placeholder was drawn from the rendition, plainly unlike it
            let layout = PostRenderer.photoArtLayout(
                photo, width: feed.postList.view.contentWidth, maxLines: shell.context.presentation.mediaLines
            )
            let key = PhotoArtKey(photoID: id, layout: layout)
            let expected = try await Self.expectedGrid(of: id, key: key, on: server)
            expectedAtLastWidth = expected
            let textOfAfter = HeadlessRenderer.text(of: after)
            let placed = Self.placement(ofArt: layout.columns, in: after)
            let place = try #require(placed, "\(textOfAfter)")
            #expect(Self.differingCells(expected, in: after, at: place) == 0, "at \(width) columns")
            #expect(
                Self.differingCells(expected, in: before, at: place) > layout.columns * layout.lines / 4,
                "before the variant arrives, \(width) columns: the placeholder is drawn")
            let placedBefore = Self.placement(ofArt: layout.columns, in: before)
            #expect(placedBefore == place)

            // And nothing moved: the frame's text (headers, captions, actions, the next posts) is
            // the same line for line
            // (below the title bar, which says "offline" before)
            let (textBefore, textAfter) = (Self.textBelowTitle(before), Self.textBelowTitle(after))
            #expect(textBefore == textAfter, "at \(width):\n\(textBefore)\n---\n\(textAfter)")
        }

        // When the app starts again offline, with the art on disk
        shell.context.faultControl?.setFaultProfile(.offline)
        session.networkDidChange()
        try await session.restart()
        defer { Task { await session.stop() } }
        await session.settle()

        // Then the first frame once the launch settles has the real art, from disk, fetching nothing
        let restarted = try #require(session.shell)
        let store = try #require(restarted.context.presentation.photoArt)
        let cold = session.render().buffer
        let expected = try #require(expectedAtLastWidth)
        let coldText = HeadlessRenderer.text(of: cold)
        let placed = Self.placement(ofArt: expected.width, in: cold)
        let place = try #require(placed, "\(coldText)")
        #expect(Self.differingCells(expected, in: cold, at: place) == 0)
        #expect(store.counts.fetched == 0 && store.counts.diskHits >= 1)
    }

    @Test(arguments: ShippedApp.withHome)
    func aPhotoOpenedFullScreenOffline_showsItsStoredPixelsOnceTheNetworkReturns(app: ShippedApp) async throws
    {
        // Given a photo posted from disk and stored, and the app offline
        let directories = try TestDirectories.make()
        let folder = try TestPhotos.folder()
        let path = try PhotoBytes.write(
            PhotoBytes.stripedJPEG(width: 1600, height: 800, stripes: 80), named: "stripes.jpg", in: folder)
        let (session, _) = try await HeadlessHarness.session(app.definition, directories: directories)
        defer { Task { await session.stop() } }
        let shell = try #require(session.shell)
        let server = try #require(session.app?.service(.embeddedBackend)?.embeddedTransport?.server)
        let text = "Stripes, full screen"
        #expect(shell.context.actions?.submit(Draft(text: text, files: [PickedPhoto(path: path)])) == true)
        await session.settle()
        let feed = try #require(shell.currentScreen as? FeedScreen)
        feed.postList.select(id: try #require(feed.items.first { $0.media.text == text }).id)
        let post = try #require(feed.items.first { $0.media.text == text })
        guard case .photo(let photo)? = post.media.attachments.first, let id = photo.id else {
            Issue.record("the post has no stored photo: \(post.media.attachments)")
            return
        }
        shell.context.faultControl?.setFaultProfile(.offline)
        session.networkDidChange()
        await session.settle()

        // When the person opens it full screen (its size there cannot be fetched yet)
        await DeleteScenarios.press(.character("v"), in: session)
        await session.settle()
        let before = session.render().buffer
        #expect(
            HeadlessRenderer.text(of: before).contains("1600 × 800"), "\(HeadlessRenderer.text(of: before))")

        // And the network comes back
        shell.context.faultControl?.setFaultProfile(.perfect)
        session.networkDidChange()
        await session.settle()
        let after = session.render().buffer

        // Then the viewer draws the stored variant's pixels in the cells its placeholder took
        let textAfter = HeadlessRenderer.text(of: after)
        let art = textAfter.split(separator: "\n", omittingEmptySubsequences: false).filter {
            $0.contains("▀")
        }
        let columns = try #require(art.first.map { $0.filter { $0 == "▀" }.count }, "\(textAfter)")
        let place = try #require(Self.placement(ofArt: columns, in: after), "\(textAfter)")
        var differing: [Int] = []
        for pixelHeight in [2 * art.count, 2 * art.count - 1] {
            let key = PhotoArtKey(photoID: id, pixelWidth: columns, pixelHeight: pixelHeight)
            let expected = try await Self.expectedGrid(of: id, key: key, on: server)
            differing.append(Self.differingCells(expected, in: after, at: place))
            if differing.last == 0 {
                #expect(
                    Self.differingCells(expected, in: before, at: place) > columns * art.count / 4,
                    "offline, the viewer draws the placeholder")
            }
        }
        #expect(differing.contains(0), "cells unlike the stored variant: \(differing)")
        #expect(Self.placement(ofArt: columns, in: before) == place, "nothing moved")
    }
}
