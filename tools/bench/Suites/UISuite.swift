import AppRuntime
@_spi(Testing) import Backend
import Basics
import Composition
import Features
import FeedCaching
import Foundation
import Mutations
import Synchronization
import TerminalUI
import Wire

/// The terminal UI end to end, headless, on the real app composition: launch to first frame
/// from a warm cache, scrolling one post at a time, a refresh that inserts above the fold, and
/// one like from key press to settled screen.
enum UISuite {
    static let entries = 1000

    static let suite = BenchSuite(
        name: "ui",
        summary:
            "headless app: launch to first frame (warm cache), scroll frame times, refresh redraw, one like"
    ) { runner in
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "bench-ui-\(UUID().uuidString)"
        ).path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let backendDirectory = root + "/backend"
        try FileManager.default.createDirectory(atPath: backendDirectory, withIntermediateDirectories: true)
        let server = try BackendServer(directory: backendDirectory, seed: 1, clock: ManualClock())
        // Enough recent posts from followed accounts that the viewer's feed has over 1,000 entries.
        for index in 0..<entries {
            try await BenchPosts.post(
                #"{"text": "Bench post \#(index): words enough to wrap across a line or two of the feed."}"#,
                as: BenchPosts.authors[index % BenchPosts.authors.count], key: "bench-\(index)", on: server)
        }
        server.close()

