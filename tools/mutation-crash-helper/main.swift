// mutation-crash-helper: the process MutationCrashTests kill with SIGKILL at random moments.
//
// It enqueues mutations through a MutationManager on its own app database and sends them either
// to a backend database it shares with the test (in process, through EmbeddedTransport with
// injected 5xx and lost responses) or to a backend-server over HTTP (whose --faults inject them
// on the real socket). After each enqueue returns (the row is durable) it prints one line per
// mutation, which the test takes as the acknowledgement:
//
//     ACK <token> <kind> <target>
//
// Every other post carries a small JPEG from a copy in `<app>/uploads`, as the app journals a
// photo picked from disk. Messages go to two conversations (@ada with @grace, @ada with @alan),
// found or made at the start of each run; a message's target is its conversation.
//
// It signs in as @ada with the demo password and keeps its session in the app directory the
// way the app does, renewing it when it expires; it prints `SIGNED_IN` for each sign-in and
// `RENEWED` for each renewal (one line each, so a kill never splits them), which the test counts.
//
// usage: mutation-crash-helper --app DIR (--backend DIR | --server URL) --run N [--count K] [--drain]
//            [--token-lifetime SECONDS]
//   --backend DIR  the backend's database directory, served in process (in demo mode)
//   --server URL   a backend-server's base URL (http://127.0.0.1:PORT), reached with HTTPTransport;
//                  it must run with --demo
//   --run N        seeds this run's choices and faults
//   --count K  how many bursts to enqueue (default 40)
//   --token-lifetime SECONDS  how long the in-process backend's tokens live (default: its own)
//   --drain    enqueue nothing; send what the journal holds until nothing is pending, then print
//              "DRAINED pending=<n> failed=<n>" and exit 0
@_spi(Testing) import Backend
import Basics
import Foundation
import HTTPClient
import Imaging
import MediaModel
import Mutations
import Networking
import ServerAPI
import Storage
import Wire

struct Options {
    var app = ""
    var backend = ""
    var server: URL?
    var run: UInt64 = 0
    var count = 40
    var drain = false
    var tokenLifetime: Int?

    init(_ arguments: [String]) throws {
        var index = 0
        func value() throws -> String {
            index += 1
            guard index < arguments.count else { throw HelperError("\(arguments[index - 1]) needs a value") }
            return arguments[index]
        }
        while index < arguments.count {
            switch arguments[index] {
            case "--app": app = try value()
            case "--backend": backend = try value()
            case "--server":
                let text = try value()
                guard let url = URL(string: text), url.scheme == "http" else {
                    throw HelperError("--server needs an http:// URL, not '\(text)'")
                }
                server = url
            case "--run": run = UInt64(try value()) ?? 0
            case "--count": count = Int(try value()) ?? count
            case "--drain": drain = true
            case "--token-lifetime":
                let text = try value()
                guard let seconds = Int(text), seconds > 0 else {
                    throw HelperError("--token-lifetime needs a whole number of seconds, not '\(text)'")
                }
                tokenLifetime = seconds
            case let other: throw HelperError("unknown argument '\(other)'")
            }
            index += 1
        }
        guard !app.isEmpty, backend.isEmpty != (server == nil) else {
            throw HelperError("--app and one of --backend or --server are required")
        }
    }
}

