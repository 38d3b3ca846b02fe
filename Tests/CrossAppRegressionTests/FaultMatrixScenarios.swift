import AppRuntime
import AppTesting
import Backend
import Basics
import Composition
import Features
import Foundation
import MediaModel
import Mutations
import ServerAPI
import Sockets
import Storage
import TerminalUI
import Testing
import Wire

/// Faults as a dimension: a seeded sequence of the viewer's changes (like, unlike, repost, undo
/// repost, post, reply, delete) runs under each network profile, with restarts at seeded points
/// and the clock moved across them. After every step the screen is checked against a model;
/// at the end the server, the client and the other app must all agree with it.
///
/// Replay one seed: `LOOM_FAULT_SEEDS=7 swift test --filter FaultMatrixScenarios`.
@Suite(.serialized) @MainActor struct FaultMatrixScenarios {
    @Test(arguments: ShippedApp.withHome, FaultCase.all)
    func seededChanges_underFaultsAndRestarts_convergeToTheModel(app: ShippedApp, fault: FaultCase)
        async throws
    {
        var run = try await FaultMatrixRun(app: app, fault: fault)
        for (index, step) in run.steps.enumerated() {
            run.label = "\(app.id), \(fault), step \(index + 1) of \(run.steps.count) (\(step))"
            try await run.perform(step)
            try await run.checkScreen()
        }
        try await run.converge()
        try await run.checkServer()
        try await run.checkOtherApp()
    }

    /// A cold start keeps the network it left: a script's `network offline` holds across
    /// `restart`, so changes waiting to be sent come back to the same conditions. The title
    /// still names who is signed in (from the saved session: the server cannot be asked).
    @Test(arguments: ShippedApp.withHome)
    func aRestart_keepsTheNetworkItLeft(app: ShippedApp) async throws {
        let run = await HeadlessHarness.run(
            app.definition,
            script: "wait\nnetwork offline\nkey l\nrestart\nwait\nframe\nkey \(app.syncKey)\nframe\n",
            directories: try TestDirectories.make(), width: 100)
        #expect(run.status == 0, "\(run.errors)")
        #expect(
            lines(run.frames[0])[0].hasSuffix(" offline @\(BackendSeed.firstHandle)"),
            "the title bar after the restart:\n\(run.frames[0])")
        #expect(run.frames[1].contains("Changes: 1 pending, 0 failed"), "\(run.frames[1])")
        #expect(run.frames[1].contains("no connection: it is sent when the network is back"))
    }
}

/// One cell of the matrix: a network profile and a seed. Its description names both, so a
/// failure says what to replay.
struct FaultCase: Sendable, CustomTestStringConvertible, CustomStringConvertible {
    /// The network the changes are made on (and restarted into).
    enum Profile: String, Sendable, CaseIterable {
        /// No faults: everything is confirmed at once.
        case perfect
        /// `FaultProfile.lossy`: 503 bursts, 429s and responses lost after the server applied
        /// the change; it stays so after restarts, and the final sends happen on it too.
        case lossy
        /// Offline throughout (restarts included), then back online at the end.
        case offlineThenBack = "offline-then-back"

        var faults: FaultProfile {
            switch self {
            case .perfect: .perfect
            case .lossy: .lossy
            case .offlineThenBack: .offline
            }
        }
    }

    var profile: Profile
    var seed: UInt64

    var description: String { "\(profile.rawValue) seed \(seed)" }
    var testDescription: String { description }

    /// The seeds CI runs, or those of `LOOM_FAULT_SEEDS` (comma separated) to replay.
    static let seeds: [UInt64] = {
        let given = ProcessInfo.processInfo.environment["LOOM_FAULT_SEEDS"]?
            .split(separator: ",").compactMap { UInt64($0.trimmingCharacters(in: .whitespaces)) }
        return given.flatMap { $0.isEmpty ? nil : $0 } ?? [1, 2]
    }()

    static let all = Profile.allCases.flatMap { profile in seeds.map { FaultCase(profile: profile, seed: $0) }
    }
}

