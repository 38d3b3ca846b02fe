@_spi(Testing) import Backend
import Basics
import FeedCaching
import Foundation
import MediaModel
import Mutations
import ServerAPI
import Storage
import Testing
import Wire

/// Random interleavings of enqueues, refreshes, clock advances, network switches, scripted
/// faults and restarts against the real backend, with the invariants checked after every step:
/// nothing acknowledged is lost, the server applies each token at most once, each lane is applied
/// in the order made, and the merged view is the server's data plus the pending effects.
///
/// Seeds below 100 send one attempt at a time, so a seed replays exactly the same run; seeds
/// from 100 let 8 attempts of different lanes run at once (closer to the app, but the order in
/// which concurrent requests reach the server, and so the run, may vary).
///
/// `MUTATION_SIM_SEEDS=1-40,100-120` and `MUTATION_SIM_STEPS=2000` run it longer; a failure names
/// its seed and step.
@Suite(.timeLimit(LongRunSettings.simulationLimit)) struct MutationSimulationTests {
    static let seeds = LongRunSettings.simulationSeeds
    static let steps = LongRunSettings.simulationSteps

    @Test(arguments: seeds)
    func randomInterleavings_keepEveryInvariant(seed: UInt64) async throws {
        var simulation = try await Simulation(seed: seed)
        for step in 0..<Self.steps {
            try await simulation.step(step)
            try await simulation.check("seed \(seed) step \(step) (\(simulation.lastAction))")
            if simulation.failed { return }
        }
        try await simulation.drain()
        try await simulation.check("seed \(seed) after draining")
        await simulation.checkConverged("seed \(seed) after draining")
        await simulation.harness.manager.stop()
    }
}

/// One simulated app: the harness, what it enqueued (in order), and a seeded generator.
struct Simulation {
    struct Made {
        var mutation: Mutation
        /// Its place in the order of enqueues (the journal's sequences follow the same order).
        var sequence: Int64
    }

    let seed: UInt64
    let harness: MutationHarness
    var random: SplitMix64
    var made: [MutationToken: Made] = [:]
    var order: [MutationToken] = []
    var media: [MediaID] = []
    var postCount = 0
    var lastAction = ""
    var failed = false

    static let users = (2...12).map { UserID("u\($0)") }
    static let lossy = FaultProfile(
        name: "lossy", failureRate: 0.25, dropResponseAfterApplyRate: 0.15, rateLimitRate: 0.1,
        retryAfter: .seconds(3))
    static let holding = FaultProfile(name: "holding", dropTimeout: .seconds(5))

    init(seed: UInt64) async throws {
        self.seed = seed
        random = simulationRandom(seed: seed)
        var configuration = MutationHarness.configuration(seed: seed)
        configuration.maxConcurrentAttempts = seed < 100 ? 1 : 8
        harness = try MutationHarness(seed: seed, configuration: configuration)
        harness.manager.setViewer(User(id: "u1", handle: "ada", displayName: "Ada Lovelace"))
        try await harness.cache.refresh()
        media = try harness.cache.entries(from: 0, count: 20).map(\.entry.media.id)
    }

    // MARK: - Steps

    mutating func step(_ index: Int) async throws {
        switch random.below(100) {
        case 0..<40: try await enqueueSome()
        case 40..<52:
            lastAction = "refresh"
            _ = try? await harness.cache.refresh()
        case 52..<70:
            let seconds = random.below(3) == 0 ? 60 + random.below(600) : 1 + random.below(20)
            lastAction = "advance \(seconds)s"
            harness.clock.advance(by: .seconds(seconds))
        case 70..<80:
            let profile = [FaultProfile.perfect, .offline, Self.lossy][random.below(3)]
            lastAction = "network \(profile.name)"
            harness.faults.setFaultProfile(profile)
            if random.below(2) == 0 { harness.manager.networkDidChange() }
        case 80..<86:
            let faults: [[ScriptedFault]] = [
                [.serverError(status: 500)], [.dropResponseAfterApply],
                [.rateLimited(retryAfter: .seconds(7))],
                [.offline, .offline],
            ]
            let chosen = faults[random.below(faults.count)]
            lastAction = "inject \(chosen)"
            harness.faults.injectFaults(chosen)
        case 86..<91:
            lastAction = "restart"
            try await harness.restart()
        case 91..<95:
            try await holdInFlight()
        case 95..<97:
            if let failed = harness.manager.failed.last {
                lastAction = "discard \(failed.token)"
                try harness.manager.discard(failed.token)
                for token in order where harness.manager.record(for: token) == nil && made[token] != nil {
                    if !applied(token) { made[token] = nil }
                }
                order.removeAll { made[$0] == nil }
            }
        default:
            lastAction = "wait"
        }
        await harness.manager.waitUntilIdle()
    }

