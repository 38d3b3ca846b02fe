import AppRuntime
import AppTesting
import Composition
import Foundation
import Storage
import Testing

/// A damaged `app.sqlite` (emptied, or overwritten) silently started fresh, losing what it held
/// without a word: the app now keeps it aside, says so on standard error and in the status line,
/// and runs on a fresh database.
@Suite @MainActor struct DamagedDatabaseScenarios {
    enum Damage: String, CaseIterable, Sendable {
        case empty, randomBytes
    }

    /// Data and backend directories that a run of `app` made and left, its app.sqlite whole.
    static func directoriesAnEarlierRunLeft(_ app: ShippedApp) async throws -> TestDirectories {
        let directories = try TestDirectories.make()
        let first = await HeadlessHarness.run(app.definition, script: "wait\n", directories: directories)
        #expect(first.status == 0, "\(first.errors)")
        return directories
    }

    @Test(arguments: ShippedApp.withHome, Damage.allCases)
    func damagedAppDatabase_isKeptAside_saidSo_andTheAppRuns(app: ShippedApp, damage: Damage) async throws {
        // Given a data directory an earlier run left, whose app.sqlite is then damaged
        let directories = try await Self.directoriesAnEarlierRunLeft(app)
        let path = directories.data + "/app.sqlite"
        switch damage {
        case .empty:
            try Data().write(to: URL(fileURLWithPath: path))
        case .randomBytes:
            var random = SystemRandomNumberGenerator()
            try Data((0..<8192).map { _ in UInt8.random(in: 0...255, using: &random) })
                .write(to: URL(fileURLWithPath: path))
        }

        // When the app launches again
        let run = await HeadlessHarness.run(app.definition, script: "wait\nframe\n", directories: directories)

        // Then it runs, on a fresh database, showing the feed
        #expect(run.status == 0, "\(run.errors)")
        let frame = lines(run.lastFrame)
        #expect(frame.filter { $0.contains(" · ") }.count > 2, "\(run.lastFrame)")
        // And the damaged file is kept aside, beside the fresh one
        let kept = try FileManager.default.contentsOfDirectory(atPath: directories.data)
            .filter { $0.hasPrefix("app.sqlite.corrupt-") }
        #expect(kept.count == 1, "\(kept)")
        let keptName = try #require(kept.first)
        // And the person is told what happened and where the old file is
        let why = damage == .empty ? "it is empty (0 bytes)" : "it does not start with SQLite's file header"
        let contents =
            damage == .empty
            ? "The kept file held nothing (it was empty)."
            : "What the kept file held could not be read; keep it if you need what it held."
        #expect(
            run.errors
                == "\(app.definition.id): warning: the app database '\(path)' is damaged (\(why)); it was kept as "
                + "'\(directories.data)/\(keptName)' and the app started with a fresh database. \(contents)\n"
        )
        #expect(frame[frame.count - 2].hasPrefix("database damaged; kept as \(keptName), started fresh"))
    }

    @Test(arguments: ShippedApp.withHome)
    func aDamagedFileKeptAsideInTheSameSecondAsAnother_isKeptBesideIt_neverOverIt(app: ShippedApp)
        async throws
    {
        // Given a damaged app.sqlite, and files kept aside earlier under every name a set-aside
        // could take in the next minute (a database damaged again within the second it was
        // last kept aside finds its name taken)
        let directories = try await Self.directoriesAnEarlierRunLeft(app)
        try Data().write(to: URL(fileURLWithPath: directories.data + "/app.sqlite"))
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        let start = Date()
        let earlier = (0..<60).map { second in
            "app.sqlite.corrupt-" + formatter.string(from: start.addingTimeInterval(Double(second)))
        }
        for name in earlier {
            try Data("kept earlier".utf8).write(to: URL(fileURLWithPath: directories.data + "/" + name))
        }

        // When the app launches again
        let run = await HeadlessHarness.run(app.definition, script: "wait\nframe\n", directories: directories)

        // Then it runs on a fresh database, and the damaged file is kept under the same second's
        // name with -2 after it, beside the earlier ones, each of which still holds what it held
        #expect(run.status == 0, "\(run.errors)")
        let kept = try FileManager.default.contentsOfDirectory(atPath: directories.data)
            .filter { $0.hasPrefix("app.sqlite.corrupt-") && !earlier.contains($0) }
        #expect(
            kept.count == 1 && kept.first.map { earlier.contains(String($0.dropLast(2))) } == true, "\(kept)")
        #expect(kept.first?.hasSuffix("-2") == true, "\(kept)")
        for name in earlier {
            let contents = FileManager.default.contents(atPath: directories.data + "/" + name)
            #expect(contents == Data("kept earlier".utf8), "\(name) was overwritten")
        }
        let keptName = try #require(kept.first)
        #expect(
            lines(run.lastFrame).dropLast().last?.hasPrefix("database damaged; kept as \(keptName)") == true)
    }

    @Test(arguments: ShippedApp.withHome)
    func aDatabaseDamagedInside_itsHeaderWhole_isKeptAside_sayingWhatSQLitesCheckFound(app: ShippedApp)
        async throws
    {
        // Given a data directory an earlier run left, whose app.sqlite keeps its header and
        // first page but has its last page overwritten (a disk that lost a write)
        let directories = try await Self.directoriesAnEarlierRunLeft(app)
        let path = directories.data + "/app.sqlite"
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let pageSize = Int(bytes[16]) << 8 | Int(bytes[17])
        try #require(bytes.count >= 3 * pageSize, "\(bytes.count) bytes")
        for offset in (bytes.count - pageSize)..<bytes.count {
            bytes[offset] = UInt8(truncatingIfNeeded: offset &* 2_654_435_761 >> 13)
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))

        // When the app launches again
        let run = await HeadlessHarness.run(app.definition, script: "wait\nframe\n", directories: directories)

        // Then it runs on a fresh database, keeps the damaged file aside, and the warning names
        // the first three things SQLite's own check of the kept file finds
        #expect(run.status == 0, "\(run.errors)")
        let kept = try FileManager.default.contentsOfDirectory(atPath: directories.data)
            .filter { $0.hasPrefix("app.sqlite.corrupt-") && !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") }
        let keptName = try #require(kept.count == 1 ? kept.first : nil, "\(kept)")
        let keptFile = try Database(path: directories.data + "/" + keptName)
        let findings = try keptFile.quickCheck().flatMap { $0.split(separator: "\n") }
            .filter { !$0.hasPrefix("***") }
        try? keptFile.close()
        try #require(!findings.isEmpty, "the check finds the damage")
        let said =
            "damaged (SQLite's check found damage: \(findings.prefix(3).joined(separator: "; "))); it was kept"
        #expect(run.errors.contains(said), "\(said)\n\(run.errors)")
        #expect(
            lines(run.lastFrame).dropLast().last?.hasPrefix("database damaged; kept as \(keptName)") == true)
    }
}