/// One step of a seeded sequence.
enum FaultStep: CustomStringConvertible {
    /// Press `l` on target post `n`.
    case like(Int)
    /// Press `s` on target post `n`.
    case repost(Int)
    /// Reply to target post `n`.
    case reply(Int)
    /// Post a new photo post.
    case post
    /// Delete the viewer's `n`-th post made in this run (press `d` twice).
    case delete(Int)
    /// Stop, move the clock (hours forward, or a day back), launch again.
    case restart(clockHours: Int)
    /// Let time pass on the app's clock.
    case advance(seconds: Int)
    /// Resize the terminal to each size in turn (wider, narrower and very short, in a seeded
    /// order), walking Home to its end and back at each, then resize back.
    case resize([Size])

    /// A terminal's size.
    struct Size: CustomStringConvertible {
        var width: Int
        var height: Int
        var description: String { "\(width)x\(height)" }
    }

    /// The sizes of a resize step: wider, narrower, very short.
    static let resizes = [
        Size(width: 140, height: 40), Size(width: 60, height: 30), Size(width: 100, height: 9),
    ]

    var description: String {
        switch self {
        case .like(let n): "l on post \(n)"
        case .repost(let n): "s on post \(n)"
        case .reply(let n): "reply to post \(n)"
        case .post: "new post"
        case .delete(let n): "delete own post \(n)"
        case .restart(let hours): "restart, clock \(hours > 0 ? "+" : "")\(hours)h"
        case .advance(let seconds): "advance \(seconds)s"
        case .resize(let sizes):
            "resize to \(sizes.map(\.description).joined(separator: ", then ")), walking Home"
        }
    }

    /// Ten steps from `seed`: changes over three posts, with two restarts at seeded points (one
    /// with the clock hours ahead, one with it a day back), then a resize put in at a seeded
    /// point (its size seeded too).
    static func sequence(seed: UInt64) -> [FaultStep] {
        var steps = changes(seed: seed)
        var random = SplitMix64(seed: seed &* 0xD1B5_4A32_D192_ED03 &+ 0x512E)
        steps.insert(
            .resize(resizes.shuffled(using: &random)), at: 1 + Int(random.next() % UInt64(steps.count)))
        return steps
    }

    /// The ten steps of changes and restarts.
    private static func changes(seed: UInt64) -> [FaultStep] {
        var random = SplitMix64(seed: seed &* 0x9E37_79B9_7F4A_7C15 &+ 0xFA17)
        let count = 10
        var restarts: Set<Int> = []
        while restarts.count < 2 { restarts.insert(2 + Int(random.next() % UInt64(count - 2))) }
        // One restart moves the clock forward by hours, the other back by a day; which is first
        // is seeded too.
        let backADay = random.next() % 2 == 0 ? restarts.min() : restarts.max()
        var ownPosts = 0
        return (0..<count).map { index in
            if restarts.contains(index) {
                return .restart(clockHours: index == backADay ? -24 : 1 + Int(random.next() % 6))
            }
            let draw = random.next() % 100
            let target = Int(random.next() % 3)
            switch draw {
            case ..<26: return .like(target)
            case ..<44: return .repost(target)
            case ..<58: return .reply(target)
            case ..<88 where draw >= 74 && ownPosts > 0: return .delete(Int(random.next() % UInt64(ownPosts)))
            case ..<88:
                ownPosts += 1
                return .post
            default: return .advance(seconds: 1 + Int(random.next() % 90))
            }
        }
    }
}

/// What the viewer should see: the server's counts when the run began, plus every change made.
struct FaultModel {
    struct Target {
        var id: MediaID
        var liked: Bool
        var likes: Int
        var replies: Int
        var reposts: Int
        var reposted: Bool

        var counts: Counts {
            Counts(liked: liked, likes: likes, replies: replies, reposts: reposts, reposted: reposted)
        }
    }

    struct OwnPost {
        var text: String
        var deleted = false
    }

    var targets: [Target]
    var posts: [OwnPost] = []
    var replies: [(parent: MediaID, text: String)] = []
}

/// The state of one matrix run: the session, its clock, the model, and the label of the step
/// under way (every expectation's message starts with it).
@MainActor
struct FaultMatrixRun {
    let app: ShippedApp
    let fault: FaultCase
    let directories: TestDirectories
    let session: AppSession
    let clock: ManualClock
    let steps: [FaultStep]
    var model: FaultModel
    var label: String

