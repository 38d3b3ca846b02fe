import Basics
import Foundation
import ListEngine
import Storage

/// The `diff` suite: ListDiff against the standard library's diff on three workloads and three
/// sizes, the number of moves beside the minimum, linearity, and ListAdapter.performUpdates.
enum DiffSuite {
    static let suite = BenchSuite(
        name: "diff",
        summary: "ListDiff vs stdlib difference(from:).inferringMoves(); moves vs minimum; adapter updates"
    ) { runner in
        try await Runs(runner: runner).run()
    }
}

// The suite's types live inside it, so their names cannot clash with other suites'.
extension DiffSuite {
    /// The bench's item: an identifier and a content version.
    struct Item: ListDiffable, Hashable, Sendable {
        let id: Int
        let version: Int

        var diffIdentifier: Int { id }
        func isContentEqual(to other: Item) -> Bool { version == other.version }
    }

    /// The three workloads of the issue.
    enum Workload: String, CaseIterable {
        case changes = "a"
        case shuffle = "b"
        case identical = "c"

        var label: String {
            switch self {
            case .changes: "(a) 10% del, 10% ins, 5% moved, 10% updated"
            case .shuffle: "(b) full shuffle"
            case .identical: "(c) identical"
            }
        }
    }

    /// An old/new pair for one workload and size.
    struct Input {
        let old: [Item]
        let new: [Item]

        /// Makes workload `workload` of `count` items, the same on every run for a given seed.
        static func make(_ workload: Workload, count: Int, seed: UInt64) -> Input {
            var random = SplitMix64(seed: seed)
            let old = (0..<count).map { Item(id: $0, version: 0) }
            switch workload {
            case .identical:
                return Input(old: old, new: old.map { Item(id: $0.id, version: $0.version) })
            case .shuffle:
                return Input(old: old, new: old.shuffled(using: &random))
            case .changes:
                // Pick 10% to delete and 5% to move; the rest stay in order. Inserted (10%, new
                // identifiers) and moved items get random positions among the staying ones.
                var roles = [UInt8](repeating: 0, count: count)  // 0 stay, 1 delete, 2 move
                var order = Array(0..<count)
                order.shuffle(using: &random)
                for index in order.prefix(count / 10) { roles[index] = 1 }
                for index in order.dropFirst(count / 10).prefix(count / 20) { roles[index] = 2 }
                var keyed: [(key: Double, item: Item)] = []
                keyed.reserveCapacity(count + count / 10)
                for index in 0..<count where roles[index] != 1 {
                    let key =
                        roles[index] == 2
                        ? Double.random(in: 0..<Double(count), using: &random) : Double(index)
                    keyed.append((key, old[index]))
                }
                for offset in 0..<(count / 10) {
                    let key = Double.random(in: 0..<Double(count), using: &random)
                    keyed.append((key, Item(id: count + offset, version: 0)))
                }
                keyed.sort { $0.key < $1.key }
                var new = keyed.map(\.item)
                // Update 10% of all items' worth among the surviving old ones.
                var survivors = new.indices.filter { new[$0].id < count }
                survivors.shuffle(using: &random)
                for index in survivors.prefix(count / 10) {
                    new[index] = Item(id: new[index].id, version: 1)
                }
                return Input(old: old, new: new)
            }
        }

        /// Copies of the pair, in distinct buffers, together at least `bytes` large.
        func copies(filling bytes: Int) -> [Input] {
            let pairBytes = max(1, (old.count + new.count) * MemoryLayout<Item>.stride)
            let count = max(1, (bytes + pairBytes - 1) / pairBytes)
            return (0..<count).map { _ in Input(old: old.map { $0 }, new: new.map { $0 }) }
        }

        /// The fewest moves any batch update needs: matched items minus the longest run of matched
        /// items that kept their order. Computed here with the standard library only, apart from
        /// ListEngine, so the figure checks ListDiff rather than repeating it.
        var minimumMoves: Int {
            var oldIndex: [Int: Int] = [:]
            oldIndex.reserveCapacity(old.count)
            for (index, item) in old.enumerated() { oldIndex[item.id] = index }
            var tails: [Int] = []
            var matched = 0
            for item in new {
                guard let value = oldIndex[item.id] else { continue }
                matched += 1
                var low = 0
                var high = tails.count
                while low < high {
                    let middle = (low + high) / 2
                    if tails[middle] < value { low = middle + 1 } else { high = middle }
                }
                if low == tails.count { tails.append(value) } else { tails[low] = value }
            }
            return matched - tails.count
        }
    }

    /// Runs the suite's measurements.
    struct Runs {
        let runner: BenchRunner
        let sizes = [10_000, 100_000, 1_000_000]
        /// Skip a stdlib run whose estimate exceeds this many seconds.
        let stdlibLimit = 30.0
        let stdlibName = "stdlib"
        /// Each timed diff reads the next of several copies of its input, together at least this
        /// large (twice the L3 cache of the reference machine), so every size runs from memory
        /// rather than small inputs staying in cache between runs, which would skew the
        /// linearity ratio; the standard library's runs read the same copies.
        let coldBytes = 64 << 20

