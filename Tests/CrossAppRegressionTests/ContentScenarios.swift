import AppTesting
import Backend
import Composition
import Features
import Foundation
import Testing

/// Content every app must show its own way: kinds it does not know, the same post twice, a
/// resize, a push banner, a cold start offline, and the script language's guarantees.
@Suite @MainActor struct ContentScenarios {

    @Test(arguments: ShippedApp.withHome)
    func unknownMediaKind_rendersThroughTheFallbackRow_once_inPlace_andAfterAColdStartOffline(app: ShippedApp)
        async throws
    {
        // Given a post of a kind this build does not know between two photo posts
        let directories = try TestDirectories.make()
        let server = try directories.openBackend()
        try await BackendFixtures.post(
            on: server, as: "grace", text: "Just before the poll", attachmentsJSON: BackendFixtures.photoJSON)
        try await BackendFixtures.post(
            on: server, as: "grace", text: "Vote!",
            attachmentsJSON: #"[{"type": "poll", "options": ["tabs", "spaces"]}]"#)
        try await BackendFixtures.post(
            on: server, as: "grace", text: "Just after the poll", attachmentsJSON: BackendFixtures.photoJSON)
        server.close()
        let fallback = "▢ @grace posted a poll · now — this version can't show it yet"

        // When the app shows its feed, and the selection walks down over the poll and past it
        let run = await HeadlessHarness.run(
            app.definition, script: "wait\nframe\nkey j\nframe\nkey j\nframe\n", directories: directories,
            height: 40)
        #expect(run.status == 0, "\(run.errors)")
        try #require(run.frames.count == 3)

        // Then the poll is one fallback row, exactly where the server has it, between its
        // neighbours, and the selection stops on it like on any post
        let entries = feedEntries(run.frames[0])
        try #require(entries.count >= 3, "\(run.frames[0])")
        #expect(entries[0].joined(separator: " ").contains("Just after the poll"), "\(run.frames[0])")
        #expect(entries[1] == [fallback], "\(run.frames[0])")
        #expect(entries[2].joined(separator: " ").contains("Just before the poll"), "\(run.frames[0])")
        #expect(entries.filter { $0.contains(fallback) }.count == 1, "the poll shows once")
        #expect(!run.frames[0].contains("Vote!"), "the unknown post's text is not drawn as a post")
        #expect(selectedHeader(run.frames[1]) == fallback, "\(run.frames[1])")
        #expect(selectedHeader(run.frames[2])?.hasSuffix("@grace · now") ?? false, "\(run.frames[2])")
        #expect(run.frames[2].contains("Just before the poll"))

        // And a cold start offline shows the same entries from the cache, the poll still once and
        // in place
        let offline = await HeadlessHarness.run(
            app.definition, script: "wait\nframe\n", directories: directories, height: 40,
            extraArguments: ["--network", "offline"])
        #expect(offline.status == 0, "\(offline.errors)")
        #expect(offline.lastFrame.contains("offline: showing what was saved"))
        #expect(
            Array(feedEntries(offline.lastFrame).prefix(3)) == Array(entries.prefix(3)),
            "\(offline.lastFrame)")
    }

    @Test(arguments: ShippedApp.withHome)
    func samePostTwice_rendersTwiceWithNoDroppedRows(app: ShippedApp) async throws {
        let directories = try TestDirectories.make()
        let server = try directories.openBackend()
        let photo = try await BackendFixtures.post(
            on: server, as: "grace", text: "Twice seen", attachmentsJSON: BackendFixtures.photoJSON)
        try await BackendFixtures.repost(on: server, as: "donald", photo)
        server.close()

        let run = await HeadlessHarness.run(
            app.definition, script: "wait\nframe\n", directories: directories, height: 60)

        let frame = run.lastFrame
        #expect(frame.components(separatedBy: "Twice seen").count - 1 == 2)
        #expect(frame.contains("↻ Donald Fischer reposted"))
    }