    init(app: ShippedApp, fault: FaultCase) async throws {
        self.app = app
        self.fault = fault
        directories = try TestDirectories.make()
        (session, clock) = try await HeadlessHarness.session(
            app.definition, directories: directories, width: Self.width, height: Self.height,
            extraArguments: ["--seed", "\(fault.seed)"])
        steps = FaultStep.sequence(seed: fault.seed)
        label = "\(app.id), \(fault), before the first step"
        let feed = try #require(session.shell?.currentScreen as? FeedScreen)
        // Three photo posts of other people near the top: both apps show them.
        let targets = feed.items.filter { item in
            item.media.author.handle != BackendSeed.firstHandle
                && item.media.attachments.contains { if case .photo = $0 { true } else { false } }
        }
        var seen: Set<MediaID> = []
        let chosen = targets.filter { seen.insert($0.media.id).inserted }.prefix(3)
        try #require(chosen.count == 3, "\(label): three photo posts on Home")
        model = FaultModel(
            targets: chosen.map { item in
                FaultModel.Target(
                    id: item.media.id, liked: item.facts.viewerLiked, likes: item.facts.likeCount,
                    replies: item.facts.replyCount, reposts: item.facts.repostCount,
                    reposted: item.facts.viewerReposted)
            })
        if fault.profile != .perfect {
            session.shell?.context.faultControl?.setFaultProfile(fault.profile.faults)
            session.networkDidChange()
        }
    }

    var shell: AppShell? { session.shell }
    var manager: MutationManager? { session.shell?.context.manager }
    var cap: Duration { RetryPolicy.standard.cap }

    // MARK: Steps

