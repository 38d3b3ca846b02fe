import Foundation

// `bench load-client ...`: the http suite's load generator, re-spawned in a process of its own.
if CommandLine.arguments.dropFirst().first == HTTPSuite.LoadProcess.mode {
    exit(HTTPSuite.LoadProcess.main(Array(CommandLine.arguments.dropFirst(2))))
}

// The suites, in the order `bench` runs them when none is named. Each lives in Suites/.
let allSuites: [BenchSuite] = BenchCatalog.suites

let usage = """
    usage: bench [SUITE ...] [--json] [--quick] [--database ENGINE] [--list] [--help]

    Measures the project's hot paths, each figure beside a baseline measured in the same run.
    Build in release mode: swift run -c release bench [SUITE ...]

    options:
      --json    one JSON object per line per measurement (suite, name, unit, median, p90,
                and where they apply baseline, ratio, target, met)
      --quick   fewer timed runs (a smoke check, not for reporting figures)
      --database ENGINE
                the http suite also runs backend-server as deployed: 1 and 2 processes
                behind HAProxy on one database. postgres: on SQLite and on a throwaway
                PostgreSQL cluster, in the same run; sqlite: on SQLite only. Needs the
                release backend-server beside bench (swift build -c release) and
                Debian's postgresql package; installs haproxy when missing (as root).
      --list    list the suites and exit
      --help    show this help

    exit status: 0 when every target is met, 1 when one is not, 2 on a usage error.
    """

var selected: [String] = []
var json = false
var quick = false
var engines: [HTTPSuite.Engine] = []
var arguments = Array(CommandLine.arguments.dropFirst())[...]
while let argument = arguments.popFirst() {
    switch argument {
    case "--json": json = true
    case "--quick": quick = true
    case "--database":
        let value = arguments.popFirst() ?? ""
        switch HTTPSuite.Engine(rawValue: value) {
        case .postgres: engines = [.sqlite, .postgres]
        case .sqlite: engines = [.sqlite]
        case nil:
            FileHandle.standardError.write(
                Data(
                    "bench: error: invalid value '\(value)' for '--database'; expected postgres or sqlite\n"
                        .utf8))
            exit(2)
        }
    case "--help", "-h":
        print(usage)
        exit(0)
    case "--list":
        for suite in allSuites {
            print("\(suite.name.padding(toLength: 12, withPad: " ", startingAt: 0)) \(suite.summary)")
        }
        exit(0)
    default:
        if argument.hasPrefix("-") {
            FileHandle.standardError.write(
                Data("bench: error: unknown option '\(argument)'\n\(usage)\n".utf8))
            exit(2)
        }
        selected.append(argument)
    }
}

let known = Set(allSuites.map(\.name))
for name in selected where !known.contains(name) {
    let names = allSuites.map(\.name).joined(separator: ", ")
    FileHandle.standardError.write(Data("bench: error: unknown suite '\(name)'; suites: \(names)\n".utf8))
    exit(2)
}

#if DEBUG
    if !json {
        print("warning: this is a debug build; figures are only meaningful with `swift run -c release bench`")
    }
#endif

let runner = BenchRunner(json: json, quick: quick, deploymentEngines: engines)
let suites = selected.isEmpty ? allSuites : allSuites.filter { selected.contains($0.name) }
for suite in suites {
    runner.begin(suite)
    do {
        try await suite.run(runner)
    } catch {
        FileHandle.standardError.write(Data("bench: suite '\(suite.name)' failed: \(error)\n".utf8))
        exit(1)
    }
}
let missed = runner.results.filter { $0.met == false }
if !json {
    print(
        "\n\(runner.results.count) figures, \(runner.results.filter { $0.met != nil }.count) with targets, \(missed.count) not met"
    )
}
exit(missed.isEmpty ? 0 : 1)
