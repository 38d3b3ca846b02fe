import Foundation
import Testing

/// How long the simulation and crash tests run, from the environment (see their suites), and
/// the time limits that make a hung run fail instead of blocking the test target.
enum LongRunSettings {
    /// `MUTATION_SIM_SEEDS`: comma-separated seeds or ranges (`1-6,100-101`, the default).
    static let simulationSeeds: [UInt64] = {
        let text = ProcessInfo.processInfo.environment["MUTATION_SIM_SEEDS"] ?? "1-6,100-101"
        return text.split(separator: ",").flatMap { range -> [UInt64] in
            let bounds = range.split(separator: "-").compactMap { UInt64($0) }
            guard let low = bounds.first, let high = bounds.last, low <= high else { return [] }
            return Array(low...high)
        }
    }()

    /// `MUTATION_SIM_STEPS`: steps per seed (default 350).
    static let simulationSteps =
        ProcessInfo.processInfo.environment["MUTATION_SIM_STEPS"].flatMap(Int.init) ?? 350

    /// `MUTATION_CRASH_RUNS`: how many times the helper is killed (default 200).
    static let crashRuns = ProcessInfo.processInfo.environment["MUTATION_CRASH_RUNS"].flatMap(Int.init) ?? 200

    /// `MUTATION_CRASH_SEED`: the kill schedule's seed (default 5).
    static let crashSeed =
        ProcessInfo.processInfo.environment["MUTATION_CRASH_SEED"].flatMap(UInt64.init) ?? 5

    /// Hang detection only: far above a run on a machine whose cores are all busy with other work
    /// (every seed runs at once, beside the rest of the suite, and waiting for a core counts).
    static let simulationLimit = TimeLimitTrait.Duration.minutes(
        max(25, simulationSeeds.count * simulationSteps / 200 + 1))
    /// Hang detection only (a debug helper started hundreds of times, on a loaded machine).
    static let crashLimit = TimeLimitTrait.Duration.minutes(max(25, crashRuns / 10))
}

/// The time limit of the other mutation suites: hang detection only, never a speed target (speed
/// is measured in `bench`), so a test waiting its turn for a busy core never meets it. A test's
/// time counts from its start to its end, waits for the shared pool included, so in a full run
/// it can be as long as the run itself: 11 minutes on the 2-core machine at a load of 10, where
/// a sub-second test met the old 10-minute limit. The limit sits above any such run and well
/// below CI's 90 minutes.
let mutationSuiteHangLimit = TimeLimitTrait.Duration.minutes(20)