    mutating func perform(_ step: FaultStep) async throws {
        switch step {
        case .like(let n):
            let feed = try await home()
            try await select(model.targets[n].id, in: feed)
            await press("l")
            model.targets[n].liked.toggle()
            model.targets[n].likes += model.targets[n].liked ? 1 : -1
        case .repost(let n):
            let feed = try await home()
            try await select(model.targets[n].id, in: feed)
            await press("s")
            model.targets[n].reposted.toggle()
            model.targets[n].reposts += model.targets[n].reposted ? 1 : -1
        case .reply(let n):
            let feed = try await home()
            try await select(model.targets[n].id, in: feed)
            let media = try #require(feed.postList.selectedItem?.media, "\(label)")
            let text = "Reply \(model.replies.count + 1) from \(app.id), \(fault)"
            shell?.context.actions?.submit(Draft(text: text, replyingTo: media))
            await session.settle()
            model.targets[n].replies += 1
            model.replies.append((media.id, text))
        case .post:
            let text = "Photo \(model.posts.count + 1) from \(app.id), \(fault)"
            shell?.context.actions?.submit(
                Draft(text: text, files: [PickedPhoto(path: try TestPhotos.sample())]))
            await session.settle()
            model.posts.append(FaultModel.OwnPost(text: text))
        case .delete(let n):
            guard !model.posts[n].deleted else { return }
            let text = model.posts[n].text
            let feed = try await home()
            let item = try #require(
                feed.items.first { $0.media.text == text }, "\(label): \"\(text)\" on Home")
            feed.postList.select(id: item.id)
            let waiting = !item.isConfirmed
            await press("d")
            let asked = DeleteScenarios.status(HeadlessHarness.frame(of: session))
            #expect(
                asked.hasPrefix(
                    waiting ? "this post is not on the server yet" : "press d again to delete this post"),
                "\(label): d on the viewer's own post says \"\(asked)\"")
            await press("d")
            if waiting {
                // A post the server does not have yet cannot be deleted; the status line says so.
                let frame = HeadlessHarness.frame(of: session)
                #expect(frame.contains("this post is not on the server yet"), "\(label): why not\n\(frame)")
            } else {
                model.posts[n].deleted = true
            }
        case .restart(let hours):
            let clock = clock
            try await session.restart {
                if hours > 0 {
                    clock.advance(by: .seconds(hours * 3600))
                } else {
                    clock.stepBack(by: .seconds(-hours * 3600))
                }
            }
            await session.settle()
        case .advance(let seconds):
            clock.advance(by: .seconds(seconds))
            await session.settle()
        case .resize(let sizes):
            let feed = try await home()
            let before = feed.postList.selectedItem?.id
            for size in sizes {
                session.resize(width: size.width, height: size.height)
                await session.settle()
                try await checkLayout(feed, "at \(size)")
                // Walk to the end of what Home holds and back, a post at a time at the end.
                await press("G")
                try await checkLayout(feed, "at \(size), at the end")
                await press("k")
                try await checkLayout(feed, "at \(size), a post above the end")
                await press("g")
                try await checkLayout(feed, "at \(size), back at the top")
            }
            if let before { feed.postList.select(id: before) }
            session.resize(width: Self.width, height: Self.height)
            await session.settle()
            try await checkLayout(feed, "back at \(Self.width)x\(Self.height)")
        }
    }

    /// The size the runs start at (and come back to after a resize).
    static let width = 100
    static let height = 40

    /// The frame fills the screen, the selection is on it, and every post on it takes the lines
    /// it draws at the width now (the oracle's layout rules).
    func checkLayout(_ feed: FeedScreen, _ place: String) async throws {
        let (buffer, _) = session.render()
        let lines = HeadlessRenderer.lines(of: buffer)
        #expect(lines.count == buffer.height, "\(label) \(place): \(lines.count) lines drawn")
        let problems = ScreenOracle.layoutViolations(of: feed.postList)
        #expect(problems.isEmpty, "\(label) \(place): \(problems)\n\(HeadlessHarness.frame(of: session))")
    }

    // MARK: Checks

    /// Home shows the model (each target's counts and flags; each own post once, or gone), a
    /// post still waiting is marked sending, and the Sync tab lists what waits with a true
    /// reason and a next try within the policy's cap.
    func checkScreen() async throws {
        let manager = try #require(manager, "\(label): the app runs")
        if fault.profile == .perfect {
            #expect(manager.pending.isEmpty, "\(label): a perfect network leaves nothing waiting")
        }
        let feed = try await home()
        for target in model.targets {
            try await select(target.id, in: feed)
            let frame = HeadlessHarness.frame(of: session)
            #expect(
                selectedCounts(frame) == target.counts,
                "\(label): post \(target.id) shows the model\n\(frame)")
        }
        let waitingPosts = Set(
            manager.pending.compactMap { record -> String? in
                record.mutation.kind == .post ? record.mutation.text : nil
            })
        for post in model.posts {
            let shown = feed.items.filter { $0.media.text == post.text }
            #expect(
                shown.count == (post.deleted ? 0 : 1),
                "\(label): \"\(post.text)\" on Home \(shown.count) times")
            guard let item = shown.first, !post.deleted else { continue }
            feed.postList.select(id: item.id)
            let selected = lines(HeadlessHarness.frame(of: session)).filter { $0.hasPrefix("▌") }
            let marked = selected.contains { $0.contains("sending…") }
            #expect(
                marked == waitingPosts.contains(post.text),
                "\(label): \"\(post.text)\" marked sending: \(marked), waiting: \(waitingPosts.contains(post.text))"
            )
        }
        try await checkSyncTab(manager)
    }

    /// The Sync tab: the count of waiting changes, each with a next try no later than the cap and
    /// a reason that matches why its last attempt failed.
    func checkSyncTab(_ manager: MutationManager) async throws {
        shell?.openTab(.mutations)
        await session.settle()
        let frame = HeadlessHarness.frame(of: session)
        let pending = manager.pending
        #expect(
            frame.contains("Changes: \(pending.count) pending, 0 failed"),
            "\(label): Sync counts \(pending.count) waiting\n\(frame)")
        let capSeconds = Int(cap.components.seconds)
        // A wait too long for its column is cut ("in 8640…"): count it as too long.
        let waits = frame.matches(of: /in (\d+)(s|…)/).map { $0.2 == "…" ? Int.max : Int($0.1) ?? Int.max }
        #expect(
            waits.allSatisfy { $0 <= capSeconds },
            "\(label): next tries \(waits) within \(capSeconds)s\n\(frame)")
        let reasons: [String] =
            switch fault.profile {
            case .perfect: []
            case .offlineThenBack: ["no connection: it is sent when the network is back"]
            case .lossy:
                [
                    "the server had a problem: it is tried again",
                    "the server asked to slow down: it is tried again",
                    "no answer in time: it is tried again, and applied once",
                ]
            }
        let tried = pending.filter { $0.attempts > 0 }.count
        let explained = lines(frame).filter { line in reasons.contains { line.hasSuffix($0) } }.count
        #expect(
            explained == tried, "\(label): \(tried) tried changes, \(explained) with a true reason\n\(frame)")
        #expect(!frame.contains("no connection") || fault.profile == .offlineThenBack, "\(label)\n\(frame)")
    }

    // MARK: The end

    /// Lossy: time passes (no network change) until everything is sent, each wait within the
    /// cap. Offline: the network comes back. Then Home, refreshed, shows the model.
    func converge() async throws {
        let manager = try #require(manager)
        switch fault.profile {
        case .perfect:
            break
        case .lossy:
            var rounds = 0
            while !manager.pending.isEmpty && rounds < 40 {
                rounds += 1
                try await checkSyncTab(manager)
                clock.advance(by: cap)
                await session.settle()
            }
            #expect(
                manager.pending.isEmpty, "\(app.id), \(fault): still waiting after \(rounds) rounds of \(cap)"
            )
        case .offlineThenBack:
            shell?.context.faultControl?.setFaultProfile(.perfect)
            session.networkDidChange()
            await session.settle()
        }
        var done = self
        done.label = "\(app.id), \(fault), settled"
        shell?.context.faultControl?.setFaultProfile(.perfect)
        #expect(manager.pending.isEmpty, "\(done.label): nothing waits")
        #expect(manager.failed.isEmpty, "\(done.label): nothing failed: \(manager.failed.map(\.lane))")
        let feed = try await home()
        feed.refresh()
        await session.settle()
        try await done.checkScreen()
    }

    /// The server holds each change once: counts and flags as the model says, each post and
    /// reply once, deleted posts gone.
    func checkServer() async throws {
        let server = try #require(session.app?.service(.embeddedBackend)?.embeddedTransport?.server)
        let db = server.database
        let viewer = try #require(
            try db.queryFirst("SELECT id FROM users WHERE handle = ?", BackendSeed.firstHandle) {
                try $0.int(0)
            })
        let place = "\(app.id), \(fault), on the server"
        for target in model.targets {
            let id = try #require(Int(target.id.rawValue.dropFirst()))
            let row = try #require(
                try db.queryFirst(
                    """
                    SELECT like_count, reply_count, repost_count,
                        (SELECT COUNT(*) FROM likes WHERE user = ?1 AND post = ?2),
                        (SELECT COUNT(*) FROM reposts WHERE user = ?1 AND post = ?2)
                    FROM posts WHERE id = ?2
                    """, viewer, id
                ) { row in try (0..<5).map { try row.int($0) } })
            let server = Counts(
                liked: row[3] == 1, likes: row[0], replies: row[1], reposts: row[2], reposted: row[4] == 1)
            #expect(server == target.counts, "\(place): post \(target.id)")
        }
        // The viewer's posts and replies: (deleted, is a reply, text).
        let made = try db.query(
            "SELECT deleted, parent IS NOT NULL, json FROM posts WHERE author = ?", viewer
        ) {
            row in
            let json = try JSONSerialization.jsonObject(with: try row.data(2)) as? [String: Any]
            return (deleted: try row.int(0) != 0, reply: try row.int(1) != 0, text: json?["text"] as? String)
        }
        for post in model.posts {
            let rows = made.filter { !$0.reply && $0.text == post.text }
            let live = rows.filter { !$0.deleted }.count
            #expect(live == (post.deleted ? 0 : 1), "\(place): \"\(post.text)\" live \(live) times")
            #expect(rows.count == 1, "\(place): \"\(post.text)\" made \(rows.count) times")
        }
        for reply in model.replies {
            let rows = made.filter { $0.reply && $0.text == reply.text && !$0.deleted }.count
            #expect(rows == 1, "\(place): reply \"\(reply.text)\" made \(rows) times")
        }
    }

    /// The other app, on its own data directory and the same backend, shows the same.
    func checkOtherApp() async throws {
        await session.stop()
        let other = try #require(ShippedApp.withHome.first { $0.id != app.id })
        let (sibling, _) = try await HeadlessHarness.session(
            other.definition, directories: directories.sibling(), width: 100, height: 40)
        defer { Task { await sibling.stop() } }
        let feed = try #require(sibling.shell?.currentScreen as? FeedScreen)
        for target in model.targets {
            try await select(target.id, in: feed, of: sibling)
            let frame = HeadlessHarness.frame(of: sibling)
            #expect(
                selectedCounts(frame) == target.counts,
                "\(app.id), \(fault): \(other.id) shows post \(target.id) as the model\n\(frame)")
        }
        for post in model.posts {
            // Its time is the app's clock's, which may have been set back a day: it can be far down.
            if !post.deleted { await reveal(in: feed, of: sibling) { $0.media.text == post.text } }
            let shown = feed.items.filter { $0.media.text == post.text }.count
            #expect(
                shown == (post.deleted ? 0 : 1),
                "\(app.id), \(fault): \(other.id) shows \"\(post.text)\" \(shown) times")
        }
    }

    // MARK: Driving

    func home() async throws -> FeedScreen {
        if !(shell?.currentScreen is FeedScreen) {
            shell?.openTab(.home)
            await session.settle()
        }
        return try #require(shell?.currentScreen as? FeedScreen, "\(label): Home")
    }

    /// Selects the first entry of `id` on Home, moving down (as a person would, loading more)
    /// until it shows: after a cold start Home holds only its first screen.
    func select(_ id: MediaID, in feed: FeedScreen, of session: AppSession? = nil) async throws {
        await reveal(in: feed, of: session) { $0.media.id == id }
        let item = try #require(
            feed.items.first { $0.media.id == id },
            "\(label): \(id) on Home, which shows \(feed.items.map(\.media.id.rawValue))")
        feed.postList.select(id: item.id)
    }

    /// Moves down Home (loading more, as a person would) until an entry matches `wanted`, or
    /// twenty loads found none.
    func reveal(in feed: FeedScreen, of session: AppSession? = nil, _ wanted: (PostItem) -> Bool) async {
        let session = session ?? self.session
        for _ in 0..<20 where !feed.items.contains(where: wanted) {
            feed.postList.selectLast()
            _ = session.shell?.handle(.character("j"))
            await session.settle()
        }
    }

    func press(_ character: Character) async {
        _ = shell?.handle(.character(character))
        await session.settle()
    }
}