    /// Enqueues one to three mutations of random kinds, some acting on posts still pending.
    mutating func enqueueSome() async throws {
        var mutations: [Mutation] = []
        for _ in 0..<(1 + random.below(3)) { mutations.append(randomMutation()) }
        lastAction = "enqueue \(mutations.map(\.kind))"
        let tokens = try await harness.manager.enqueue(mutations)
        // One task enqueues, so the order of enqueues is the order of sequences. (Reading the
        // record back would race with the sender, which may have confirmed it already.)
        for (token, mutation) in zip(tokens, mutations) {
            made[token] = Made(mutation: mutation, sequence: Int64(order.count))
            order.append(token)
        }
    }

    mutating func randomMutation() -> Mutation {
        let target = media[random.below(media.count)]
        let pendingPosts = harness.manager.pending.filter { $0.mutation.kind == .post }
        switch random.below(100) {
        case 0..<40:
            // Every kind that sets a flag on a post (like, unlike, repost, unrepost, and any kind
            // added since) gets an equal share.
            return Mutation(Self.flagKinds[random.below(Self.flagKinds.count)], target)
        case 40..<54:
            postCount += 1
            // Some posts are refused by the server (over 2,000 characters): permanent failures.
            let text =
                "sim \(seed)-\(postCount)" + (random.below(8) == 0 ? String(repeating: "!", count: 2201) : "")
            return .post(text: text, attachments: [])
        case 54..<64:
            if let post = pendingPosts.randomElement(using: &random) {
                return .reply(to: post.token.localMediaID, text: "reply to pending", attachments: [])
            }
            return .reply(to: target, text: "reply \(seed)-\(random.below(1000))", attachments: [])
        case 64..<70:
            if let post = pendingPosts.randomElement(using: &random) { return .like(post.token.localMediaID) }
            return .like(target)
        case 70..<76:
            let own = order.compactMap { token -> MediaID? in
                guard made[token]?.mutation.kind == .post else { return nil }
                return harness.manager.serverID(of: token)
            }
            if let id = own.randomElement(using: &random) { return .delete(id) }
            if let post = pendingPosts.randomElement(using: &random) {
                return .delete(post.token.localMediaID)
            }
            return .like(target)
        case 76..<87: return .follow(Self.users[random.below(Self.users.count)])
        case 87..<96: return .unfollow(Self.users[random.below(Self.users.count)])
        case 96..<98: return .follow("u1")
        default: return .like("m999999")
        }
    }

    /// An attempt in flight (applied by the server, its response held back on the clock), then a
    /// restart or the clock reaching the loss.
    mutating func holdInFlight() async throws {
        let busy = Set(harness.manager.pending.map(\.lane))
        guard let free = media.first(where: { !busy.contains(.media($0)) }) else { return }
        let profile = harness.faults.faultProfile
        harness.faults.setFaultProfile(Self.holding)
        harness.faults.injectFaults([.dropResponseAfterApply])
        let token = try await harness.manager.enqueue(.like(free))
        made[token] = Made(mutation: .like(free), sequence: Int64(order.count))
        order.append(token)
        // (Faults scripted by earlier steps and not used yet come first: then the like meets one
        // of those instead, and there is nothing to hold.) Held means the server has handled it
        // and the lost response's wait is asleep on the clock: advancing before that sleeper
        // exists would leave it 5 s after the new time, and nothing would ever wake it.
        let heldUntil = harness.clock.now.addingTimeInterval(5)  // `holding`'s dropTimeout
        await eventually("the held like is in flight, or done") {
            (harness.manager.record(for: token)?.state == .inFlight && !harness.handlings(of: token).isEmpty
                && harness.clock.sleeperDeadlines.contains(heldUntil))
                || harness.manager.isIdle()
        }
        harness.faults.setFaultProfile(profile)
        if harness.manager.record(for: token)?.state != .inFlight {
            lastAction = "hold in flight: met an earlier scripted fault"
        } else if random.below(2) == 0 {
            lastAction = "hold in flight, restart"
            try await harness.restart()
        } else {
            lastAction = "hold in flight, lose the response"
            harness.clock.advance(by: .seconds(5))
        }
    }

