/// Every suite `bench` knows, in run order. A new suite adds one line here.
enum BenchCatalog {
    static let suites: [BenchSuite] = [
        RegistrySuite.suite,
        LaunchSuite.suite,
        LintSuite.suite,
        DiffSuite.suite,
        DiffFeedSuite.suite,
        StoreSuite.suite,
        ColdStartSuite.suite,
        MutationsSuite.suite,
        HTTPSuite.suite,
        UISuite.suite,
        DirectSuite.suite,
        PhotoSuite.suite,
        PhotoFeedSuite.suite,
        ProcessSuite.suite,
    ]
}
