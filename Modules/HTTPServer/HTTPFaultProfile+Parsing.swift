import Foundation
import Wire

/// A fault profile string that cannot be read: what is wrong, quoting it, and the syntax.
public struct HTTPFaultProfileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong, quoting the offending part.
    public let message: String

    /// The message.
    public var description: String { message }
}

extension HTTPFaultProfile {
    /// The profile string's syntax, for `--help`.
    public static let syntax = """
        PROFILE is a preset, settings, or a preset followed by settings, separated by commas:
          none                 no faults (the default)
          slow                 latency=400ms..1500ms
          flaky                latency=20ms..300ms,5xx=0.15,drop=0.1
          drop-after-apply     drop=1: every change is applied, then its response is lost
        settings (each at most once; they override the preset's):
          latency=D            wait D before running the handler (50ms, 1.5s)
          latency=D1..D2       wait a uniformly drawn time from D1 to D2
          5xx=RATE             answer this share of requests with 503 without running the handler
          status=CODE          the status those get instead of 503 (500-599)
          drop=RATE            for this share of requests other than GET and HEAD, run the handler,
                               then close the connection before responding
          seed=N               seed the draws (default 1), so a run replays the same faults
        RATE is a number from 0 to 1 (0.25) or a percentage (25%).
        examples: --faults flaky   --faults latency=50ms,5xx=0.1,drop=0.2   --faults flaky,seed=7
        """

    /// Reads a profile string (`"flaky"`, `"latency=50ms,5xx=0.1,drop=0.2"`, `"flaky,seed=7"`).
    ///
    /// Complexity: O(n) in the length of `text`.
    ///
    /// - Throws: `HTTPFaultProfileError` naming the part that cannot be read.
    public init(parsing text: String) throws(HTTPFaultProfileError) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        var profile = HTTPFaultProfile.none
        var seen: Set<String> = []
        for (index, part) in parts.enumerated() {
            guard !part.isEmpty else {
                throw Self.error(text, "it has an empty part; separate settings with single commas")
            }
            guard let equals = part.firstIndex(of: "=") else {
                guard index == 0, let preset = Self.presets.first(where: { $0.name == part.lowercased() })
                else {
                    let names = Self.presets.map(\.name).joined(separator: ", ")
                    let hint =
                        index == 0
                        ? "'\(part)' is neither a preset (\(names)) nor a setting such as latency=50ms"
                        : "'\(part)' is not a setting; a preset may only come first, settings look like drop=0.2"
                    throw Self.error(text, hint)
                }
                profile = preset
                continue
            }
            let key = part[..<equals].lowercased()
            let value = String(part[part.index(after: equals)...])
            guard seen.insert(key).inserted else {
                throw Self.error(text, "setting '\(key)' is given more than once")
            }
            if profile.name == "none" { profile.name = "custom" }
            switch key {
            case "latency": profile.latency = try Self.latency(value, in: text)
            case "5xx": profile.serverErrorRate = try Self.rate(value, key: key, in: text)
            case "drop": profile.dropAfterApplyRate = try Self.rate(value, key: key, in: text)
            case "status":
                guard let status = Int(value), (500...599).contains(status) else {
                    throw Self.error(
                        text, "status '\(value)' is not a 5xx status; use a number from 500 to 599")
                }
                profile.serverErrorStatus = status
            case "seed":
                guard let seed = UInt64(value) else {
                    throw Self.error(text, "seed '\(value)' is not a whole number from 0 up")
                }
                profile.seed = seed
            default:
                throw Self.error(
                    text, "unknown setting '\(key)'; the settings are latency, 5xx, status, drop and seed")
            }
        }
        self = profile
    }

    private static func error(_ text: String, _ problem: String) -> HTTPFaultProfileError {
        HTTPFaultProfileError(
            message: "invalid fault profile '\(text)': \(problem) (for example 'flaky' or "
                + "'latency=50ms,5xx=0.1,drop=0.2'; see --help)")
    }

    private static func rate(_ value: String, key: String, in text: String) throws(HTTPFaultProfileError)
        -> Double
    {
        let number: Double?
        if value.hasSuffix("%") {
            number = Double(value.dropLast()).map { $0 / 100 }
        } else {
            number = Double(value)
        }
        guard let number, number.isFinite, (0...1).contains(number) else {
            throw Self.error(
                text, "\(key) rate '\(value)' is not a share from 0 to 1; write it as 0.25 or 25%")
        }
        return number
    }

    private static func latency(_ value: String, in text: String) throws(HTTPFaultProfileError)
        -> LatencyDistribution
    {
        let bounds = value.components(separatedBy: "..")
        guard bounds.count <= 2, let low = duration(bounds[0]) else {
            throw Self.error(
                text,
                "latency '\(value)' is not a duration such as 50ms or 1.5s, or a range such as 20ms..300ms")
        }
        guard bounds.count == 2 else { return low == .zero ? .none : .fixed(low) }
        guard let high = duration(bounds[1]), high >= low else {
            throw Self.error(
                text, "latency range '\(value)' needs two durations, the smaller first, such as 20ms..300ms")
        }
        return .uniform(low, high)
    }

    /// `50ms`, `1.5s`: a non-negative duration with its unit, or nil.
    private static func duration(_ text: String) -> Duration? {
        let unitStart = text.firstIndex { !($0.isASCII && ($0.isNumber || $0 == ".")) } ?? text.endIndex
        guard let number = Double(text[..<unitStart]), number.isFinite, number >= 0 else { return nil }
        let microseconds: Double
        switch text[unitStart...] {
        case "ms": microseconds = number * 1000
        case "s": microseconds = number * 1_000_000
        default: return nil
        }
        guard microseconds <= 3_600_000_000 else { return nil }
        return .microseconds(Int64(microseconds.rounded()))
    }
}
