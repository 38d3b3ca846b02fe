import Composition
import ManifestLint
import ManifestLintTesting
import Testing

@Suite struct ForbiddenImportCheckTests {
    let check = ForbiddenImportCheck()

    @Test func anImportOfFoundationNetworking_isReportedWhereItStands() {
        let source = """
            import Foundation

            #if canImport(FoundationNetworking)
                @preconcurrency import FoundationNetworking
            #endif
            import class FoundationNetworking.URLSession
            """
        #expect(
            check.check(source: source, file: "Modules/X/A.swift").map(\.description) == [
                "Modules/X/A.swift:4:21: error: 'FoundationNetworking' must not be imported here: it links libcurl "
                    + "and some thirty shared objects into every launch; use HTTPClient's HTTPTransport",
                "Modules/X/A.swift:6:1: error: 'FoundationNetworking' must not be imported here: it links libcurl "
                    + "and some thirty shared objects into every launch; use HTTPClient's HTTPTransport",
            ])
    }

    @Test func commentsAndOtherModules_areNotReported() {
        let source = """
            import Foundation  // not FoundationNetworking: import FoundationNetworking costs the launch
            /* import FoundationNetworking */
            import FoundationEssentials
            """
        #expect(check.check(source: source, file: "f.swift").isEmpty)
    }

    @Test func whatTheAppsAreBuiltFrom_importsNoFoundationNetworking() {
        let problems = check.run(root: LintFixtures.packageRoot, directories: ["Modules", "Sockets", "Apps"])
        #expect(problems.map(\.description) == [])
    }
}

@Suite struct ForbiddenCallCheckTests {
    let check = ForbiddenCallCheck()

    @Test func foundationsProcessMade_isReportedWhereItStands() {
        let source = """
            import Foundation

            let a = Process()
            let b = Foundation.Process ()
            """
        let why =
            "'Process(' must not be called here: Foundation's Process.run() can crash a process with many "
            + "open descriptors on Linux (swift-corelibs-foundation#5472); use CommandLineKit's Subprocess"
        #expect(
            check.check(source: source, file: "Tests/X/A.swift").map(\.description) == [
                "Tests/X/A.swift:3:9: error: \(why)", "Tests/X/A.swift:4:20: error: \(why)",
            ])
    }

    @Test func commentsStringsAndOtherUses_areNotReported() {
        let source = """
            // let p = Process()
            /* Process() */
            let text = "Process()"
            let info = ProcessInfo.processInfo
            func stop(_ process: Process) {}
            let id = Process.self
            """
        #expect(check.check(source: source, file: "f.swift").isEmpty)
    }

    @Test func thePackage_spawnsWithFoundationsProcessNowhere() {
        let problems = check.run(
            root: LintFixtures.packageRoot, directories: ["Modules", "Sockets", "Apps", "Tests", "tools"])
        #expect(problems.map(\.description) == [])
    }
}