        let configuration = try LaunchConfiguration.parse(
            ["--headless", "--data-dir", root + "/data", "--backend-dir", backendDirectory],
            app: try BenchApps.textFirst().id,
            environment: [:], isTerminal: false)
        try await measure(runner, configuration)
    }

    /// A session of the text-first app at 80x24, its network settling at once on `clock`.
    @MainActor
    static func makeSession(_ configuration: LaunchConfiguration, clock: ManualClock) throws -> AppSession {
        AppSession(
            definition: try BenchApps.textFirst(), configuration: configuration, clock: clock,
            networkClock: InstantNetworkClock(base: clock), colorMode: .trueColor, width: 80, height: 24)
    }

    @MainActor
    static func measure(_ runner: BenchRunner, _ configuration: LaunchConfiguration) async throws {
        // Scroll through 1,000 entries, one post per key press, on a cold cache: loads come from
        // the server, then the cache; heights are measured off the UI actor and stored.
        let session = try makeSession(configuration, clock: ManualClock())
        try await session.launch()
        await session.settle()
        let (scroll, still) = await HeadlessScroll.run(session, presses: entries, timingRedraws: true)
        let wall = ContinuousClock()
        let cached = (try? session.app?.service(.feedCache)?.cache.count) ?? 0
        runner.log("scrolled \(entries) posts; \(cached) entries cached")
        let scrollSamples = Samples(scroll)
        runner.report(
            "scroll one post: key + frame (p99 target)", value: scrollSamples.median * 1e3,
            p90: scrollSamples.p90 * 1e3, p99: scrollSamples.p99 * 1e3, unit: .milliseconds,
            baseline: ("redraw of an unchanged frame", Samples(still).median * 1e3))
        runner.report(
            "scroll one post: p99 frame time", value: scrollSamples.p99 * 1e3, unit: .milliseconds,
            targets: [.atMost(4)])
        await session.stop()

        // Launch again on the warm cache: time to the first frame with the feed.
        var launches: [Double] = []
        var floors: [Double] = []
        for _ in 0..<(runner.quick ? 3 : 9) {
            let clock = ManualClock()
            let warm = try makeSession(configuration, clock: clock)
            let start = wall.now
            try await warm.launch()
            while warm.shell?.showsContent != true { await Task.yield() }
            blackHole(warm.render())
            launches.append((wall.now - start).seconds)
            await warm.settle()
            await warm.stop()

            // The floor: launching the services alone, no screen.
            let floorStart = wall.now
            let app = try await AppHost.launch(
                try BenchApps.textFirst(), values: configuration.launchValues(clock: clock))
            floors.append((wall.now - floorStart).seconds)
            await app.stop()
        }
        runner.report(
            "launch to first frame, warm cache of \(entries)", Samples(launches), unit: .milliseconds,
            baseline: ("launch services only, no UI", Samples(floors)), targets: [.atMost(50)])

        // A change (a like, a post) merges the whole Home again: on a long session's Home, that
        // merge is what the next frame waits for. A warm launch (the cache's heights in hand),
        // scrolled to the end of the cache.
        let long = try makeSession(configuration, clock: ManualClock())
        try await long.launch()
        await long.settle()
        guard let longFeed = long.shell?.currentScreen as? FeedScreen else {
            throw BenchSetupError("the text-first app's first screen is not the feed")
        }
        func merges() async -> [Double] {
            var samples: [Double] = []
            for _ in 0..<(runner.quick ? 5 : 20) {
                let start = wall.now
                longFeed.dataDidChange()
                samples.append((wall.now - start).seconds)
                await long.settle()
            }
            return samples
        }
        let shownAtLaunch = longFeed.postList.items.count
        let atLaunch = await merges()
        _ = await HeadlessScroll.run(long, presses: entries)
        runner.report(
            "merge Home after a change, \(longFeed.postList.items.count) posts shown",
            Samples(await merges()),
            unit: .milliseconds, baseline: ("the same, \(shownAtLaunch) shown at launch", Samples(atLaunch)),
            targets: [.atMost(4)],
            note: "what a like's next frame waits for: a warm launch scrolled to the cache's end")
        await long.stop()

        // A refresh that inserts 50 entries above the visible ones.
        let refreshing = try makeSession(configuration, clock: ManualClock())
        try await refreshing.launch()
        await refreshing.settle()
        for _ in 0..<5 { _ = refreshing.shell?.handle(.down) }
        await refreshing.settle()
        let frame2 = HeadlessScroll.frames(of: refreshing)
        _ = frame2()
        let feed = refreshing.shell?.currentScreen as? FeedScreen
        let selected = feed?.postList.selectedItem?.id
        // Posted through the app's own backend: a second server on its directory, with a clock
        // of its own, would end the app's session, and signing in again rebuilds Home (a full
        // redraw that is not the refresh's).
        guard let server = refreshing.app?.service(.embeddedBackend)?.embeddedTransport?.server else {
            throw BenchSetupError("the text-first app runs without its embedded backend")
        }
        for index in 0..<50 {
            try await BenchPosts.post(
                #"{"text": "Fresh \#(index)"}"#, as: "grace", key: "bench-refresh-\(index)", on: server)
        }
        feed?.refresh()
        await refreshing.settle()
        let update = frame2()
        let stillSelected = feed?.postList.selectedItem?.id == selected
        let visible =
            feed?.postList.view.visibleSections.contains(feed?.postList.selectedIndex ?? -1) ?? false
        runner.report(
            "refresh inserting 50 above: lines redrawn", value: Double(update.changedLineCount), unit: .count,
            baseline: ("full redraw", 24), targets: [.atMost(2)],
            note: "selected post kept: \(stillSelected && visible)")

        // One like, from the key press to the settled screen: how often the feed merged, and the
        // lines redrawn, against the change notices the mutation manager sent (each of which
        // used to cost a full merge of the feed).
        guard let feed, let manager = try? refreshing.app?.service(.mutationReplay)?.manager else {
            throw BenchSetupError("the refreshed session has no feed or mutation manager")
        }
        let notices = Counter()
        let observation = manager.observe { _ in notices.increment() }
        let rebuildsBefore = feed.rebuildCount
        _ = refreshing.shell?.handle(.character("l"))
        await refreshing.settle()
        let liked = frame2()
        observation.cancel()
        runner.report(
            "one like, key to settled screen: feed merges", value: Double(feed.rebuildCount - rebuildsBefore),
            unit: .count, baseline: ("change notices sent", Double(notices.value)), targets: [.atMost(1)])
        runner.report(
            "one like, key to settled screen: lines redrawn", value: Double(liked.changedLineCount),
            unit: .count, baseline: ("full redraw", 24), targets: [.atMost(1)])
        await refreshing.stop()
    }
}

/// A count bumped from any thread.
final class Counter: Sendable {
    private let count = Mutex(0)

    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}

struct BenchSetupError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
