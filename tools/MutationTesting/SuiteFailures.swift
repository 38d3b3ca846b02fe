import Foundation

/// What a failed `swift test` run says about its failures: the tests that recorded an issue, in
/// the order they did, and the argument each failed with (for a test run once per app, the app).
///
/// Read from Swift Testing's console output, whose issue lines look like
/// `✘ Test launch_showsFeed(app:) recorded an issue with 1 argument app → prism at
/// LaunchScenarios.swift:12:9: Expectation failed: …`.
public struct SuiteFailures: Sendable, Equatable, Codable {
    /// One failing test.
    public struct Failure: Sendable, Equatable, Codable {
        /// The test's name as printed (`launch_showsFeed(app:)`, or a display name in quotes).
        public var test: String
        /// Its arguments as printed (`app → prism`), empty for a test without arguments.
        public var arguments: String
        /// The value of its first argument (`prism`), if it has one.
        public var argumentValue: String?
    }

    /// Each failing test case once, first failure first.
    public var failures: [Failure]
    /// Why the test process died, when it did (a trap's `Fatal error: …` line, or `swift test`'s
    /// `error: Process '…' exited with unexpected signal code 4`): no test reports an issue then.
    public var crash: String?
    /// How many tests ran, by the summaries of Swift Testing (`Test run with 91 tests …`) and
    /// XCTest (`Executed 3 tests, …`): 0 when a filter matched nothing.
    public var testsRun: Int

    /// Parses `output` (standard output and error of `swift test`).
    public init(output: String) {
        var failures: [Failure] = []
        var fatal: String?
        var error: String?
        var testsRun = 0
        for line in output.split(separator: "\n") {
            testsRun +=
                Self.count(after: "Test run with ", in: line) + Self.count(after: "Executed ", in: line)
            if fatal == nil, let range = line.range(of: "Fatal error") {
                fatal = String(line[range.lowerBound...])
            }
            if line.contains("unexpected signal"), let range = line.range(of: "error: ") {
                error = String(line[range.lowerBound...])
            }
            guard let failure = Self.failure(in: line), !failures.contains(failure) else { continue }
            failures.append(failure)
        }
        self.failures = failures
        crash = fatal ?? error
        self.testsRun = testsRun
    }

    /// The number right after `prefix` in `line` when a word starting with "test" follows it.
    private static func count(after prefix: String, in line: Substring) -> Int {
        guard let range = line.range(of: prefix) else { return 0 }
        let rest = line[range.upperBound...]
        let digits = rest.prefix { $0.isNumber }
        guard rest.dropFirst(digits.count).hasPrefix(" test"), let count = Int(digits) else { return 0 }
        return count
    }

    /// The distinct argument values that failed (the apps whose scenarios failed), in order.
    public var failingValues: [String] {
        var values: [String] = []
        for value in failures.compactMap(\.argumentValue) where !values.contains(value) {
            values.append(value)
        }
        return values
    }

    private static func failure(in line: Substring) -> Failure? {
        guard let start = line.range(of: "Test ") else { return nil }
        let rest = line[start.upperBound...]
        guard let issue = rest.range(of: " recorded an issue") else { return nil }
        var test = String(rest[..<issue.lowerBound])
        var arguments = ""
        // The arguments come after the name (`… with 1 argument app → prism recorded an issue`) or
        // after the phrase (`… recorded an issue with 1 argument app → prism at File.swift:…`).
        if let with = test.range(of: " with ", options: .backwards),
            test[with.upperBound...].contains("argument")
        {
            arguments = String(test[with.upperBound...])
            test = String(test[..<with.lowerBound])
        } else {
            let after = rest[issue.upperBound...]
            if after.hasPrefix(" with ") {
                var text = after.dropFirst(" with ".count)
                if let at = text.range(of: " at ") { text = text[..<at.lowerBound] }
                if let colon = text.range(of: ": ") { text = text[..<colon.lowerBound] }
                arguments = String(text)
            }
        }
        // `1 argument app → prism`: drop the count.
        if let space = arguments.firstIndex(of: " "), arguments[..<space].allSatisfy(\.isNumber) {
            arguments = String(arguments[arguments.index(after: space)...])
            if arguments.hasPrefix("arguments ") { arguments.removeFirst("arguments ".count) }
            if arguments.hasPrefix("argument ") { arguments.removeFirst("argument ".count) }
        }
        let value = arguments.range(of: " → ").map { arguments[$0.upperBound...] }.map {
            String($0.prefix { $0 != "," && $0 != " " })
        }
        return Failure(test: test, arguments: arguments, argumentValue: value)
    }
}
