import AppRuntime
import AppTesting
import Backend
import Features
import Foundation
import ListEngine
import MediaModel
import TerminalUI
import Testing

/// A carousel as a person pages through it: ← and → on the selected post show its previous and
/// next photo in place, the marker under it follows, and nothing else on the screen moves.
@Suite @MainActor struct CarouselScenarios {
    /// A one-color photo of `width` × `height` pixels, as wire JSON.
    static func photo(width: Int, height: Int, rgb: [UInt8]) -> String {
        let pixels = Data((0..<(width * height)).flatMap { _ in rgb }).base64EncodedString()
        return "{\"type\": \"photo\", \"width\": \(width * 100), \"height\": \(height * 100), \"pixels\": "
            + "{\"width\": \(width), \"height\": \(height), \"rgb\": \"\(pixels)\"}}"
    }

    /// A carousel of three photos of different shapes (square, wide, tall), as wire JSON.
    static let carouselJSON =
        "[{\"type\": \"carousel\", \"items\": ["
        + [
            photo(width: 8, height: 8, rgb: [200, 80, 40]), photo(width: 16, height: 4, rgb: [40, 160, 90]),
            photo(width: 4, height: 8, rgb: [60, 60, 200]),
        ].joined(separator: ", ") + "]}]"

    /// The viewer's carousel post at the top of Home, selected.
    static func launch(_ app: ShippedApp) async throws -> (AppSession, FeedScreen, text: String) {
        let directories = try TestDirectories.make()
        let backend = try directories.openBackend()
        let text = "Three tide pools, \(app.id)"
        try await BackendFixtures.post(
            on: backend, as: BackendSeed.firstHandle, text: text, attachmentsJSON: carouselJSON)
        backend.close()
        let (session, _) = try await HeadlessHarness.session(app.definition, directories: directories)
        let feed = try #require(session.shell?.currentScreen as? FeedScreen)
        #expect(feed.postList.selectedItem?.media.text == text, "\(app.id): the carousel post is selected")
        return (session, feed, text)
    }

    /// The lines of a frame's selected post (those marked `▌`), with their line numbers.
    static func selectedLines(_ frame: String) -> [(index: Int, line: String)] {
        lines(frame).enumerated().filter { $0.element.hasPrefix("▌") }.map { ($0.offset, String($0.element)) }
    }

    /// Checks that `after` differs from `before` only in the selected post's photo and marker,
    /// and that the marker reads `marker`.
    static func expectOnlyThePhotoAndMarkerChanged(
        from before: String, to after: String, marker: String, _ app: ShippedApp,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let old = lines(before)
        let new = lines(after)
        #expect(old.count == new.count, sourceLocation: sourceLocation)
        let selected = selectedLines(after)
        #expect(
            selected.map(\.index) == selectedLines(before).map(\.index), "the post keeps its height",
            sourceLocation: sourceLocation)
        let markers = selected.filter { $0.line.contains("◂ ") }
        #expect(markers.map(\.line) == ["▌" + marker], "\(app.id):\n\(after)", sourceLocation: sourceLocation)
        let postLines = Set(selected.map(\.index))
        for index in old.indices where index < new.count && old[index] != new[index] {
            let inPost = postLines.contains(index)
            let isArt = [old[index], new[index]].allSatisfy {
                $0.contains("▀") || $0.trimmingCharacters(in: .whitespaces) == "▌"
            }
            let isMarker = markers.contains { $0.index == index }
            #expect(
                inPost && (isArt || isMarker),
                "\(app.id): line \(index) changed:\n\(old[index])\n\(new[index])",
                sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: ShippedApp.withHome)
    func rightAndLeft_pageTheSelectedCarousel_andOnlyItsPhotoAndMarkerChange(app: ShippedApp) async throws {
        let (session, feed, text) = try await Self.launch(app)
        defer { Task { await session.stop() } }
        let first = HeadlessHarness.frame(of: session)
        #expect(
            Self.selectedLines(first).filter { $0.line.contains("◂ ") }.map(\.line) == ["▌◂ 1/3 ▸  ● ○ ○"])
        let items = feed.items

        // When the person presses →
        await DeleteScenarios.press(.right, in: session)
        let second = HeadlessHarness.frame(of: session)