    @Test(arguments: ShippedApp.withHome)
    func resize_rewrapsText(app: ShippedApp) async throws {
        let directories = try TestDirectories.make()
        let server = try directories.openBackend()
        let long =
            "This sentence is long enough to wrap differently at fifty columns than at eighty columns wide."
        try await BackendFixtures.post(
            on: server, as: "grace", text: long, attachmentsJSON: BackendFixtures.photoJSON)
        server.close()

        let run = await HeadlessHarness.run(
            app.definition, script: "wait\nframe\nresize 50 30\nframe\n", directories: directories, height: 30
        )

        #expect(run.frames.count == 2)
        let wide = run.frames[0].split(separator: "\n", omittingEmptySubsequences: false)
        let narrow = run.frames[1].split(separator: "\n", omittingEmptySubsequences: false)
        #expect(wide.allSatisfy { $0.count <= 80 })
        #expect(narrow.allSatisfy { $0.count <= 50 })
        #expect(narrow.count == 30)
        #expect(narrow.contains { $0.contains("fifty") })
        #expect(wide.contains { $0.contains("This sentence is long enough to wrap differently at fifty") })
    }

    @Test(arguments: ShippedApp.all)
    func pushEvent_showsABanner(app: ShippedApp) async throws {
        let run = await HeadlessHarness.run(
            app.definition,
            script: "wait\npush {\"kind\": \"reply\", \"from\": \"grace\", \"text\": \"agreed\"}\nframe\n",
            directories: try TestDirectories.make())

        let lines = run.lastFrame.split(separator: "\n")
        #expect(lines.count > 1 && lines[1] == "● ↩ @grace replied: \"agreed\"")
    }

    @Test(arguments: ShippedApp.withHome)
    func coldStartOffline_showsTheCachedFeed(app: ShippedApp) async throws {
        let directories = try TestDirectories.make()
        let first = await HeadlessHarness.run(
            app.definition, script: "wait\nframe\n", directories: directories)
        let second = await HeadlessHarness.run(
            app.definition, script: "wait\nframe\n", directories: directories,
            extraArguments: ["--network", "offline"])

        let content = { (frame: String) in
            frame.split(separator: "\n").dropFirst(2).prefix(10).joined(separator: "\n")
        }
        #expect(second.status == 0)
        #expect(content(second.lastFrame) == content(first.lastFrame))
        #expect(second.lastFrame.contains("offline: showing what was saved"))
    }

    @Test(arguments: ShippedApp.all)
    func failedExpectation_exitsOneWithTheFrameOnStandardError(app: ShippedApp) async throws {
        let run = await HeadlessHarness.run(
            app.definition, script: "wait\nexpect nothing like this\n",
            directories: try TestDirectories.make())

        #expect(run.status == 1)
        #expect(
            run.errors.hasPrefix(
                "<stdin>:2: error: expected the screen to show 'nothing like this'; the screen was:\n--- frame ---\n"
            ))
    }

    @Test(arguments: ShippedApp.all)
    func scriptError_namesTheLineBeforeAnythingRuns(app: ShippedApp) async throws {
        let run = await HeadlessHarness.run(
            app.definition, script: "wait\nkey pagedown\n", directories: try TestDirectories.make())

        #expect(run.status == 2)
        #expect(run.errors.hasPrefix("<stdin>:2: error: unknown key 'pagedown'"))
        #expect(run.output.isEmpty)
    }

    @Test(arguments: ShippedApp.all)
    func sameScript_givesTheSameFramesEveryRun(app: ShippedApp) async throws {
        let script = "wait\nframe\nkey j\nkey j\nkey enter\nwait\nframe\nkey esc\nframe\n"
        let first = await HeadlessHarness.run(
            app.definition, script: script, directories: try TestDirectories.make())
        let second = await HeadlessHarness.run(
            app.definition, script: script, directories: try TestDirectories.make())

        #expect(first.frames.count == 3)
        #expect(first.frames == second.frames)
    }
}