        func run() async throws {
            var times: [Workload: [Int: Double]] = [:]
            for workload in Workload.allCases {
                runner.log("workload \(workload.label)")
                var stdlibTimes: [Int: Double] = [:]
                var copiesBySize: [Int: [Input]] = [:]
                for count in sizes {
                    let input = Input.make(workload, count: count, seed: 0x5EED + UInt64(count))
                    let copies = input.copies(filling: coldBytes)
                    if count >= 100_000 { copiesBySize[count] = copies }
                    let iterations = max(1, 100_000 / count) * (workload == .identical ? 20 : 1)
                    var next = 0
                    let ours = runner.measure(
                        warmup: 2, runs: count >= 1_000_000 ? 9 : 11, iterations: iterations
                    ) {
                        for _ in 0..<iterations {
                            let pair = copies[next % copies.count]
                            next += 1
                            blackHole(ListDiff.diff(old: pair.old, new: pair.new))
                        }
                    }
                    times[workload, default: [:]][count] = ours.median

                    let baseline = measureStdlib(copies, workload: workload, count: count, known: stdlibTimes)
                    if let samples = baseline.samples { stdlibTimes[count] = samples.median }
                    runner.report(
                        "diff \(workload.rawValue) n=\(count)", ours, unit: .milliseconds,
                        baseline: baseline.samples.map { (stdlibName, $0) },
                        targets: timeTargets(workload, count: count, hasBaseline: baseline.samples != nil),
                        note: baseline.note)

                    let result = ListDiff.diff(old: input.old, new: input.new)
                    let minimum = input.minimumMoves
                    runner.report(
                        "moves \(workload.rawValue) n=\(count)", value: Double(result.moves.count),
                        unit: .count,
                        baseline: ("minimum", Double(minimum)),
                        targets: workload == .identical ? [.atMost(0)] : [.withinBaseline(factor: 1.1)],
                        note: baseline.moves.map {
                            "stdlib inferringMoves reports \($0) moves (a changed item counts there as a removal "
                                + "and an insertion, never a move)"
                        })
                }
                if let small = copiesBySize[100_000], let large = copiesBySize[1_000_000],
                    let smallMedian = times[workload]?[100_000], let largeMedian = times[workload]?[1_000_000]
                {
                    let ratios = interleavedRatios(small: small, large: large, workload: workload)
                    runner.report(
                        "linearity \(workload.rawValue) t(1M)/t(100k)", value: ratios.median, p90: ratios.p90,
                        unit: .ratio, targets: [.atMost(12)],
                        note:
                            "median of \(ratios.sorted.count) interleaved 100k/1M pairs; the separate medians "
                            + "above give \(BenchFormat.number(largeMedian / smallMedian))")
                }
            }
            try await AdapterRuns(runner: runner).run()
        }

        /// t(1M) / t(100k) from pairs of samples taken back to back (ten 100k diffs, then one 1M
        /// diff, each on the next cold copy), so a change in the shared machine's load between two
        /// separate measurements does not skew the ratio.
        func interleavedRatios(small: [Input], large: [Input], workload: Workload)
            -> Samples
        {
            let clock = ContinuousClock()
            let repeats = workload == .identical ? 20 : 1
            func time(_ copies: [Input], from start: Int, count: Int) -> Double {
                clock.measure {
                    for offset in 0..<count {
                        let pair = copies[(start + offset) % copies.count]
                        blackHole(ListDiff.diff(old: pair.old, new: pair.new))
                    }
                }.seconds / Double(count)
            }
            _ = time(small, from: 0, count: 10 * repeats)
            _ = time(large, from: 0, count: repeats)
            var ratios: [Double] = []
            for pair in 0..<(runner.quick ? 3 : 11) {
                let smallTime = time(small, from: pair * 10 * repeats, count: 10 * repeats)
                let largeTime = time(large, from: pair * repeats, count: repeats)
                ratios.append(largeTime / smallTime)
            }
            return Samples(ratios)
        }

        /// The time targets for one figure.
        func timeTargets(_ workload: Workload, count: Int, hasBaseline: Bool) -> [BenchTarget] {
            switch (workload, count) {
            case (.changes, 100_000): [.atMost(10), .fasterThanBaseline(by: 20)]
            case (.identical, _) where hasBaseline: [.withinBaseline(factor: 2)]
            default: []
            }
        }