    /// Network back for good, time advanced until nothing is pending, and a refresh.
    mutating func drain() async throws {
        harness.faults.setFaultProfile(.perfect)
        harness.manager.networkDidChange()
        for _ in 0..<50 where !harness.manager.pending.isEmpty {
            await harness.advance(by: .seconds(60), step: .seconds(10))
        }
        // Faults injected by steps that sent nothing may still be queued (two `offline`s each):
        // each refresh takes one of them.
        var refreshed = false
        for _ in 0..<100 where !refreshed { refreshed = (try? await harness.cache.refresh()) != nil }
        if !refreshed { _ = try await harness.cache.refresh() }
        await harness.manager.waitUntilIdle()
    }

    // MARK: - Invariants

    /// Records a broken invariant with where it happened.
    mutating func report(_ problem: String, _ context: Comment) {
        Issue.record(Comment(rawValue: "\(context.rawValue): \(problem)"))
        failed = true
    }

    func applied(_ token: MutationToken) -> Bool { harness.handlings(of: token).contains { $0.applied } }

    mutating func check(_ context: String) async throws {
        let comment = Comment(rawValue: context)
        let handled = harness.recorder.handled
        var appliedCount: [String: Int] = [:]
        for handling in handled where handling.applied { appliedCount[handling.token, default: 0] += 1 }

        // Nothing acknowledged is lost; a failed mutation was never applied.
        for token in order {
            let record = harness.manager.record(for: token)
            let wasApplied = appliedCount[token.rawValue] != nil
            if record == nil, !wasApplied {
                report("lost: \(token) \(made[token].map { "\($0.mutation)" } ?? "")", comment)
            }
            if record?.state == .failed, wasApplied {
                report("failed but applied: \(token)", comment)
            }
        }

        // The server applied each token at most once (and made at most one post per token).
        for (token, count) in appliedCount where count > 1 {
            report("applied \(count) times: \(token)", comment)
        }
        let twice = try harness.server.database.query(
            "SELECT client_token FROM posts WHERE client_token IS NOT NULL GROUP BY client_token HAVING COUNT(*) > 1"
        )
        if !twice.isEmpty {
            report("posts made twice: \(twice)", comment)
        }

        // Each lane was applied in the order made.
        var lastInLane: [String: (Int64, String)] = [:]
        for handling in handled where handling.applied {
            let token = MutationToken(handling.token)
            guard let sequence = made[token]?.sequence else { continue }
            let lane = Self.lane(of: handling.request)
            if let last = lastInLane[lane], last.0 > sequence {
                report(
                    "lane \(lane): \(handling.token) (#\(sequence)) applied after \(last.1) (#\(last.0))",
                    comment)
            }
            lastInLane[lane] = (sequence, handling.token)
        }

        try checkMergedView(comment)
    }