        // Then the second photo shows in place: the marker says so, nothing else moved
        Self.expectOnlyThePhotoAndMarkerChanged(from: first, to: second, marker: "◂ 2/3 ▸  ○ ● ○", app)
        #expect(second != first, "the wide photo replaces the square one")
        // one content change of that one post, through the list engine
        let plan = try #require(feed.postList.lastPlan)
        #expect(plan.sectionReloads.map(\.to) == [0], "\(plan)")
        #expect(plan.sectionInserts.isEmpty && plan.sectionDeletes.isEmpty && plan.sectionMoves.isEmpty)
        #expect(feed.items.map(\.id) == items.map(\.id))
        #expect(ListDiff.diff(old: items, new: feed.items).updates == [0])

        // When → again, then once more at the end
        await DeleteScenarios.press(.right, in: session)
        let third = HeadlessHarness.frame(of: session)
        Self.expectOnlyThePhotoAndMarkerChanged(from: second, to: third, marker: "◂ 3/3 ▸  ○ ○ ●", app)
        await DeleteScenarios.press(.right, in: session)
        let end = HeadlessHarness.frame(of: session)

        // Then it stops at the last photo, and says so
        #expect(lines(end).dropLast(2) == lines(third).dropLast(2), "no wrap to the first:\n\(end)")
        #expect(DeleteScenarios.status(end) == "last of 3 in this carousel", "\(end)")

        // And ← comes back, one photo at a time, and stops at the first
        await DeleteScenarios.press(.left, in: session)
        Self.expectOnlyThePhotoAndMarkerChanged(
            from: third, to: HeadlessHarness.frame(of: session), marker: "◂ 2/3 ▸  ○ ● ○", app)
        #expect(lines(HeadlessHarness.frame(of: session)).dropLast(2) == lines(second).dropLast(2))
        await DeleteScenarios.press(.left, in: session)
        await DeleteScenarios.press(.left, in: session)
        let start = HeadlessHarness.frame(of: session)
        #expect(lines(start).dropLast(2) == lines(first).dropLast(2), "back to the first:\n\(start)")
        #expect(DeleteScenarios.status(start) == "first of 3 in this carousel", "\(start)")
        #expect(feed.postList.selectedItem?.media.text == text)
    }

    @Test(arguments: ShippedApp.withHome)
    func theCarouselKeepsItsPlace_whileThePersonMovesAwayAndLikesIt(app: ShippedApp) async throws {
        let (session, feed, _) = try await Self.launch(app)
        defer { Task { await session.stop() } }

        // Given the second photo shown
        await DeleteScenarios.press(.right, in: session)

        // When the person moves down and back up, and likes the post
        await DeleteScenarios.press(.character("j"), in: session)
        await DeleteScenarios.press(.character("k"), in: session)
        await DeleteScenarios.press(.character("l"), in: session)
        let frame = HeadlessHarness.frame(of: session)

        // Then it still shows the second photo, with the like counted
        let selected = Self.selectedLines(frame).map(\.line)
        #expect(selected.filter { $0.contains("◂ ") } == ["▌◂ 2/3 ▸  ○ ● ○"], "\(app.id):\n\(frame)")
        #expect(selected.contains { $0.hasPrefix("▌♥ 1") }, "liked:\n\(frame)")
        #expect(feed.postList.selectedIndex == 0)
    }

    @Test(arguments: ShippedApp.withHome)
    func arrowsOnAPostWithoutACarousel_changeNothing_andSaySo(app: ShippedApp) async throws {
        let (session, feed, _) = try await Self.launch(app)
        defer { Task { await session.stop() } }
        let plain = try #require(
            feed.items.firstIndex { item in
                !item.media.attachments.contains { if case .carousel = $0 { true } else { false } }
            })
        for _ in 0..<plain { await DeleteScenarios.press(.character("j"), in: session) }
        let before = HeadlessHarness.frame(of: session)

        await DeleteScenarios.press(.right, in: session)
        let after = HeadlessHarness.frame(of: session)

        #expect(lines(after).dropLast(2) == lines(before).dropLast(2), "\(app.id):\n\(after)")
        #expect(DeleteScenarios.status(after) == "this post has no carousel")
        #expect(feed.postList.selectedIndex == plain)
    }
}
