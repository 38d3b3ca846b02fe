import Basics
import Foundation
import ListEngine
import Synchronization

/// The `diff-feed` suite: the changes a feed sees, each beside a figure from the same run. New
/// posts on top against identical arrays, String identifiers against Int ones, the memory a
/// million-item diff takes and keeps, and the batch-safe form of a result.
enum DiffFeedSuite {
    static let suite = BenchSuite(
        name: "diff-feed",
        summary: "ListDiff on feed changes: new posts on top, String ids, scratch memory, batch-safe form"
    ) { runner in
        FeedRuns(runner: runner).run()
    }
}

extension DiffFeedSuite {
    /// An item with a 36-byte identifier, as a feed's UUID strings.
    struct StringItem: ListDiffable, Sendable {
        let id: String
        let version: Int

        var diffIdentifier: String { id }
        func isContentEqual(to other: StringItem) -> Bool { version == other.version }
    }

    /// A 36-byte identifier for `number`, in the shape of a UUID, in storage of its own (as
    /// strings decoded from two responses are).
    static func uuid(_ number: Int) -> String {
        var random = SplitMix64(seed: UInt64(number))
        let high = random.next()
        let low = random.next()
        func hex(_ value: UInt64, _ digits: Int) -> String {
            let text = String(value, radix: 16)
            return String(repeating: "0", count: max(0, digits - text.count)) + text.suffix(digits)
        }
        return "\(hex(high >> 32, 8))-\(hex((high >> 16) & 0xFFFF, 4))-4\(hex(high & 0xFFF, 3))-"
            + "8\(hex(low >> 52, 3))-\(hex(low & 0xFFFF_FFFF_FFFF, 12))"
    }

    /// The suite's measurements.
    struct FeedRuns {
        let runner: BenchRunner
        /// Inputs are copied until together this large, so timed runs read from memory.
        let coldBytes = 64 << 20
        typealias Item = DiffSuite.Item

        func run() {
            // First, so no earlier large diff has left memory behind.
            memory(count: 1_000_000)
            for count in [100_000, 1_000_000] { newPostsOnTop(count: count) }
            stringIdentifiers(count: 100_000)
            batchSafe(count: 100_000)
        }

        /// Copies of `old`/`new`, in distinct buffers, together at least `coldBytes` large.
        func copies(old: [Item], new: [Item]) -> [(old: [Item], new: [Item])] {
            let pairBytes = max(1, (old.count + new.count) * MemoryLayout<Item>.stride)
            let count = max(2, (coldBytes + pairBytes - 1) / pairBytes)
            return (0..<count).map { _ in (old.map { $0 }, new.map { $0 }) }
        }

        /// Times `ListDiff.diff` over the copies, each run on the next copy.
        func time<T: ListDiffable>(_ copies: [(old: [T], new: [T])], iterations: Int) -> Samples {
            var next = 0
            return runner.measure(warmup: 2, runs: 11, iterations: iterations) {
                for _ in 0..<iterations {
                    let pair = copies[next % copies.count]
                    next += 1
                    blackHole(ListDiff.diff(old: pair.old, new: pair.new))
                }
            }
        }

        /// 1. 100 new items on top of `count`, against the identical arrays.
        func newPostsOnTop(count: Int) {
            let old = (0..<count).map { Item(id: $0, version: 0) }
            let fresh = (0..<100).map { Item(id: count + $0, version: 0) }
            let iterations = max(1, 100_000 / count) * 10
            let front = time(copies(old: old, new: fresh + old), iterations: iterations)
            let identical = time(copies(old: old, new: old), iterations: iterations)
            let result = ListDiff.diff(old: old, new: fresh + old)
            runner.report(
                "new posts on top n=\(count)", front, unit: .milliseconds, baseline: ("identical", identical),
                targets: [.withinBaseline(factor: 2)],
                note:
                    "100 inserted at the front: \(result.inserts.count) inserts, \(result.moves.count) moves")
        }

