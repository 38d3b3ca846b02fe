import AppTesting
import Backend
import Composition
import Features
import Foundation
import Testing

/// Content every app must show its own way: kinds it does not know, the same post twice, a
/// resize, a push banner, a cold start offline, and the script language's guarantees.
@Suite @MainActor struct ContentScenarios {

    @Test(arguments: ShippedApp.all)
    func unknownMediaKind_rendersThroughTheFallbackRow(app: ShippedApp) async throws {
        let directories = try TestDirectories.make()
        let server = try directories.openBackend()
        try await BackendFixtures.post(
            on: server, as: "grace", text: "Vote!",
            attachmentsJSON: #"[{"type": "poll", "options": ["tabs", "spaces"]}]"#)
        server.close()

        let run = await HeadlessHarness.run(app.definition, script: "wait\nframe\n", directories: directories)

        #expect(run.status == 0)
        #expect(run.lastFrame.contains("▢ @grace posted a poll · now — this version can't show it yet"))
    }

    @Test(arguments: ShippedApp.all)
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

    @Test(arguments: ShippedApp.all)
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

    @Test(arguments: ShippedApp.all)
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