    /// The merged feed is the cached server entries plus the pending effects, by an independent
    /// reading of the journal.
    mutating func checkMergedView(_ comment: Comment) throws {
        let entries = try harness.cache.entries(from: 0, count: 1000).map(\.entry)
        let facts = harness.store.facts(for: entries.flatMap(\.mediaIDs))
        let merged = harness.manager.mergedHomeFeed(entries, facts: facts)
        let records = order.compactMap { harness.manager.record(for: $0) }
        let pending = records.filter { $0.state == .pending || $0.state == .inFlight }

        var deleted: Set<MediaID> = []
        var flags: [MediaID: [MediaFlag: Bool]] = [:]
        var replies: [MediaID: Int] = [:]
        var following: [UserID: Bool] = [:]
        for record in records {
            if record.state == .confirmed, record.mutation.kind.effect == .hide,
                let id = record.mutation.media
            {
                deleted.insert(id)
            }
        }
        for record in pending {
            let mutation = record.mutation
            switch mutation.kind.effect {
            case .flag(let flag, let value):
                if let id = mutation.media { flags[id, default: [:]][flag] = value }
            case .hide: if let id = mutation.media { deleted.insert(id) }
            case .newReply: if let parent = mutation.media { replies[parent, default: 0] += 1 }
            case .follow(let value): if let user = mutation.user { following[user] = value }
            case .newPost, .newMessage, .profile: break
            }
        }

        // Server entries: all there but the deleted, with their facts plus the pending effects.
        let serverRows = merged.filter { !$0.id.rawValue.hasPrefix("local:") }
        let expectedIDs = entries.filter { !deleted.contains($0.media.id) }.map(\.id)
        if serverRows.map(\.id) != expectedIDs {
            report("feed entries \(serverRows.map(\.id)) != \(expectedIDs)", comment)
        }
        for row in serverRows {
            let id = row.entry.media.id
            var expected = facts[id] ?? MediaFacts()
            for (flag, value) in flags[id] ?? [:] where value != expected[keyPath: flag.state] {
                if let count = flag.count {
                    expected[keyPath: count] = max(0, expected[keyPath: count] + (value ? 1 : -1))
                }
                expected[keyPath: flag.state] = value
            }
            expected.replyCount += replies[id] ?? 0
            if row.facts != expected {
                report("facts of \(id): \(row.facts) != \(expected)", comment)
            }
        }

        // Posts of this device: each pending or failed one, and each confirmed one no list holds,
        // shows exactly once; no text shows twice.
        let shownTexts = merged.map(\.entry.media.text).filter { $0.hasPrefix("sim ") }
        if Set(shownTexts).count != shownTexts.count {
            let twice = Dictionary(grouping: shownTexts, by: { $0 }).filter { $0.value.count > 1 }.keys
            let rows = merged.filter { twice.contains($0.entry.media.text) }.map {
                "\($0.id) \($0.entry.media.id) \($0.status) by \($0.entry.media.author.id) at \($0.entry.media.createdAt.timeIntervalSince1970)"
            }
            report("a post shows twice: \(rows)", comment)
        }
        for record in records {
            guard record.mutation.kind == .post else { continue }
            let text = record.mutation.text
            let deletedPost =
                deleted.contains(record.token.localMediaID)
                || harness.manager.serverID(of: record.token).map { deleted.contains($0) } == true
            if !deletedPost, !shownTexts.contains(text) {
                report("post \(record.token) (\(record.state)) is not shown", comment)
            }
        }

        // Follows: the last pending follow or unfollow, else the server's answer.
        let serverFollows = Set(
            try harness.server.database.query("SELECT followee FROM follows WHERE follower = 1") {
                UserID("u\(try $0.int64(0))")
            })
        for user in Self.users {
            let expected = following[user] ?? serverFollows.contains(user)
            if harness.manager.isFollowing(user, server: serverFollows.contains(user)) != expected {
                report("following \(user) should be \(expected)", comment)
            }
        }
    }

