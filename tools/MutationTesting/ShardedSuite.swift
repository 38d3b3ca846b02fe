import Foundation
import Glibc
import Synchronization

/// A test suite run as several test processes at once, each with a share of its tests.
///
/// Most cross-app scenarios run on the main actor, and a process has one: one test process keeps
/// about one and a half of the machine's two cores busy. Two processes, each with half of the
/// tests, finish the suite sooner. `swift test` cannot run twice at once on one build directory
/// (the second waits for the first's lock), so the shards run the built test binary itself.
///
/// The tests are dealt out in turn, in the order the binary lists them (by suite, then by name):
/// each suite's tests spread over every shard, so a suite of slow tests does not make one shard
/// the long one.
public final class ShardedSuite: Sendable {
    /// The package root.
    public let root: String
    /// The tests to run: a regular expression over test ids, as `swift test --filter` takes it.
    public let filter: String
    /// How many test processes run at once.
    public let shards: Int
    private let commands: [TimedCommand]

    /// A suite of the tests `filter` selects in the package at `root`, run as `shards` processes.
    public init(root: String, filter: String, shards: Int) {
        self.root = root
        self.filter = filter
        self.shards = max(1, shards)
        commands = (0..<max(1, shards)).map { _ in TimedCommand() }
    }

    /// What one shard did.
    public struct ShardResult: Sendable {
        /// How the process ended.
        public var outcome: TimedCommand.Outcome
        /// Its output (standard output and error).
        public var output: String
        /// Where that output is kept.
        public var logFile: String
        /// How many tests were dealt to it.
        public var tests: Int
        /// Its wall time, in seconds.
        public var seconds: Double

        /// A shard's result.
        public init(
            outcome: TimedCommand.Outcome, output: String, logFile: String, tests: Int, seconds: Double
        ) {
            self.outcome = outcome
            self.output = output
            self.logFile = logFile
            self.tests = tests
            self.seconds = seconds
        }
    }

    /// The test binary of the last `swift build --build-tests`: the one `*.xctest` in the debug
    /// build directory.
    public func testBinary() throws(MutationError) -> String {
        let directory = "\(root)/.build/debug"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        guard let name = names.filter({ $0.hasSuffix(".xctest") }).sorted().first else {
            throw MutationError(
                "no test binary in \(directory); build the tests first (swift build --build-tests)")
        }
        return "\(directory)/\(name)"
    }

    /// The ids of the tests `filter` selects, in the order the binary lists them.
    ///
    /// - Throws: ``MutationError`` when the binary cannot list its tests or `filter` is not a
    ///   regular expression.
    public func testIDs(binary: String, logFile: String) throws(MutationError) -> [String] {
        let pattern: Regex<AnyRegexOutput>
        do {
            pattern = try Regex(filter)
        } catch {
            throw MutationError("'\(filter)' is not a regular expression: \(error)")
        }
        let listed = try commands[0].run(
            [binary, "--testing-library", "swift-testing", "--list-tests"], in: root, logFile: logFile,
            timeout: 120)
        let text = FileManager.default.contents(atPath: logFile).map { String(decoding: $0, as: UTF8.self) }
        guard listed.status == 0, let text else {
            throw MutationError(
                "\(binary) could not list its tests (status \(listed.status)); see \(logFile)")
        }
        return text.split(separator: "\n").map(String.init).filter { id in
            id.contains("/") && !id.hasPrefix(" ") && id.contains(pattern)
        }
    }

    /// `ids` dealt out to `count` shards in turn, each shard's as a filter that selects exactly
    /// its tests (a test's id is a prefix of no other's: it ends with its argument labels).
    public static func filters(dealing ids: [String], into count: Int) -> [String] {
        let count = max(1, min(count, ids.count))
        return (0..<count).map { shard in
            let mine = stride(from: shard, to: ids.count, by: count).map { escaped(ids[$0]) }
            return "^(" + mine.joined(separator: "|") + ")"
        }
    }

    /// `text` with every character a regular expression gives a meaning to escaped.
    static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            if "\\^$.|?*+()[]{}".contains(character) { result.append("\\") }
            result.append(character)
        }
        return result
    }

    /// Runs the selected tests as the shards, all at once, each for at most `timeout` seconds;
    /// each shard's output goes to `<logPrefix>-<n>.log`. `onShardEnd` hears each shard as it
    /// ends (from the shard's own thread).
    ///
    /// - Throws: ``MutationError`` when there is no test binary, it cannot list its tests, or no
    ///   test matches.
    public func run(
        logPrefix: String, timeout: Double, onShardEnd: @Sendable (Int, ShardResult) -> Void = { _, _ in }
    ) throws(MutationError) -> [ShardResult] {
        let binary = try testBinary()
        let ids = try testIDs(binary: binary, logFile: "\(logPrefix)-list.log")
        guard !ids.isEmpty else { throw MutationError("no test matches '\(filter)'") }
        let filters = Self.filters(dealing: ids, into: shards)
        let counts = (0..<filters.count).map { shard -> Int in
            (ids.count - shard + filters.count - 1) / filters.count
        }
        let results = ResultSlots(count: filters.count)
        DispatchQueue.concurrentPerform(iterations: filters.count) { shard in
            let logFile = "\(logPrefix)-\(shard + 1).log"
            let started = Date()
            let outcome: TimedCommand.Outcome
            do {
                outcome = try commands[shard].run(
                    ["NO_COLOR=1", binary, "--testing-library", "swift-testing", "--filter", filters[shard]],
                    in: root, logFile: logFile, timeout: timeout)
            } catch {
                outcome = TimedCommand.Outcome(status: 127, timedOut: false)
                try? Data("\(error)\n".utf8).write(to: URL(fileURLWithPath: logFile))
            }
            let output = FileManager.default.contents(atPath: logFile).map {
                String(decoding: $0, as: UTF8.self)
            }
            let result = ShardResult(
                outcome: outcome, output: output ?? "", logFile: logFile, tests: counts[shard],
                seconds: Date().timeIntervalSince(started))
            results.set(shard, result)
            onShardEnd(shard, result)
        }
        return results.all
    }

    /// Sends `signal` to every running shard's process group.
    public func stop(signal: Int32 = SIGINT) {
        for command in commands { command.stop(signal: signal) }
    }
}

/// The shards' results, filled in from their threads.
private final class ResultSlots: Sendable {
    private let slots: Mutex<[ShardedSuite.ShardResult?]>

    init(count: Int) { slots = Mutex(Array(repeating: nil, count: count)) }

    func set(_ index: Int, _ result: ShardedSuite.ShardResult) {
        slots.withLock { $0[index] = result }
    }

    var all: [ShardedSuite.ShardResult] { slots.withLock { $0.compactMap { $0 } } }
}