        /// 2. Workload (a) with 36-byte String identifiers, against the same with Int ones.
        func stringIdentifiers(count: Int) {
            let input = DiffSuite.Input.make(.changes, count: count, seed: 0x5EED + UInt64(count))
            let copyCount = 3
            let strings: [(old: [StringItem], new: [StringItem])] = (0..<copyCount).map { _ in
                (
                    input.old.map { StringItem(id: DiffFeedSuite.uuid($0.id), version: $0.version) },
                    input.new.map { StringItem(id: DiffFeedSuite.uuid($0.id), version: $0.version) }
                )
            }
            let integers = copies(old: input.old, new: input.new)
            let stringTimes = time(strings, iterations: 1)
            let integerTimes = time(integers, iterations: 1)
            let stringMoves = ListDiff.diff(old: strings[0].old, new: strings[0].new).moves.count
            let integerMoves = ListDiff.diff(old: input.old, new: input.new).moves.count
            runner.report(
                "String ids n=\(count) (a)", stringTimes, unit: .milliseconds,
                baseline: ("Int ids", integerTimes),
                targets: [.withinBaseline(factor: 4)],
                note:
                    "36-byte UUID strings, old and new in separate storage; moves \(stringMoves) = \(integerMoves)"
            )
        }

        /// 3. The memory one diff of `count` items takes at its peak and keeps afterwards.
        func memory(count: Int) {
            let input = DiffSuite.Input.make(.changes, count: count, seed: 0x3E3)
            // A small diff first, so the kept workspace is already there, then the large one.
            blackHole(ListDiff.diff(old: Array(input.old.prefix(1_000)), new: Array(input.new.prefix(1_000))))
            let before = ProcessMemory.resident()
            let sampler = ProcessMemory.PeakSampler()
            do {
                let result = ListDiff.diff(old: input.old, new: input.new)
                blackHole(result)
            }
            let peak = sampler.stop()
            // A large workspace is kept a moment for the next large diff, then given back.
            usleep(UInt32(4 * 250_000))
            let after = ProcessMemory.resident()
            let megabyte = Double(1 << 20)
            let inputBytes = Double((input.old.count + input.new.count) * MemoryLayout<Item>.stride)
            runner.report(
                "memory peak n=\(count) (a)", value: Double(max(0, peak - before)) / megabyte,
                unit: .megabytes, baseline: ("the two arrays", inputBytes / megabyte),
                note: "resident growth during one diff, sampled every 50 us from another thread; "
                    + "freed pages the process already holds are reused first")
            runner.report(
                "memory kept after n=\(count) (a)", value: Double(max(0, after - before)) / megabyte,
                unit: .megabytes, targets: [.atMost(1)],
                note: "resident growth 1 s after the diff, its result gone (/proc/self/statm)")
        }

        /// 4. Items both moved and updated, in the plain and the batch-safe form.
        func batchSafe(count: Int) {
            let input = DiffSuite.Input.make(.changes, count: count, seed: 0xBA7C)
            let plain = ListDiff.diff(old: input.old, new: input.new)
            func both(_ result: ListDiffResult) -> Int {
                Set(result.moves.map(\.from)).intersection(result.updates).count
            }
            let safe = plain.batchSafe
            runner.report(
                "moved and updated, batch-safe n=\(count) (a)", value: Double(both(safe)), unit: .count,
                baseline: ("plain form", Double(both(plain))), targets: [.atMost(0)],
                note: "batch-safe: \(safe.deletes.count) deletes, \(safe.inserts.count) inserts, "
                    + "\(safe.moves.count) moves, \(safe.updates.count) updates")
        }
    }

    /// The process's resident memory, from /proc (Linux).
    enum ProcessMemory {
        /// Resident bytes now.
        static func resident() -> Int {
            guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else {
                return 0
            }
            let fields = text.split(separator: " ")
            guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
            return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
        }

        /// Samples the resident size from its own thread until stopped.
        final class PeakSampler: @unchecked Sendable {
            // Invariant for @unchecked Sendable: `peak` is written by the sampling thread only
            // before it sets `finished`, and read by `stop` only after.
            private let running = Atomic<Bool>(true)
            private let finished = Atomic<Bool>(false)
            private var peak = 0

            /// Starts sampling.
            init() {
                peak = ProcessMemory.resident()
                let thread = Thread { [self] in
                    repeat {
                        peak = max(peak, ProcessMemory.resident())
                        usleep(50)
                    } while running.load(ordering: .acquiring)
                    finished.store(true, ordering: .releasing)
                }
                thread.start()
                usleep(1_000)
            }

            /// Stops sampling and returns the largest resident size seen.
            func stop() -> Int {
                running.store(false, ordering: .releasing)
                while !finished.load(ordering: .acquiring) { usleep(50) }
                return max(peak, ProcessMemory.resident())
            }
        }
    }
}
