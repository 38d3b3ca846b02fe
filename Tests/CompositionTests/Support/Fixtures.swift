import Composition
import Synchronization

// Sockets, providers and services for tests: a tiny app family in the shape of the real ones.

protocol Greeting: Sendable {
    var text: String { get }
}

protocol Palette: Sendable {
    var name: String { get }
}

protocol Banner: Sendable {
    var line: String { get }
}

struct FixedGreeting: Greeting {
    var text: String
}

struct NamedPalette: Palette {
    var name: String
}

struct FixedBanner: Banner {
    var line: String
}

let greetingSocket = Socket<any Greeting>.required("greeting", summary: "what the app says first")
let paletteSocket = Socket<any Palette>.optional("palette", summary: "colors") {
    NamedPalette(name: "standard")
}
let bannerSocket = Socket<any Banner>.required("banner", summary: "a line built from the greeting")

/// A log of what services did, in order, shared by every service of one test.
final class EventLog: Sendable {
    private let entries = Mutex<[String]>([])

    func record(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
    func filtered(_ prefix: String) -> [String] { all.filter { $0.hasPrefix(prefix) } }
}

struct ServiceFailure: Error, CustomStringConvertible {
    var description: String { "disk is full" }
}

/// A one-shot signal: `wait()` returns once `open()` has been called (before or after).
final class Gate: Sendable {
    private let state = Mutex<(isOpen: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func open() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.isOpen = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    func wait() async {
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state -> Bool in
                if state.isOpen { return true }
                state.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }
}

/// A service whose start does what a test tells it to.
final class ScriptedService: Service {
    enum Behavior: Sendable {
        case succeed
        case fail
        case hang
        /// Waits until `gate` opens (another service opens it when it starts).
        case waitFor(Gate)
        /// Opens `gate` when it starts.
        case open(Gate)
    }

    let id: String
    let log: EventLog
    let behavior: Behavior

    init(id: String, log: EventLog, behavior: Behavior) {
        self.id = id
        self.log = log
        self.behavior = behavior
    }

    func start(_ context: ServiceContext) async throws {
        log.record("begin:\(id)")
        switch behavior {
        case .succeed:
            break
        case .fail:
            throw ServiceFailure()
        case .hang:
            // Ignores cancellation on purpose: a start that never returns. It waits on a
            // continuation nobody resumes; sleeping in a loop would spin once cancelled (a
            // cancelled sleep returns at once) and hold one of the few threads every other
            // test's tasks run on.
            await withUnsafeContinuation { (_: UnsafeContinuation<Void, Never>) in }
        case .waitFor(let gate):
            await gate.wait()
        case .open(let gate):
            gate.open()
        }
        log.record("start:\(id)")
    }

    func stop() async { log.record("stop:\(id)") }

    func handle(_ event: LifecycleEvent) async { log.record("event:\(id):\(event.kind.rawValue)") }
}

extension ServiceDefinition {
    /// A scripted service with dependencies and events. The default timeouts only catch a
    /// hang: a whole `swift test` on 2 busy cores can delay a trivial start or stop by seconds.
    static func scripted(
        _ id: String, log: EventLog, dependencies: [String] = [], optionalDependencies: [String] = [],
        events: Set<LifecycleEvent.Kind> = [], behavior: ScriptedService.Behavior = .succeed,
        timeout: Duration = .seconds(600), line: Int = #line
    ) -> ServiceDefinition {
        ServiceDefinition(
            ServiceKey<ScriptedService>(id), dependencies: dependencies,
            optionalDependencies: optionalDependencies, events: events,
            startTimeout: timeout, stopTimeout: .seconds(600),
            file: "Tests/Fixtures.swift", line: line, column: 5
        ) { _ in ScriptedService(id: id, log: log, behavior: behavior) }
    }
}

enum Fixtures {
    static let sockets = Catalog(sockets: [
        greetingSocket.descriptor, paletteSocket.descriptor, bannerSocket.descriptor,
    ])

    static let providers = Catalog(providers: [
        Provider(
            id: "demo.greeting", fills: greetingSocket, file: "Tests/Fixtures.swift", line: 10, column: 9
        ) { _ in
            FixedGreeting(text: "hello")
        },
        Provider(id: "demo.palette", fills: paletteSocket, file: "Tests/Fixtures.swift", line: 11, column: 9)
        { _ in
            NamedPalette(name: "demo")
        },
        Provider(
            id: "demo.banner", fills: bannerSocket, needs: [.socket("greeting"), .service("storage")],
            file: "Tests/Fixtures.swift", line: 12, column: 9
        ) { context in
            FixedBanner(line: "** \(try context.socket(greetingSocket).text) **")
        },
        Provider(
            id: "other.greeting", fills: greetingSocket, file: "Tests/Fixtures.swift", line: 13, column: 9
        ) { _ in
            FixedGreeting(text: "hi")
        },
    ])

    static func services(_ log: EventLog) -> Catalog {
        Catalog(services: [
            .scripted("storage", log: log, events: [.memoryWarning, .terminate]),
            .scripted("network", log: log, dependencies: ["storage"], events: [.foreground, .background]),
            .scripted(
                "feed", log: log, dependencies: ["network", "storage"], events: [.foreground, .memoryWarning]),
            .scripted("push", log: log, dependencies: ["network"], events: [.pushReceived]),
        ])
    }

    static func catalog(_ log: EventLog = EventLog()) -> Catalog {
        Catalog.merging([sockets, providers, services(log)])
    }

    static let validManifest = """
        {
            "app": "demo",
            "displayName": "Demo",
            "version": "1.2.3",
            "sockets": {
                "greeting": "demo.greeting",
                "banner": "demo.banner"
            },
            "services": ["storage", "network", "feed", {"id": "push", "events": ["pushReceived"]}]
        }
        """

    static func manifest(_ text: String, file: String = "Manifests/demo.json") throws -> Manifest {
        try Manifest.parse(Array(text.utf8), file: file)
    }

    /// The diagnostics of decoding `text`, or of validating it against `catalog` when it decodes.
    static func problems(_ text: String, catalog: Catalog = Fixtures.catalog(), app: String? = "demo")
        -> [String]
    {
        do {
            let manifest = try manifest(text)
            return ManifestValidator(catalog: catalog).validate(manifest, expectedApp: app).map(\.description)
        } catch let error as ManifestLoadError {
            return error.diagnostics.map(\.description)
        } catch {
            return ["unexpected error: \(error)"]
        }
    }

    static func definition(
        _ manifest: String = validManifest, log: EventLog = EventLog(), catalog: Catalog? = nil
    ) -> AppDefinition {
        AppDefinition(
            id: "demo", catalog: catalog ?? Fixtures.catalog(log),
            manifest: EmbeddedManifest(path: "Manifests/demo.json", contents: manifest))
    }
}
