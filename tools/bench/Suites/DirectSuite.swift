import AllApps
import AppRuntime
@_spi(Testing) import Backend
import Composition
import DirectMessages
import Features
import Foundation
import MediaModel
import Mutations
import ServerAPI
import Sockets
import Storage
import TerminalUI
import Wire

/// `direct`: direct messages in an app that has them, each figure beside a baseline measured in
/// the same run:
/// - opening a conversation of 10,000 messages to its first screen (what was last read, kept on
///   disk), beside reading its newest rows raw from the backend's database;
/// - sending: the key press to the frame that shows the message, and the lines that frame
///   redraws;
/// - a burst of 1,000 messages in 10 conversations through the journal, beside raw inserts.
enum DirectSuite {
    static let messages = 10_000

    static let suite = BenchSuite(
        name: "direct",
        summary:
            "a conversation of 10,000 messages to its first screen, send to frame, a burst of 1,000 messages"
    ) { runner in
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "bench-direct-\(UUID().uuidString)"
        ).path
        defer { try? FileManager.default.removeItem(atPath: root) }
        try await conversation(runner, root: root)
        try await burst(runner, root: root + "/burst")
    }

    /// The first app whose `direct` socket is filled.
    static func app() throws -> AppDefinition {
        for app in AllApps.definitions {
            if let registry = try? AppHost.compose(app).registry, registry[.direct] != nil { return app }
        }
        throw BenchApps.Missing(kind: "an app with direct messages (its `direct` socket filled)")
    }

    static func conversation(_ runner: BenchRunner, root: String) async throws {
        let backendDirectory = root + "/backend"
        let id = try await writeConversation(runner, backend: backendDirectory)
        let configuration = try LaunchConfiguration.parse(
            ["--headless", "--data-dir", root + "/data", "--backend-dir", backendDirectory, "--user", "ada"],
            app: try app().id, environment: [:], isTerminal: false)
        try await measure(runner, configuration, backend: backendDirectory, conversation: id)
    }

    /// A conversation of @ada and @grace with 10,000 messages, written through the backend's own
    /// routes in `backend`; its id.
    static func writeConversation(_ runner: BenchRunner, backend: String) async throws -> String {
        try FileManager.default.createDirectory(atPath: backend, withIntermediateDirectories: true)
        let server = try BackendServer(directory: backend, seed: 1, clock: ManualClock())
        let answer = try await request(
            server, as: "grace", .post, "/v1/conversations", #"{"members": ["u1"]}"#, expect: [200, 201])
        let id = try conversationID(answer)
        let wall = ContinuousClock()
        let elapsed = try await wall.measure {
            for index in 0..<messages { try await say(index, in: id, on: server) }
        }
        server.close()
        runner.log("wrote \(messages) messages in \(BenchFormat.number(elapsed.seconds)) s")
        return id
    }

    /// The conversation's id in the answer of `POST /v1/conversations`.
    static func conversationID(_ answer: [String: JSONValue]) throws -> String {
        guard case .object(let fields)? = answer["conversation"], case .string(let id)? = fields["id"] else {
            throw BenchSetupError("the backend made no conversation: \(answer)")
        }
        return id
    }

    /// Message `index` of the bench's conversation, from @ada or @grace. (Not inlined: the
    /// release compiler of Swift 6.3.1 crashed splitting the writing loop's coroutine with it.)
    @inline(never)
    static func say(_ index: Int, in id: String, on server: BackendServer) async throws {
        let from = index % 3 == 0 ? "ada" : "grace"
        _ = try await request(
            server, as: from, .post, "/v1/conversations/\(id)/messages",
            #"{"text": "Message \#(index): a line of words, as people write them."}"#, expect: [201],
            key: "bench-\(index)")
    }

    @MainActor
    static func measure(
        _ runner: BenchRunner, _ configuration: LaunchConfiguration, backend: String, conversation id: String
    ) async throws {
        let clock = ManualClock()
        let session = AppSession(
            definition: try app(), configuration: configuration, clock: clock,
            networkClock: InstantNetworkClock(base: clock), colorMode: .trueColor, width: 80, height: 24)
        try await session.launch()
        await session.settle()
        guard let shell = session.shell else { throw BenchSetupError("the app launched no shell") }
        shell.openTab(.direct)
        await session.settle()
        let newest = "Message \(messages - 1):"

        // Cold: the first open reads the newest page from the server.
        let wall = ContinuousClock()
        let coldStart = wall.now
        _ = shell.handle(.enter)
        await session.settle()
        let cold = (wall.now - coldStart).seconds
        let coldFrame = HeadlessRenderer.lines(of: session.render().buffer).joined(separator: "\n")
        guard coldFrame.contains(newest) else {
            throw BenchSetupError("the conversation does not show its newest message:\n\(coldFrame)")
        }
        _ = shell.handle(.escape)
        await session.settle()

        // Warm: what was last read shows in the first frame after the key, before the server
        // answers.
        var opened: [Double] = []
        for _ in 0..<(runner.quick ? 5 : 30) {
            let start = wall.now
            _ = shell.handle(.enter)
            let frame = session.render()
            opened.append((wall.now - start).seconds)
            let text = HeadlessRenderer.lines(of: frame.buffer).joined(separator: "\n")
            guard text.contains(newest) else {
                throw BenchSetupError("the first frame does not show the newest message:\n\(text)")
            }
            await session.settle()
            _ = shell.handle(.escape)
            await session.settle()
        }
        let database = try Database(path: backend + "/" + BackendServer.databaseFileName)
        let number = Int64(id.drop { !$0.isNumber }) ?? 0
        let raw = try runner.measure(warmup: 3, runs: 30) {
            let rows = try database.query(
                "SELECT id, sender, created_at, text FROM messages WHERE conversation = ? ORDER BY id DESC LIMIT ?",
                number, Int64(DirectCache.keptMessages))
            guard rows.count == DirectCache.keptMessages else { throw BenchSetupError("\(rows.count) rows") }
        }
        try database.close()
        runner.report(
            "open a conversation of 10,000: first screen", Samples(opened), unit: .milliseconds,
            baseline: ("its newest \(DirectCache.keptMessages) rows read raw", raw), targets: [.atMost(5)],
            note:
                "from what was last read; the first open, from the server: \(BenchFormat.number(cold * 1e3)) ms"
        )

        // Send: the key press to the frame that shows the message.
        _ = shell.handle(.enter)
        await session.settle()
        let frames = HeadlessScroll.frames(of: session)
        var sendTimes: [Double] = []
        var redrawn: [Double] = []
        for index in 0..<(runner.quick ? 5 : 20) {
            for character in "sent \(index)" { _ = shell.handle(.character(character)) }
            _ = frames()
            let start = wall.now
            _ = shell.handle(.enter)
            // The message shows once it is in the journal (a write off the UI actor): the first
            // frame that has it.
            var polls = 0
            while !HeadlessRenderer.lines(of: session.render().buffer).contains("  sent \(index)") {
                polls += 1
                guard polls < 100_000 else { throw BenchSetupError("the sent message never showed") }
                await Task.yield()
            }
            let update = frames()
            sendTimes.append((wall.now - start).seconds)
            redrawn.append(Double(update.changedLineCount))
            await session.settle()
            _ = frames()
        }
        runner.report(
            "send: key to the frame showing it", Samples(sendTimes), unit: .milliseconds,
            baseline: ("one frame at 60 Hz", Samples([1.0 / 60])), targets: [.atMost(1000.0 / 60)])
        runner.report(
            "send: lines redrawn", value: Samples(redrawn).median, unit: .count,
            baseline: ("full redraw", 24),
            targets: [.atMost(1)],
            note: "the first frame showing the message, against the frame before the key")
        await session.stop()
    }

    /// One request to the backend as `handle`; its JSON answer.
    @inline(never)
    static func request(
        _ server: BackendServer, as handle: String, _ method: HTTPMethod, _ path: String, _ body: String,
        expect statuses: Set<Int>, key: String? = nil
    ) async throws -> [String: JSONValue] {
        var headers: Headers = [
            "Authorization": "Bearer \(server.testToken(forHandle: handle))",
            "Content-Type": "application/json",
        ]
        if let key { headers["Idempotency-Key"] = key }
        let response = await server.handle(Request(method, path, headers: headers, body: Data(body.utf8)))
        guard statuses.contains(response.status),
            case .object(let fields) = try JSONValue(parsing: response.body)
        else {
            throw BenchSetupError(
                "\(path): \(response.status) \(String(decoding: response.body, as: UTF8.self))")
        }
        return fields
    }

    static func burst(_ runner: BenchRunner, root: String) async throws {
        let manager = try MutationsSuite.manager(root)
        let raw = try MutationsSuite.rawDatabase(root + "-raw")
        let messages = (0..<1000).map {
            Mutation.message(in: ConversationID("c\($0 % 10)"), text: "Burst message \($0)")
        }
        var index = 0
        let enqueued = try await runner.measure(warmup: 2, runs: 20) {
            try await manager.enqueue(messages)
        }
        let inserted = try runner.measure(warmup: 2, runs: 20) {
            try raw.transaction(.immediate, synchronous: .full) { db in
                let statement = try db.prepare(MutationsSuite.rawInsert)
                for _ in 0..<1000 {
                    index += 1
                    try MutationsSuite.rawRow(statement, index)
                }
            }
        }
        runner.report(
            "burst of 1,000 messages in 10 conversations", value: 1000 / enqueued.median, unit: .perSecond,
            baseline: ("raw inserts, one commit", 1000 / inserted.median), targets: [.atLeast(50_000)],
            note: "median of 20 bursts; \(BenchFormat.number(enqueued.median * 1000)) ms per burst")
    }
}
