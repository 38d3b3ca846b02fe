import AppRuntime
import AppTesting
import Backend
import Features
import Foundation
import MediaModel
import TerminalUI
import Testing

/// A photo opened full screen from a post: `v` shows the item the post's carousel is on as large
/// as the screen allows, with its position, its size and its alt text; ← and → page the carousel
/// there; esc goes back to the same place in the list, whose carousel shows the item last seen.
@Suite @MainActor struct PhotoViewerScenarios {
    /// The first photo's alt text: longer than an 80-column line, so it wraps.
    static let firstAlt =
        "Three tide pools at low tide, seen from the cliff path above the bay, with a heron standing in the "
        + "middle one"

    /// A one-color photo of `size` (its true size) drawn from `pixels` pixels, as wire JSON.
    static func photo(size: (Int, Int), pixels: (Int, Int), rgb: [UInt8], alt: String?) -> String {
        let data = Data((0..<(pixels.0 * pixels.1)).flatMap { _ in rgb }).base64EncodedString()
        return "{\"type\": \"photo\", \"width\": \(size.0), \"height\": \(size.1), "
            + (alt.map { "\"alt\": \"\($0)\", " } ?? "")
            + "\"pixels\": {\"width\": \(pixels.0), \"height\": \(pixels.1), \"rgb\": \"\(data)\"}}"
    }

    /// A carousel of a tall photo with a long description, a wide one with none, and a square one.
    static let carouselJSON =
        "[{\"type\": \"carousel\", \"items\": ["
        + [
            photo(size: (1080, 1440), pixels: (9, 12), rgb: [200, 80, 40], alt: firstAlt),
            photo(size: (1600, 400), pixels: (16, 4), rgb: [40, 160, 90], alt: nil),
            photo(size: (1080, 1080), pixels: (8, 8), rgb: [60, 60, 200], alt: "A crab"),
        ].joined(separator: ", ") + "]}]"

    /// A carousel of the tall photo, a 42-second video and an item of a kind this build does not
    /// know.
    static let mixedCarouselJSON =
        "[{\"type\": \"carousel\", \"items\": ["
        + photo(size: (1080, 1440), pixels: (9, 12), rgb: [200, 80, 40], alt: firstAlt)
        + ", {\"type\": \"video\", \"width\": 1920, \"height\": 1080, \"durationMs\": 42000, \"poster\": "
        + "{\"width\": 16, \"height\": 9, \"rgb\": \""
        + Data((0..<(16 * 9)).flatMap { _ in [230, 230, 230] as [UInt8] }).base64EncodedString() + "\"}}"
        + ", {\"type\": \"panorama\", \"degrees\": 360}]}]"

    /// A video of `width` × `height` pixels lasting `milliseconds`, with a small gray poster.
    static func video(width: Int, height: Int, milliseconds: Int) -> String {
        "{\"type\": \"video\", \"width\": \(width), \"height\": \(height), \"durationMs\": \(milliseconds), "
            + "\"poster\": {\"width\": 4, \"height\": 4, \"rgb\": \""
            + Data((0..<16).flatMap { _ in [120, 120, 120] as [UInt8] }).base64EncodedString() + "\"}}"
    }

    /// A carousel of two videos at the ends of the sizes the wire format takes: 1 pixel wide and a
    /// million high, then a million wide and 1 high.
    static let extremeVideosJSON =
        "[{\"type\": \"carousel\", \"items\": ["
        + video(width: 1, height: 1_000_000, milliseconds: 42_000) + ", "
        + video(width: 1_000_000, height: 1, milliseconds: 1_000) + "]}]"