struct HelperError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Writes one line straight to standard output (one write call, so a kill never splits it).
func emit(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func run() async throws -> Int32 {
    let options = try Options(Array(CommandLine.arguments.dropFirst()))
    let clock = SystemClock()
    let transport: any Transport
    if let url = options.server {
        // A lost response shows as the connection closing, at once; the timeout only bounds a
        // server that stalls, and stays short so a stall costs a retry rather than the run.
        transport = HTTPTransport(baseURL: url, timeout: .seconds(2))
    } else {
        var policy = BackendServer.SessionPolicy()
        if let seconds = options.tokenLifetime { policy.tokenLifetime = .seconds(seconds) }
        let server = try BackendServer(
            directory: options.backend, seed: BackendSeed.defaultSeed, clock: clock, demoMode: true,
            sessionPolicy: policy)
        let faults = FaultProfile(
            name: "crash", latency: .uniform(.zero, .milliseconds(2)), failureRate: 0.2,
            dropResponseAfterApplyRate: 0.15)
        transport = EmbeddedTransport(server: server, profile: faults, clock: clock, seed: options.run)
    }
    let session = CrashSession(
        anonymous: APIClient(transport: transport, credentials: nil, clock: clock), directory: options.app,
        handle: BackendSeed.firstHandle)
    try await session.start()
    let database = try AppDatabase.open(directory: options.app, options: Database.Options())
    var configuration = MutationManager.Configuration()
    configuration.defaultRetryPolicy = RetryPolicy(base: .milliseconds(5), cap: .milliseconds(40))
    configuration.jitterSeed = options.run
    let manager = try MutationManager(
        database: database, client: { session.current }, clock: clock, configuration: configuration,
        account: BackendSeed.firstHandle)
    manager.start()

    if options.drain {
        while !manager.pending.isEmpty {
            await manager.waitUntilIdle()
            try await Task.sleep(for: .milliseconds(5))
        }
        emit("DRAINED pending=\(manager.pending.count) failed=\(manager.failed.count)")
        await manager.stop()
        return 0
    }

    let conversations = try await startConversations(session)
    let photos = try CrashPhotos(directory: options.app + "/uploads")
    var random = SplitMix64(seed: options.run &* 0x2545_F491_4F6C_DD1D)
    for burst in 0..<options.count {
        var mutations: [Mutation] = []
        for item in 0..<(1 + Int(random.next() % 3)) {
            switch random.next() % 5 {
            case 0:
                // Every other post carries a photo: its durable copy is written before the post is
                // journaled, and the send reads it.
                let name = "\(options.run)-\(burst)-\(item)"
                let attachments =
                    (burst + item) % 2 == 0 ? [Attachment.photo(try photos.copy(named: name))] : []
                mutations.append(.post(text: "crash \(name)", attachments: attachments))
            case 1:
                mutations.append(
                    .reply(to: "m1", text: "crash reply \(options.run)-\(burst)-\(item)", attachments: []))
            case 2: mutations.append(.like(MediaID("m\(2 + random.next() % 4)")))
            case 3:
                let conversation = conversations[Int(random.next() % UInt64(conversations.count))]
                mutations.append(
                    .message(in: conversation, text: "crash message \(options.run)-\(burst)-\(item)"))
            default: mutations.append(.unlike(MediaID("m\(2 + random.next() % 4)")))
            }
        }
        let tokens = try await manager.enqueue(mutations)
        for (token, mutation) in zip(tokens, mutations) {
            let target = mutation.conversation?.rawValue ?? mutation.targetMedia?.rawValue ?? "-"
            emit("ACK \(token) \(mutation.kind) \(target)")
        }
        try await Task.sleep(for: .microseconds(Int(random.next() % 2000)))
    }
    while !manager.pending.isEmpty {
        await manager.waitUntilIdle()
        try await Task.sleep(for: .milliseconds(2))
    }
    emit("IDLE")
    await manager.stop()
    return 0
}

/// The conversations of @ada with @grace and with @alan: found (or made, the first time) on the
/// server, asked again while the faults refuse.
func startConversations(_ session: CrashSession) async throws -> [ConversationID] {
    var found: [ConversationID] = []
    for member in [UserID("u2"), UserID("u3")] {
        var attempt = 0
        while true {
            attempt += 1
            do throws(TransportError) {
                found.append(try await session.current.startConversation(with: [member]).payload.id)
                break
            } catch {
                guard attempt < 100 else { throw error }
                try await Task.sleep(for: .milliseconds(5))
            }
        }
    }
    return found
}

do {
    exit(try await run())
} catch {
    FileHandle.standardError.write(Data("mutation-crash-helper: error: \(error)\n".utf8))
    exit(1)
}