    /// After draining: nothing pending, and the server's state is what the mutations made, in order.
    func checkConverged(_ context: String) async {
        let comment = Comment(rawValue: context)
        #expect(harness.manager.pending.isEmpty, comment)
        var lastFlag: [MediaID: [MediaFlag: Bool]] = [:]
        var lastFollow: [UserID: Bool] = [:]
        for token in order {
            guard let made = made[token] else { continue }
            let record = harness.manager.record(for: token)
            #expect(record == nil || record?.state == .confirmed || record?.state == .failed, comment)
            guard record?.state != .failed else { continue }
            let mutation = made.mutation
            // A change of a post made on this device goes out under the post's server id once the
            // post is confirmed; which one is known to the manager only, and the post's own check
            // covers it reaching the server.
            if let id = mutation.media, id.rawValue.hasPrefix("local:"), mutation.kind.subject == .media {
                continue
            }
            switch mutation.kind.effect {
            case .flag(let flag, let value):
                if let id = mutation.media { lastFlag[id, default: [:]][flag] = value }
            case .follow(let value): if let user = mutation.user { lastFollow[user] = value }
            case .newPost, .newReply:
                let count = try? harness.backendCount(
                    "SELECT COUNT(*) FROM posts WHERE client_token = ? AND instr(CAST(json AS TEXT), ?) > 0",
                    token.rawValue, mutation.text)
                #expect(
                    count == 1,
                    "\(mutation.kind) \(token) on the server \(count ?? -1) times (\(record.map { "\($0.state)" } ?? "gone"), \(harness.handlings(of: token))); \(context)"
                )
            case .newMessage:
                let count = try? harness.backendCount(
                    "SELECT COUNT(*) FROM messages WHERE client_token = ?", token.rawValue)
                #expect(
                    count == 1, "\(mutation.kind) \(token) on the server \(count ?? -1) times; \(context)")
            case .hide:
                let id = mutation.media?.rawValue ?? ""
                let count = try? harness.backendCount(
                    "SELECT COUNT(*) FROM posts WHERE id = ? AND deleted = 1", Int(id.dropFirst()) ?? -1)
                #expect(count == 1, "post \(id) should be deleted on the server; \(context)")
            case .profile:
                // The simulation draws no edits of the viewer's profile (ProfileEditScenarios
                // covers them end to end).
                break
            }
        }
        // Each flag as the last change of it left it, read from the server's own facts of the post.
        for (id, flags) in lastFlag {
            guard let facts = await serverFacts(of: id) else {
                Issue.record("the server has no facts of \(id); \(context)")
                continue
            }
            for (flag, value) in flags {
                #expect(
                    facts[keyPath: flag.state] == value, "\(flag) of \(id) should be \(value); \(context)")
            }
        }
        for (user, follows) in lastFollow {
            let count = try? harness.backendCount(
                "SELECT COUNT(*) FROM follows WHERE follower = 1 AND followee = ?",
                Int(user.rawValue.dropFirst()) ?? -1)
            #expect((count == 1) == follows, "follow of \(user) should be \(follows); \(context)")
        }
    }

    /// Every kind that sets one of the viewer's flags on a post.
    static let flagKinds = MutationKind.all.filter {
        if case .flag = $0.effect { $0.subject == .media } else { false }
    }

    /// The facts of `id` as the server shows them to the viewer (user 1), read past the faults.
    func serverFacts(of id: MediaID) async -> MediaFacts? {
        let request = Request(
            .get, "/v1/posts/\(id.rawValue)",
            headers: [
                "Authorization": "Bearer \(harness.server.testToken(forHandle: BackendSeed.firstHandle))"
            ])
        let response = await harness.server.handle(request)
        return try? WireFormat.decode(Media.self, from: response.body).facts[id]
    }

    /// The lane a request belongs to, from its method and path.
    static func lane(of request: String) -> String {
        let parts = request.split(separator: " ")
        let segments = parts.count > 1 ? parts[1].split(separator: "/").map(String.init) : []
        if segments.count >= 3, segments[1] == "users" { return "user:\(segments[2])" }
        if segments.count == 2 { return "posts" }
        if segments.count == 4, segments[3] == "replies" { return "thread:\(segments[2])" }
        return segments.count >= 3 ? "media:\(segments[2])" : request
    }
}

/// SplitMix64 is the simulation's only source of randomness, so a seed replays a run. (A
/// seed is spread by the golden ratio first, so neighbouring seeds start far apart.)
func simulationRandom(seed: UInt64) -> SplitMix64 { SplitMix64(seed: seed &* 0x9E37_79B9_7F4A_7C15) }

extension SplitMix64 {
    /// A uniform integer in 0..<`bound` (0 for an empty range).
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(max(bound, 1))) }
}