/// Lanes that differ: a change held back in one lane (rate limited, or its post not yet on the
/// server) never holds up another lane, and the changes of one lane reach the server in the
/// order they were made.
@Suite @MainActor struct LaneScenarios {
    @Test(arguments: ShippedApp.withHome)
    func aRateLimitedLike_holdsUpItsOwnPostOnly_andItsLaneArrivesInOrder(app: ShippedApp) async throws {
        let directories = try TestDirectories.make()
        let (session, clock) = try await HeadlessHarness.session(
            app.definition, directories: directories, width: 100, height: 40)
        defer { Task { await session.stop() } }
        let feed = try #require(session.shell?.currentScreen as? FeedScreen)
        let transport = try #require(session.app?.service(.embeddedBackend)?.embeddedTransport)
        let manager = try #require(session.shell?.context.manager)
        var distinct: Set<MediaID> = []
        let posts = feed.items.filter { distinct.insert($0.media.id).inserted && !$0.facts.viewerLiked }
        try #require(posts.count >= 2)
        let (held, free) = (posts[0], posts[1])
        func press(_ character: Character, on item: PostItem) async {
            feed.postList.select(id: item.id)
            _ = session.shell?.handle(.character(character))
            await session.settle()
        }

        // Given a like whose first send is answered "slow down, retry in a minute"
        transport.injectFaults([.rateLimited(retryAfter: .seconds(60))])
        await press("l", on: held)
        #expect(manager.pending.count == 1, "\(app.id): the like waits")

        // When the viewer takes it back and likes again (its lane), and likes another post
        await press("l", on: held)
        await press("l", on: held)
        await press("l", on: free)

        // Then the other post's like went at once, while the held lane still waits, all three
        // in order, on screen as the viewer left them
        #expect(
            try Self.liked(free.media.id, on: transport.server), "\(app.id): the free lane was not held up")
        #expect(try !Self.liked(held.media.id, on: transport.server), "\(app.id): the held lane waits")
        #expect(
            manager.pending.map(\.mutation) == [
                .like(held.media.id), .unlike(held.media.id), .like(held.media.id),
            ])
        feed.postList.select(id: held.id)
        let waiting = try #require(selectedCounts(HeadlessHarness.frame(of: session)))
        #expect(waiting.liked && waiting.likes == held.facts.likeCount + 1, "\(app.id): \(waiting)")
        session.shell?.openTab(.mutations)
        await session.settle()
        let sync = HeadlessHarness.frame(of: session)
        #expect(sync.contains("Changes: 3 pending, 0 failed"), "\(app.id):\n\(sync)")
        #expect(sync.contains("the server asked to slow down: it is tried again"), "\(app.id):\n\(sync)")

        // And when the minute passes, the lane is sent in the order made: liked, once
        clock.advance(by: .seconds(61))
        await session.settle()
        #expect(manager.pending.isEmpty)
        #expect(
            try Self.liked(held.media.id, on: transport.server), "\(app.id): like, unlike, like ends liked")
        #expect(try Self.likeCount(held.media.id, on: transport.server) == held.facts.likeCount + 1)
    }

    @Test(arguments: ShippedApp.withHome)
    func aReplyToAPostNotYetSent_waitsForIt_whileAnotherLaneGoes(app: ShippedApp) async throws {
        let directories = try TestDirectories.make()
        let (session, clock) = try await HeadlessHarness.session(
            app.definition, directories: directories, width: 100, height: 40)
        defer { Task { await session.stop() } }
        let feed = try #require(session.shell?.currentScreen as? FeedScreen)
        let transport = try #require(session.app?.service(.embeddedBackend)?.embeddedTransport)
        let manager = try #require(session.shell?.context.manager)
        let actions = try #require(session.shell?.context.actions)
        let other = try #require(feed.items.first { !$0.facts.viewerLiked })
        let text = "A photo, then a reply to it, from \(app.id)"

        // Given a new post whose send fails with a 503 burst (retried later)
        transport.injectFaults([.serverError(status: 503)])
        actions.submit(Draft(text: text, files: [PickedPhoto(path: try TestPhotos.sample())]))
        await session.settle()
        let pendingPost = try #require(
            feed.items.first { $0.media.text == text }, "\(app.id): the post shows")
        #expect(!pendingPost.isConfirmed)

        // When the viewer replies to it and likes another post
        actions.submit(Draft(text: "First!", replyingTo: pendingPost.media))
        await session.settle()
        feed.postList.select(id: other.id)
        _ = session.shell?.handle(.character("l"))
        await session.settle()

        // Then the like went, while the post and its reply wait, in that order
        #expect(
            try Self.liked(other.media.id, on: transport.server), "\(app.id): another lane is not held up")
        #expect(manager.pending.count == 2, "\(app.id): \(manager.pending.map(\.lane))")
        #expect(try Self.posts(containing: text, on: transport.server).isEmpty)

        // And once the backoff passes, the post arrives first and the reply is its child
        clock.advance(by: RetryPolicy.standard.cap)
        await session.settle()
        #expect(manager.pending.isEmpty, "\(app.id): \(manager.pending.map(\.lane))")
        let post = try #require(try Self.posts(containing: text, on: transport.server).first)
        let replies = try Self.posts(containing: "First!", on: transport.server)
        #expect(replies.count == 1)
        #expect(replies.first?.parent == post.id, "\(app.id): the reply hangs under the post")
        #expect((replies.first?.id ?? 0) > post.id, "\(app.id): the post arrived first")
    }

    static func viewer(_ db: Database) throws -> Int {
        try db.queryFirst("SELECT id FROM users WHERE handle = ?", BackendSeed.firstHandle) { try $0.int(0) }
            ?? -1
    }

    static func liked(_ id: MediaID, on server: BackendServer) throws -> Bool {
        let db = server.database
        let post = Int(id.rawValue.dropFirst()) ?? -1
        return try db.queryFirst(
            "SELECT COUNT(*) FROM likes WHERE user = ? AND post = ?", try viewer(db), post
        ) {
            try $0.int(0)
        } == 1
    }

    static func likeCount(_ id: MediaID, on server: BackendServer) throws -> Int {
        let post = Int(id.rawValue.dropFirst()) ?? -1
        return try server.database.queryFirst("SELECT like_count FROM posts WHERE id = ?", post) {
            try $0.int(0)
        } ?? -1
    }

    /// The viewer's live posts whose text is `text`: id and parent.
    static func posts(containing text: String, on server: BackendServer) throws -> [(id: Int, parent: Int?)] {
        let db = server.database
        return try db.query(
            "SELECT id, parent, json FROM posts WHERE author = ? AND deleted = 0", try viewer(db)
        ) {
            row in
            let json = try JSONSerialization.jsonObject(with: try row.data(2)) as? [String: Any]
            return (try row.int(0), try row.isNull(1) ? nil : try row.int(1), json?["text"] as? String)
        }.filter { $0.2 == text }.map { ($0.0, $0.1) }
    }
}
