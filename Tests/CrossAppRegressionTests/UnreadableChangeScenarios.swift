import AppRuntime
import AppTesting
import Features
import Foundation
import Mutations
import Networking
import Sockets
import Storage
import TerminalUI
import Testing

/// A journal row the app cannot read (a kind a newer version added, or a damaged payload) is
/// never hidden: Sync shows it as failed, with its raw kind, and `x` discards it.
@Suite @MainActor struct UnreadableChangeScenarios {
    /// Writes two rows no build can read into the data directory's journal, before launch.
    static func writeUnreadableRows(into directory: String) throws {
        let database = try AppDatabase.open(directory: directory)
        let insert = """
            INSERT INTO mutation_journal (token, lane, kind, payload, state, created_at)
            VALUES (?, 'lane', ?, ?, 0, 0)
            """
        try database.execute(insert, "t-future", "bookmark", [UInt8]([0xEE, 0x01, 0x02]))
        try database.execute(insert, "t-garbage", "like", [UInt8]([0xFF]))
        try database.close()
    }

    @Test(arguments: ShippedApp.all)
    func anUnreadableRow_isShownAsFailedWithItsKind_andXDiscardsIt(app: ShippedApp) async throws {
        // Given a journal holding a row of an unknown kind and one with a damaged payload
        let directories = try TestDirectories.make()
        try Self.writeUnreadableRows(into: directories.data)

        // When the app starts and the person opens Sync
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: directories, width: 120)
        session.shell?.openTab(.mutations)
        await session.settle()
        var frame = HeadlessHarness.frame(of: session)

        // Then both are failed changes named by their raw kind, and nothing says all is sent
        #expect(frame.contains("Changes: 0 pending, 2 failed"), "\(app.id)'s Sync tab:\n\(frame)")
        #expect(frame.contains("unreadable change · kind \"bookmark\""), "\(frame)")
        #expect(frame.contains("unreadable change · kind \"like\""), "\(frame)")
        #expect(frame.contains("this version cannot read it, so it is never sent; x discards it"), "\(frame)")
        #expect(!frame.contains("everything is sent"), "\(frame)")

        // When the person discards the first (x asks, x again discards)
        _ = session.shell?.handle(.character("x"))
        #expect(HeadlessHarness.frame(of: session).contains("press x again to discard"))
        _ = session.shell?.handle(.character("x"))
        await session.settle()
        frame = HeadlessHarness.frame(of: session)

        // Then it is gone from Sync and from the journal; the other stays
        #expect(frame.contains("Changes: 0 pending, 1 failed"), "\(frame)")
        #expect(!frame.contains("✕ unreadable change · kind \"bookmark\""), "\(frame)")
        #expect(frame.contains("discarded unreadable change · kind \"bookmark\""), "\(frame)")
        let manager = try #require(session.shell?.context.manager)
        #expect(manager.unreadableRows.map(\.token) == ["t-garbage"])
        let rows = try manager.database.query("SELECT token FROM mutation_journal").map { try $0.string(0) }
        #expect(rows == ["t-garbage"])
        await session.stop()
    }
}