        /// Times the standard library's diff on the same input, unless an estimate from a smaller
        /// size says it would take longer than `stdlibLimit` (it is quadratic in the number of
        /// changes on workloads (a) and (b)).
        func measureStdlib(
            _ copies: [Input], workload: Workload, count: Int, known: [Int: Double]
        ) -> (samples: Samples?, note: String?, moves: Int?) {
            if workload != .identical, let (smaller, time) = known.max(by: { $0.key < $1.key }) {
                let scale = Double(count) / Double(smaller)
                let estimate = time * scale * scale
                if estimate > stdlibLimit {
                    let text = String(format: "%.0f", estimate)
                    return (
                        nil,
                        "stdlib skipped: estimated \(text) s from its n=\(smaller) time, quadratic in changes",
                        nil
                    )
                }
            }
            let input = copies[0]
            let moves = input.new.difference(from: input.old).inferringMoves().reduce(0) { count, change in
                if case .insert(_, _, let from?) = change, from >= 0 { return count + 1 }
                return count
            }
            let single = ContinuousClock().measure {
                blackHole(input.new.difference(from: input.old).inferringMoves())
            }
            let runs = single.seconds > 1 ? 3 : single.seconds > 0.1 ? 5 : 11
            let iterations = workload == .identical ? max(1, 100_000 / count) * 20 : 1
            var next = 0
            let samples = runner.measure(
                warmup: single.seconds > 1 ? 0 : 1, runs: runs, iterations: iterations
            ) {
                for _ in 0..<iterations {
                    let pair = copies[next % copies.count]
                    next += 1
                    blackHole(pair.new.difference(from: pair.old).inferringMoves())
                }
            }
            return (samples, nil, moves)
        }
    }

    /// ListAdapter.performUpdates on a 10,000-item list, workload (a), beside a full reload.
    struct AdapterRuns {
        let runner: BenchRunner
        let count = 10_000

        func run() async throws {
            let input = Input.make(.changes, count: count, seed: 0xADA)
            let runner = runner
            let count = count
            let (updates, reloads) = await MainActor.run {
                let view = ListViewStub()
                let dataSource = DataSource()
                let adapter = ListAdapter(view: view, workingRangeSize: 2)
                adapter.dataSource = dataSource
                dataSource.models = input.old
                adapter.performUpdates()
                view.visibleSections = 0..<20
                // Each timed run goes old → new and back: two updates of workload (a).
                let updates = runner.measure(warmup: 2, runs: 15, iterations: 2) {
                    dataSource.models = input.new
                    adapter.performUpdates()
                    dataSource.models = input.old
                    adapter.performUpdates()
                }
                let reloads = runner.measure(warmup: 2, runs: 15, iterations: 2) {
                    dataSource.models = input.new
                    adapter.reloadData()
                    dataSource.models = input.old
                    adapter.reloadData()
                }
                if !adapter.diagnostics.isEmpty || view.rowCount != adapter.totalRowCount {
                    runner.log("adapter diagnostics: \(adapter.diagnostics.prefix(3))")
                }
                return (updates, reloads)
            }
            runner.report(
                "adapter performUpdates n=\(count) (a)", updates, unit: .milliseconds,
                baseline: ("reloadData", reloads), targets: [.atMost(15)],
                note: "data source wraps 10k models, dedupe, diff, controllers, plan, view applies it")
        }
    }

    /// A list view for the adapter bench: applies each plan to its section model as a real view
    /// must, and draws nothing.
    @MainActor
    final class ListViewStub: ListView {
        typealias Row = String
        let width = 80
        var sectionRowCounts: [Int] = []
        var visibleSections: Range<Int> = 0..<0
        weak var source: (any ListRowSource<String>)?

        var rowCount: Int { sectionRowCounts.reduce(0, +) }

        func apply(_ plan: ListUpdatePlan, from source: any ListRowSource<String>) {
            self.source = source
            sectionRowCounts =
                plan.applySections(
                    to: sectionRowCounts, inserted: { source.rowCount(inSection: $0) },
                    reloaded: { _, reload in source.rowCount(inSection: reload.to) }) ?? []
            source.visibleSectionsDidChange(visibleSections)
            // Draw what a 24-line screen would show.
            for section in visibleSections where section < source.sectionCount {
                blackHole(source.row(at: ListIndexPath(section: section, row: 0), width: width))
                blackHole(source.height(at: ListIndexPath(section: section, row: 0), width: width))
            }
        }

        func reloadAll(from source: any ListRowSource<String>) {
            self.source = source
            sectionRowCounts = (0..<source.sectionCount).map { source.rowCount(inSection: $0) }
        }
    }

    /// The bench's data source: one row per item.
    @MainActor
    final class DataSource: ListAdapterDataSource {
        var models: [Item] = []

        func listItems() -> [AnyListItem] { models.map(AnyListItem.init) }

        func sectionController(for item: AnyListItem) -> (any ListSectionController<String>)? {
            ItemController()
        }
    }

    /// One row showing the item's id and version.
    @MainActor
    final class ItemController: ListSectionController {
        struct Layout: ListSectionLayout {
            func rowCount(for model: Item) -> Int { 1 }
            func height(ofRow row: Int, for model: Item, width: Int) -> Int { 1 }
            func row(_ row: Int, for model: Item, width: Int) -> String {
                "item \(model.id) v\(model.version)"
            }
        }

        let layout = Layout()
    }
}
