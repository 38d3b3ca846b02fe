import Basics
import Foundation

/// A named group of measurements, run by `swift run -c release bench [suite]`.
struct BenchSuite: Sendable {
    /// The name used to select the suite on the command line (`bench diff`).
    let name: String
    /// One line saying what the suite measures.
    let summary: String
    /// Runs the suite, reporting each figure through the runner.
    let run: @Sendable (BenchRunner) async throws -> Void
}

/// Timings of repeated runs of one piece of work, in seconds per run.
struct Samples: Sendable {
    /// The sorted durations, seconds.
    let sorted: [Double]

    init(_ values: [Double]) {
        sorted = values.sorted()
    }

    /// The value below which the given fraction of samples fall (nearest rank).
    func percentile(_ fraction: Double) -> Double {
        guard !sorted.isEmpty else { return .nan }
        let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }

    var median: Double {
        guard !sorted.isEmpty else { return .nan }
        let mid = sorted.count / 2
        return sorted.count.isMultiple(of: 2) ? (sorted[mid - 1] + sorted[mid]) / 2 : sorted[mid]
    }

    var p90: Double { percentile(0.90) }
    var p99: Double { percentile(0.99) }
}

/// The unit a figure is printed in. Durations are converted from seconds.
enum BenchUnit: String, Sendable {
    case nanoseconds = "ns"
    case microseconds = "us"
    case milliseconds = "ms"
    case seconds = "s"
    case perSecond = "ops/s"
    case count = "count"
    case ratio = "x"
    case megabytes = "MB"

    /// Converts a duration in seconds to this unit; other units pass through.
    func fromSeconds(_ seconds: Double) -> Double {
        switch self {
        case .nanoseconds: seconds * 1e9
        case .microseconds: seconds * 1e6
        case .milliseconds: seconds * 1e3
        default: seconds
        }
    }
}

/// A goal a figure is checked against. `met` in the output says whether all goals held.
enum BenchTarget: Sendable, CustomStringConvertible {
    /// The median is at most this value (in the measurement's unit).
    case atMost(Double)
    /// The median is at least this value (in the measurement's unit).
    case atLeast(Double)
    /// The baseline's median divided by this median is at least this factor ("5x faster").
    case fasterThanBaseline(by: Double)
    /// This median divided by the baseline's median is at most this factor ("at most 1.3x raw").
    case withinBaseline(factor: Double)

    var description: String {
        switch self {
        case .atMost(let v): "<= \(BenchFormat.number(v))"
        case .atLeast(let v): ">= \(BenchFormat.number(v))"
        case .fasterThanBaseline(let f): ">= \(BenchFormat.number(f))x faster than baseline"
        case .withinBaseline(let f): "<= \(BenchFormat.number(f))x baseline"
        }
    }

    func isMet(value: Double, baseline: Double?) -> Bool {
        switch self {
        case .atMost(let v): return value <= v
        case .atLeast(let v): return value >= v
        case .fasterThanBaseline(let f):
            guard let baseline else { return false }
            return baseline / value >= f
        case .withinBaseline(let f):
            guard let baseline else { return false }
            return value / baseline <= f
        }
    }
}

/// One reported figure, with its optional baseline and targets.
struct BenchMeasurement: Sendable {
    var suite: String
    var name: String
    var unit: BenchUnit
    var median: Double
    var p90: Double
    var p99: Double?
    var baselineName: String?
    var baselineMedian: Double?
    var targets: [BenchTarget] = []
    var note: String?

    /// Baseline divided by this figure for durations (how many times faster; below 1 means
    /// slower), this figure divided by the baseline otherwise.
    var ratio: Double? {
        guard let baselineMedian, median > 0 else { return nil }
        switch unit {
        case .nanoseconds, .microseconds, .milliseconds, .seconds: return baselineMedian / median
        default: return baselineMedian == 0 ? nil : median / baselineMedian
        }
    }

    var met: Bool? {
        targets.isEmpty ? nil : targets.allSatisfy { $0.isMet(value: median, baseline: baselineMedian) }
    }
}

enum BenchFormat {
    static func number(_ value: Double) -> String {
        if value.isNaN { return "-" }
        if value == value.rounded() && abs(value) < 1e15 { return String(Int(value)) }
        let magnitude = abs(value)
        let digits = magnitude >= 100 ? 1 : magnitude >= 1 ? 2 : 4
        return String(format: "%.\(digits)f", value)
    }
}

/// Runs suites and reports their figures as a table or as JSON lines.
///
/// Suites time work with `measure` (warm-up runs, then several timed runs; median and p90)
/// and report with `report`, always next to a baseline measured in the same run where one
/// applies, so a noisy machine still gives a meaningful ratio.
final class BenchRunner: @unchecked Sendable {
    // Invariant: a runner is used by one suite at a time, from one task; the results array is
    // only touched from that task.
    let json: Bool
    let quick: Bool
    /// The engines `--database` asked the http suite to deploy behind HAProxy (none: it does
    /// not).
    let deploymentEngines: [HTTPSuite.Engine]
    private(set) var results: [BenchMeasurement] = []
    private var currentSuite = ""

    init(json: Bool, quick: Bool, deploymentEngines: [HTTPSuite.Engine] = []) {
        self.json = json
        self.quick = quick
        self.deploymentEngines = deploymentEngines
    }

    func begin(_ suite: BenchSuite) {
        currentSuite = suite.name
        if !json { print("\n== \(suite.name): \(suite.summary)") }
    }

