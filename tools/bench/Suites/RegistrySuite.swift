import AllApps
import Composition
import ManifestLint
import Sockets

/// Socket lookup through the registry, beside a dictionary of existentials with a cast.
enum RegistrySuite {
    static let suite = BenchSuite(
        name: "registry",
        summary: "socket lookup: slot-indexed registry vs [ObjectIdentifier: any Sendable] + cast"
    ) { runner in
        let registry = try AppHost.compose(AllApps.definitions[0]).registry
        let baseline = dictionaryBaseline(registry)
        let lookups = 1_000_000

        let borrowed = runner.measure(warmup: 3, runs: 15, iterations: lookups) {
            var total = 0
            for _ in 0..<lookups {
                total &+= registry.with(.feedPolicy) { $0.pageSize }
            }
            blackHole(total)
        }
        let copied = runner.measure(warmup: 3, runs: 15, iterations: lookups) {
            var total = 0
            for _ in 0..<lookups {
                total &+= registry[.feedPolicy].pageSize
            }
            blackHole(total)
        }
        let dictionary = runner.measure(warmup: 3, runs: 15, iterations: lookups) {
            var total = 0
            let key = ObjectIdentifier((any FeedPolicy).self)
            for _ in 0..<lookups {
                let policy = baseline[key] as! any FeedPolicy
                total &+= policy.pageSize
            }
            blackHole(total)
        }
        runner.report(
            "lookup + read, registry.with (borrowed)", borrowed, unit: .nanoseconds,
            baseline: ("dictionary + cast", dictionary),
            targets: [.atMost(10), .fasterThanBaseline(by: 5)])
        runner.report(
            "lookup + read, registry[...] (copied out)", copied, unit: .nanoseconds,
            baseline: ("dictionary + cast", dictionary), targets: [.fasterThanBaseline(by: 5)],
            note: "copying an existential out costs a retain/release pair")
    }

    /// The same contracts in the kind of store a simple container keeps.
    private static func dictionaryBaseline(_ registry: SocketRegistry) -> [ObjectIdentifier: any Sendable] {
        [
            ObjectIdentifier((any Branding).self): registry[.branding],
            ObjectIdentifier((any FeedPolicy).self): registry[.feedPolicy],
            ObjectIdentifier((any PostLayout).self): registry[.postLayout],
            ObjectIdentifier((any ComposerPolicy).self): registry[.composerPolicy],
            ObjectIdentifier((any ReplyModel).self): registry[.replyModel],
            ObjectIdentifier((any Tabs).self): registry[.tabs],
            ObjectIdentifier((any Theme).self): registry[.theme],
            ObjectIdentifier((any Onboarding).self): registry[.onboarding],
        ]
    }
}
