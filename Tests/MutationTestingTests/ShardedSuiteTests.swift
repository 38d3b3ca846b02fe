import CommandLineKit
import MutationTesting
import Testing

@Suite struct ShardedSuiteTests {
    // Test ids as the test binary lists them: some share a suite, a name's start, or a name with
    // other argument labels.
    let ids = [
        "CrossAppRegressionTests.AccountSwitchScenarios/a(app:)",
        "CrossAppRegressionTests.AccountSwitchScenarios/ab(app:)",
        "CrossAppRegressionTests.AccountSwitchScenarios/a(app:damage:)",
        "CrossAppRegressionTests.Account/a(app:)",
        "CrossAppRegressionTests.Guards/sharedCode_namesNoApp()",
        "CrossAppRegressionTests.Guards/x.y()",
        "OtherTests.AccountSwitchScenarios/a(app:)",
    ]

    @Test func theTestsAreDealtOutInTurn_andEachFilterSelectsExactlyItsOwn() throws {
        // When seven tests are dealt to three shards
        let filters = ShardedSuite.filters(dealing: ids, into: 3)
        // Then each shard's filter, read as `swift test --filter` reads it (a match anywhere in a
        // test's id), selects the tests dealt to it and no other
        #expect(filters.count == 3)
        for (shard, filter) in filters.enumerated() {
            let pattern = try Regex(filter)
            let selected = ids.filter { $0.contains(pattern) }
            let dealt = stride(from: shard, to: ids.count, by: 3).map { ids[$0] }
            #expect(selected == dealt, "shard \(shard + 1): \(filter)")
        }
    }

    @Test func moreShardsThanTests_makesOneFilterPerTest() {
        #expect(ShardedSuite.filters(dealing: Array(ids.prefix(2)), into: 8).count == 2)
        #expect(ShardedSuite.filters(dealing: ids, into: 0).count == 1)
    }

    @Test func aFailingProcess_namesEachFailingTestCase_andTheRunFails() {
        // Given two test processes, the second with a failing test case
        let failing = """
            ✘ Test launch_showsFeed(app:) recorded an issue with 1 argument app → prism at T.swift:5:39: Expectation failed: 1 == 2
            ✘ Test run with 3 tests in 1 suite failed after 0.001 seconds with 1 issue.
            """
        let results = [
            ShardedSuite.ShardResult(
                outcome: .init(status: 0, timedOut: false), output: "", logFile: "/tmp/a-1.log", tests: 4,
                seconds: 2.5),
            ShardedSuite.ShardResult(
                outcome: .init(status: 1, timedOut: false), output: failing, logFile: "/tmp/a-2.log",
                tests: 3,
                seconds: 3.25),
        ]
        // When they are reported
        let output = CapturedTextOutput()
        let status = CrossAppSuiteCommand.report(results, output: output)
        // Then the run fails, naming the test case with its app, the count and the longest time
        #expect(status == 1)
        #expect(output.output.contains("  launch_showsFeed(app:) with app → prism\n"), "\(output.output)")
        #expect(output.output.contains("FAILED: 1 failing in 7 tests, in 3.2 s"), "\(output.output)")
    }

    @Test func aProcessThatDiesWithoutAFailure_failsTheRun_namingItsLog() {
        let results = [
            ShardedSuite.ShardResult(
                outcome: .init(status: 134, timedOut: false), output: "", logFile: "/tmp/b-1.log", tests: 5,
                seconds: 1)
        ]
        let output = CapturedTextOutput()
        #expect(CrossAppSuiteCommand.report(results, output: output) == 1)
        #expect(
            output.output.contains("a test process ended with status 134 (/tmp/b-1.log)"), "\(output.output)")
    }

    @Test func processesThatAllPass_passTheRun() {
        let results = [
            ShardedSuite.ShardResult(
                outcome: .init(status: 0, timedOut: false), output: "", logFile: "/tmp/c-1.log", tests: 5,
                seconds: 1.5)
        ]
        let output = CapturedTextOutput()
        #expect(CrossAppSuiteCommand.report(results, output: output) == 0)
        #expect(output.output == "cross-app-suite: 5 tests passed in 1.5 s (the longest test process)\n")
    }
}