    /// The viewer's post of `attachmentsJSON` (the carousel) on Home, selected, with one text
    /// reply; the session is `width` × `height`.
    static func launch(
        _ app: ShippedApp, width: Int = 80, height: Int = 24, colorMode: ColorMode = .trueColor,
        attachmentsJSON: String = carouselJSON
    ) async throws -> (AppSession, FeedScreen) {
        let directories = try TestDirectories.make()
        let backend = try directories.openBackend()
        let text = "Tide pools, \(app.id)"
        let id = try await BackendFixtures.post(
            on: backend, as: BackendSeed.firstHandle, text: text, attachmentsJSON: attachmentsJSON)
        try await BackendFixtures.reply(on: backend, as: BackendSeed.handles[1], to: id, text: "Lovely heron")
        backend.close()
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: directories, width: width, height: height, colorMode: colorMode)
        let feed = try #require(session.shell?.currentScreen as? FeedScreen)
        let post = try #require(feed.items.first { $0.media.text == text }, "\(app.id): the post is listed")
        feed.postList.select(id: post.id)
        await session.settle()
        #expect(feed.postList.selectedItem?.media.text == text, "\(app.id): the carousel post is selected")
        return (session, feed)
    }

    /// The content rows of a frame: between the title bar's rule and the status line.
    static func content(_ frame: String) -> [Substring] {
        Array(lines(frame).dropFirst(2).dropLast(2))
    }

    /// The rows of a frame's content that draw the photo (half blocks).
    static func art(_ frame: String) -> [Substring] {
        content(frame).filter { $0.contains("▀") }
    }

    /// The content rows after the line that reads `info`, trimmed and joined with spaces: what
    /// the viewer writes under the photo.
    static func textUnder(_ info: String, in frame: String) -> String? {
        let rows = content(frame).map { $0.trimmingCharacters(in: .whitespaces) }
        guard let index = rows.firstIndex(of: info) else { return nil }
        return rows[(index + 1)...].filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// The widest run of half blocks in `rows`, and the columns left and right of it.
    static func margins(_ rows: [Substring]) -> (left: Int, width: Int, right: Int)? {
        guard let row = rows.first else { return nil }
        let cells = Array(row)
        guard let first = cells.firstIndex(of: "▀"), let last = cells.lastIndex(of: "▀") else { return nil }
        return (first, last - first + 1, 80 - last - 1)
    }

    @Test(arguments: ShippedApp.withHome)
    func v_opensTheCarouselsPhotoFullScreen_pagesIt_andEscReturnsToTheListAtTheItemLastSeen(app: ShippedApp)
        async throws
    {
        let (session, feed) = try await Self.launch(app)
        defer { Task { await session.stop() } }
        let items = feed.items.map(\.id)
        let selected = try #require(feed.postList.selectedIndex)
        let inList = lines(HeadlessHarness.frame(of: session)).filter { $0.hasPrefix("▌▀") }.count

        // When the person presses v on the carousel post
        await DeleteScenarios.press(.character("v"), in: session)
        let first = HeadlessHarness.frame(of: session)

        // Then its first photo fills the screen, centred, larger than in the list, with its
        // position, size and whole description under it
        #expect(lines(first)[0].contains(" · Photo"), "\(app.id):\n\(first)")
        let firstArt = Self.art(first)
        #expect(firstArt.count > inList, "\(app.id): larger than the list's \(inList) lines:\n\(first)")
        let margins = try #require(Self.margins(firstArt))
        #expect(abs(margins.left - margins.right) <= 1, "centred: \(margins)\n\(first)")
        #expect(margins.width * 4 / 3 >= firstArt.count * 2 - 2, "the 3:4 shape kept: \(margins)")
        #expect(Self.textUnder("1/3 · 1080 × 1440", in: first) == Self.firstAlt, "\(app.id):\n\(first)")
        #expect(DeleteScenarios.status(first) == "←/→ previous / next · esc back", "\(first)")
        GoldenFrames.check(first, app: app.id, name: "photo-viewer-80x24", directory: goldenDirectory)

        // When → shows the wide photo, which has no description
        await DeleteScenarios.press(.right, in: session)
        let second = HeadlessHarness.frame(of: session)
        #expect(Self.textUnder("2/3 · 1600 × 400", in: second) == "no description", "\(app.id):\n\(second)")
        let secondArt = Self.art(second)
        #expect(secondArt.count < firstArt.count, "wide, so shorter:\n\(second)")
        #expect((Self.margins(secondArt)?.width ?? 0) > margins.width, "and wider:\n\(second)")

        // When → to the last, and → again at the end
        await DeleteScenarios.press(.right, in: session)
        let third = HeadlessHarness.frame(of: session)
        #expect(Self.textUnder("3/3 · 1080 × 1080", in: third) == "A crab", "\(app.id):\n\(third)")
        await DeleteScenarios.press(.right, in: session)
        let end = HeadlessHarness.frame(of: session)

        // Then it stays on the last photo, and says so
        #expect(lines(end).dropLast(2) == lines(third).dropLast(2), "no wrap to the first:\n\(end)")
        #expect(DeleteScenarios.status(end) == "last of 3 in this carousel", "\(end)")

        // When ← goes back one, and esc leaves
        await DeleteScenarios.press(.left, in: session)
        #expect(
            Self.textUnder("2/3 · 1600 × 400", in: HeadlessHarness.frame(of: session)) == "no description")
        await DeleteScenarios.press(.escape, in: session)
        let back = HeadlessHarness.frame(of: session)

        // Then the feed shows the same posts in the same order, the same one selected, its
        // carousel on the photo last seen
        #expect(session.shell?.currentScreen === feed, "\(app.id):\n\(back)")
        #expect(feed.items.map(\.id) == items)
        #expect(feed.postList.selectedIndex == selected)
        #expect(
            CarouselScenarios.selectedLines(back).map(\.line).filter { $0.contains("◂ ") } == [
                "▌◂ 2/3 ▸  ○ ● ○"
            ],
            "\(app.id):\n\(back)")
    }

    @Test(arguments: ShippedApp.withHome)
    func v_inTheThreadAndTheProfile_opensThePhoto_andOnATextReplySaysThereIsNone(app: ShippedApp)
        async throws
    {
        let (session, _) = try await Self.launch(app)
        defer { Task { await session.stop() } }

        // Given the carousel post's thread, its text reply selected
        await DeleteScenarios.press(.enter, in: session)
        let thread = try #require(session.shell?.currentScreen as? ThreadScreen, "\(app.id)")
        await DeleteScenarios.press(.character("j"), in: session)
        let reply = try #require(thread.postList.selectedIndex)
        #expect(thread.postList.selectedItem?.media.text == "Lovely heron")
        let before = HeadlessHarness.frame(of: session)

        // When v on the reply: nothing opens, and the status line says why
        await DeleteScenarios.press(.character("v"), in: session)
        let refused = HeadlessHarness.frame(of: session)
        #expect(session.shell?.currentScreen === thread)
        #expect(DeleteScenarios.status(refused) == "this post has no photo", "\(app.id):\n\(refused)")
        #expect(lines(refused).dropLast(2) == lines(before).dropLast(2))
        #expect(thread.postList.selectedIndex == reply)

        // When v on the post itself, → and esc
        await DeleteScenarios.press(.character("k"), in: session)
        await DeleteScenarios.press(.character("v"), in: session)
        #expect(Self.textUnder("1/3 · 1080 × 1440", in: HeadlessHarness.frame(of: session)) == Self.firstAlt)
        await DeleteScenarios.press(.right, in: session)
        await DeleteScenarios.press(.escape, in: session)

        // Then the thread shows the second photo of its carousel
        #expect(session.shell?.currentScreen === thread)
        let markers = CarouselScenarios.selectedLines(HeadlessHarness.frame(of: session)).map(\.line)
        #expect(markers.filter { $0.contains("◂ ") }.count == 1)
        #expect(markers.contains { $0.hasSuffix("◂ 2/3 ▸  ○ ● ○") }, "\(app.id): \(markers)")

        // And from the author's profile, v opens the same photo
        await DeleteScenarios.press(.character("p"), in: session)
        let profile = try #require(session.shell?.currentScreen as? ProfileScreen, "\(app.id)")
        await DeleteScenarios.press(.character("v"), in: session)
        let viewed = HeadlessHarness.frame(of: session)
        #expect(Self.textUnder("1/3 · 1080 × 1440", in: viewed) == Self.firstAlt, "\(app.id):\n\(viewed)")
        await DeleteScenarios.press(.escape, in: session)
        #expect(session.shell?.currentScreen === profile)
    }

    @Test(arguments: ShippedApp.withHome)
    func theViewer_fitsTinyAndLargeTerminals_drawsWithTheRampWithoutColor_andShowsVideosAndUnknownItems(
        app: ShippedApp
    ) async throws {
        // Given no color, in a 20x6 terminal, a carousel of a photo, a video and an unknown item
        let (session, _) = try await Self.launch(
            app, width: 20, height: 6, colorMode: .none, attachmentsJSON: Self.mixedCarouselJSON)
        defer { Task { await session.stop() } }

        // When the photo opens there, then the terminal grows to 100x30
        await DeleteScenarios.press(.character("v"), in: session)
        let tiny = HeadlessHarness.frame(of: session)
        session.resize(width: 100, height: 30)
        await session.settle()
        let large = HeadlessHarness.frame(of: session)

        // Then the large frame shows the whole photo drawn with the luminance ramp (no half
        // blocks), filling the height, with its size and description
        #expect(!large.contains("▀"), "\(large)")
        let ramp = Set(HalfBlockArt.luminanceRamp.filter { $0 != " " })
        func art(_ frame: String) -> [Substring] {
            Self.content(frame).filter { row in row.contains { ramp.contains($0) } && !row.contains("·") }
        }
        #expect(art(large).count >= 20, "\(app.id): the photo fills the height:\n\(large)")
        #expect(Self.textUnder("1/3 · 1080 × 1440", in: large) == Self.firstAlt, "\(app.id):\n\(large)")

        // When → to the video: its poster, wide, and what it is
        await DeleteScenarios.press(.right, in: session)
        let video = HeadlessHarness.frame(of: session)
        #expect(Self.textUnder("2/3 · ▶ video · 0:42 · 1920 × 1080", in: video) == "", "\(app.id):\n\(video)")
        func width(_ frame: String) -> Int {
            art(frame).first?.trimmingCharacters(in: .whitespaces).count ?? 0
        }
        #expect(!art(video).isEmpty && width(video) > width(large), "a wide poster:\n\(video)")

        // When → to the item this build does not know: the list's line for it
        await DeleteScenarios.press(.right, in: session)
        let unknown = HeadlessHarness.frame(of: session)
        #expect(
            Self.content(unknown).filter { $0.contains("▢ a panorama — this version can't show it yet") }
                .count
                == 1, "\(app.id):\n\(unknown)")
        #expect(Self.textUnder("3/3", in: unknown) == "", "\(app.id):\n\(unknown)")

        // And back at 20x6, paging again, every frame fits the terminal
        session.resize(width: 20, height: 6)
        await session.settle()
        var frames = [(tiny, 20, 6), (large, 100, 30), (HeadlessHarness.frame(of: session), 20, 6)]
        for key in [Key.left, .left, .left, .right] {
            await DeleteScenarios.press(key, in: session)
            frames.append((HeadlessHarness.frame(of: session), 20, 6))
        }
        for (frame, width, height) in frames {
            #expect(lines(frame).count == height, "\(app.id):\n\(frame)")
            #expect(lines(frame).allSatisfy { DisplayColumns.of($0) <= width }, "\(app.id):\n\(frame)")
        }
        #expect(lines(frames[4].0).dropLast(2) == lines(tiny).dropLast(2), "the photo again:\n\(frames[4].0)")
        #expect(DeleteScenarios.status(frames[5].0).hasPrefix("first of 3 in this"), "\(frames[5].0)")
    }

    @Test(arguments: ShippedApp.withHome)
    func videosAtTheEndsOfTheSizesTheWireTakes_areListedAndViewed_withTheirSizes(app: ShippedApp) async throws
    {
        // Given a post of two videos the server may send: one 1 pixel wide and 1,000,000 high,
        // one 1,000,000 wide and 1 high (the smallest and largest sides the format allows)
        let (session, feed) = try await Self.launch(app, attachmentsJSON: Self.extremeVideosJSON)
        defer { Task { await session.stop() } }
        let post = try #require(feed.postList.selectedItem)

        // Then the list shows the post as a carousel of two (the first video's poster), not an
        // item it cannot show
        guard case .carousel(let items)? = post.media.attachments.first else {
            Issue.record("\(app.id): not a carousel: \(post.media.attachments)")
            return
        }
        #expect(items.count == 2, "\(app.id): \(items)")
        let list = HeadlessHarness.frame(of: session)
        #expect(!list.contains("can't show it yet"), "\(app.id):\n\(list)")
        #expect(Self.content(list).filter { $0.contains("◂ 1/2 ▸  ● ○") }.count == 1, "\(app.id):\n\(list)")

        // When the person opens it full screen and pages to the second
        await DeleteScenarios.press(.character("v"), in: session)
        let tall = HeadlessHarness.frame(of: session)
        await DeleteScenarios.press(.right, in: session)
        let wide = HeadlessHarness.frame(of: session)

        // Then each says what it is and its size, and each frame fits the 80x24 terminal
        #expect(Self.textUnder("1/2 · ▶ video · 0:42 · 1 × 1000000", in: tall) == "", "\(app.id):\n\(tall)")
        #expect(Self.textUnder("2/2 · ▶ video · 0:01 · 1000000 × 1", in: wide) == "", "\(app.id):\n\(wide)")
        for frame in [list, tall, wide] {
            #expect(lines(frame).count == 24, "\(app.id):\n\(frame)")
            #expect(lines(frame).allSatisfy { DisplayColumns.of($0) <= 80 }, "\(app.id):\n\(frame)")
        }
    }
}