    /// Times `body`: `warmup` untimed runs, then `runs` timed runs. Each sample is the time of
    /// one run divided by `iterations` (so a fast body can be repeated inside one sample).
    func measure(
        warmup: Int = 2, runs: Int = 10, iterations: Int = 1, _ body: () throws -> Void
    ) rethrows -> Samples {
        for _ in 0..<warmup { try body() }
        var values: [Double] = []
        values.reserveCapacity(runs)
        let clock = ContinuousClock()
        for _ in 0..<(quick ? max(3, runs / 3) : runs) {
            let elapsed = try clock.measure { try body() }
            values.append(elapsed.seconds / Double(iterations))
        }
        return Samples(values)
    }

    /// The async form of `measure`.
    func measure(
        warmup: Int = 2, runs: Int = 10, iterations: Int = 1, _ body: () async throws -> Void
    ) async rethrows -> Samples {
        for _ in 0..<warmup { try await body() }
        var values: [Double] = []
        let clock = ContinuousClock()
        for _ in 0..<(quick ? max(3, runs / 3) : runs) {
            let start = clock.now
            try await body()
            values.append((clock.now - start).seconds / Double(iterations))
        }
        return Samples(values)
    }

    /// Reports timed samples in `unit`, optionally beside a baseline's samples.
    @discardableResult
    func report(
        _ name: String, _ samples: Samples, unit: BenchUnit,
        baseline: (name: String, samples: Samples)? = nil,
        targets: [BenchTarget] = [], note: String? = nil
    ) -> BenchMeasurement {
        let measurement = BenchMeasurement(
            suite: currentSuite, name: name, unit: unit,
            median: unit.fromSeconds(samples.median), p90: unit.fromSeconds(samples.p90),
            p99: unit.fromSeconds(samples.p99),
            baselineName: baseline?.name,
            baselineMedian: baseline.map { unit.fromSeconds($0.samples.median) },
            targets: targets, note: note)
        emit(measurement)
        return measurement
    }

    /// Reports a figure that is not a duration (a count, a rate, a ratio).
    @discardableResult
    func report(
        _ name: String, value: Double, p90: Double? = nil, p99: Double? = nil, unit: BenchUnit,
        baseline: (name: String, value: Double)? = nil,
        targets: [BenchTarget] = [], note: String? = nil
    ) -> BenchMeasurement {
        let measurement = BenchMeasurement(
            suite: currentSuite, name: name, unit: unit, median: value, p90: p90 ?? value, p99: p99,
            baselineName: baseline?.name, baselineMedian: baseline?.value,
            targets: targets, note: note)
        emit(measurement)
        return measurement
    }

    /// Prints a line of progress or context (not in JSON mode, where stdout is data).
    func log(_ text: String) {
        if json {
            FileHandle.standardError.write(Data("[\(currentSuite)] \(text)\n".utf8))
        } else {
            print("   \(text)")
        }
    }

    private func emit(_ m: BenchMeasurement) {
        results.append(m)
        if json {
            print(jsonLine(m))
        } else {
            print(tableLine(m))
        }
    }

    private func tableLine(_ m: BenchMeasurement) -> String {
        var line = "  \(m.name.padding(toLength: 44, withPad: " ", startingAt: 0)) "
        line += "median \(BenchFormat.number(m.median)) \(m.unit.rawValue)"
        line += "  p90 \(BenchFormat.number(m.p90))"
        if let p99 = m.p99 { line += "  p99 \(BenchFormat.number(p99))" }
        if let baselineName = m.baselineName, let baselineMedian = m.baselineMedian {
            line += "  | baseline \(baselineName): \(BenchFormat.number(baselineMedian)) \(m.unit.rawValue)"
            if let ratio = m.ratio {
                switch m.unit {
                case .nanoseconds, .microseconds, .milliseconds, .seconds:
                    line +=
                        ratio >= 1
                        ? " (\(BenchFormat.number(ratio))x faster)"
                        : " (\(BenchFormat.number(1 / ratio))x slower)"
                default:
                    line += " (\(BenchFormat.number(ratio))x)"
                }
            }
        }
        if let met = m.met {
            line += "  | target \(m.targets.map(\.description).joined(separator: ", ")): "
            line += met ? "met" : "NOT MET"
        }
        if let note = m.note { line += "  [\(note)]" }
        return line
    }

    private func jsonLine(_ m: BenchMeasurement) -> String {
        var object: [String: Any] = [
            "suite": m.suite, "name": m.name, "unit": m.unit.rawValue,
            "median": m.median, "p90": m.p90,
        ]
        if let p99 = m.p99 { object["p99"] = p99 }
        if let baselineName = m.baselineName, let baselineMedian = m.baselineMedian {
            object["baseline"] = ["name": baselineName, "median": baselineMedian]
        }
        if let ratio = m.ratio { object["ratio"] = ratio }
        if !m.targets.isEmpty {
            object["target"] = m.targets.map(\.description).joined(separator: ", ")
            object["met"] = m.met ?? false
        }
        if let note = m.note { object["note"] = note }
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}

extension Duration {
    /// The duration in seconds, as a floating-point number.
    var seconds: Double {
        let (s, attoseconds) = components
        return Double(s) + Double(attoseconds) * 1e-18
    }
}

/// Keeps a value alive and opaque to the optimizer so measured work is not removed.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
