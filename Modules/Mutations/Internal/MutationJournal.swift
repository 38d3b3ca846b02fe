import Basics
import Foundation
import MediaModel
import ServerAPI
import Storage
import Wire

/// The journal's reads and writes, each a function of a connection so callers group them in one
/// transaction.
enum MutationJournal {
    /// What `load` found.
    struct Loaded {
        /// Every readable row, in sequence order.
        var rows: [JournalRow]
        /// The first sequence never used.
        var nextSequence: Int64
        /// Rows this build cannot read (a newer build wrote them, or they are damaged): kept on
        /// disk, not sent.
        var unreadable: [UnreadableMutation]
    }

    static let insertSQL = """
        INSERT INTO mutation_journal (sequence, token, lane, kind, payload, state, attempts, streak, next_attempt_at,
            last_error, depends_on, created_at, result, account) VALUES (?, ?, ?, ?, ?, ?, 0, 0, NULL, ?, ?, ?, NULL, ?)
        """

    /// Inserts new rows (one prepared statement for the batch).
    static func insert(_ rows: [JournalRow], payloads: [[UInt8]], _ db: borrowing Connection) throws {
        let insert = try db.prepare(insertSQL)
        for (row, payload) in zip(rows, payloads) {
            try insert.execute { binder in
                try binder.bind(row.sequence)
                try binder.bind(row.token.rawValue)
                try binder.bind(row.lane.rawValue)
                try binder.bind(row.mutation.kind.name)
                try binder.bind(payload)
                try binder.bind(row.state.rawValue)
                try binder.bind(row.lastError)
                try binder.bind(row.dependsOn?.rawValue)
                try binder.bind(row.createdAt)
                try binder.bind(row.account)
            }
        }
    }

    /// Reads every row, oldest first, and the next sequence number.
    ///
    /// Complexity: O(n) rows, each decoded from its binary payload.
    static func load(_ db: borrowing Connection) throws -> Loaded {
        var rows: [JournalRow] = []
        var unreadable: [UnreadableMutation] = []
        var highest: Int64 = 0
        try db.forEach(
            """
            SELECT sequence, token, lane, payload, state, attempts, streak, next_attempt_at, last_error, depends_on,
                created_at, result, kind, account FROM mutation_journal ORDER BY sequence
            """
        ) { row in
            let sequence = try row.int64(0)
            highest = max(highest, sequence)
            do {
                let (mutation, author) = try JournalCodec.decode(try row.bytes(3))
                let rawState = try row.int(4)
                let confirmation =
                    try row.isNull(11) ? nil : try JournalCodec.decodeConfirmation(try row.bytes(11))
                rows.append(
                    JournalRow(
                        sequence: sequence, token: MutationToken(try row.string(1)),
                        lane: MutationLane(rawValue: try row.string(2)), mutation: mutation, author: author,
                        state: MutationRecord.State(rawValue: rawState) ?? .pending, attempts: try row.int(5),
                        streak: try row.int(6), nextAttemptAt: try row.isNull(7) ? nil : try row.int64(7),
                        lastError: try row.isNull(8) ? nil : try row.string(8),
                        dependsOn: try row.isNull(9) ? nil : MutationToken(try row.string(9)),
                        createdAt: try row.int64(10), confirmation: confirmation,
                        account: try row.isNull(13) ? nil : try row.string(13)))
            } catch {
                // Whatever cannot be read is kept and shown, never hidden and never fatal.
                let token = (try? row.string(1)) ?? ""
                let kind = (try? row.string(12)) ?? "?"
                unreadable.append(
                    UnreadableMutation(sequence: sequence, token: token, kind: kind, problem: "\(error)"))
            }
        }
        let used =
            try db.queryFirst("SELECT seq FROM sqlite_sequence WHERE name = 'mutation_journal'") {
                try $0.int64(0)
            } ?? 0
        return Loaded(rows: rows, nextSequence: max(highest, used) + 1, unreadable: unreadable)
    }

    /// The viewer new posts are shown as, kept from an earlier launch.
    static func viewer(_ db: borrowing Connection) throws -> User? {
        guard
            let bytes = try db.queryFirst(
                "SELECT value FROM mutation_meta WHERE key = 'viewer'", map: { try $0.data(0) })
        else { return nil }
        return try? User(json: JSONValue(parsing: bytes), at: .root)
    }

    /// Keeps the viewer for the next launch (or forgets it).
    static func saveViewer(_ user: User?, _ db: borrowing Connection) throws {
        if let user {
            try db.execute(
                "INSERT OR REPLACE INTO mutation_meta (key, value) VALUES ('viewer', ?)",
                user.json.serialized())
        } else {
            try db.execute("DELETE FROM mutation_meta WHERE key = 'viewer'")
        }
    }

    /// The app-side draft the newest change made from one used up (see
    /// `MutationManager.enqueue(_:consumingDraft:)`).
    static func consumedDraft(_ db: borrowing Connection) throws -> String? {
        try db.queryFirst(
            "SELECT value FROM mutation_meta WHERE key = 'consumed_draft'", map: { try $0.string(0) })
    }

    /// Records that the draft `id` is used up (in the transaction that journals its change).
    static func saveConsumedDraft(_ id: String, _ db: borrowing Connection) throws {
        try db.execute("INSERT OR REPLACE INTO mutation_meta (key, value) VALUES ('consumed_draft', ?)", id)
    }

    /// Deletes the row at `sequence` (an unreadable one the person discarded).
    static func delete(sequence: Int64, _ db: borrowing Connection) throws {
        try db.execute("DELETE FROM mutation_journal WHERE sequence = ?", sequence)
    }

    /// Marks in-flight rows pending again (a cold start: their attempt died with the process).
    static func resetInFlight(_ db: borrowing Connection) throws {
        try db.execute(
            "UPDATE mutation_journal SET state = ? WHERE state = ?", MutationRecord.State.pending.rawValue,
            MutationRecord.State.inFlight.rawValue)
    }

    /// Writes every changeable column of `row`.
    static func save(_ row: JournalRow, _ db: borrowing Connection) throws {
        let payload = JournalCodec.encode(row.mutation, author: row.author)
        let result = row.confirmation.map { JournalCodec.encode($0) }
        try db.execute(
            """
            UPDATE mutation_journal SET lane = ?, payload = ?, state = ?, attempts = ?, streak = ?, next_attempt_at = ?,
                last_error = ?, depends_on = ?, result = ? WHERE token = ?
            """
        ) { binder in
            try binder.bind(row.lane.rawValue)
            try binder.bind(payload)
            try binder.bind(row.state.rawValue)
            try binder.bind(row.attempts)
            try binder.bind(row.streak)
            try binder.bind(row.nextAttemptAt)
            try binder.bind(row.lastError)
            try binder.bind(row.dependsOn?.rawValue)
            try binder.bind(result)
            try binder.bind(row.token.rawValue)
        }
    }

    /// Writes the state and attempt count of a row whose attempt starts.
    static func saveAttemptStart(_ row: JournalRow, _ db: borrowing Connection) throws {
        try db.execute(
            "UPDATE mutation_journal SET state = ?, attempts = ? WHERE token = ?", row.state.rawValue,
            row.attempts, row.token.rawValue)
    }

    /// Deletes rows.
    static func delete(_ tokens: some Sequence<MutationToken>, _ db: borrowing Connection) throws {
        for token in tokens {
            try db.execute("DELETE FROM mutation_journal WHERE token = ?", token.rawValue)
        }
    }

    /// Clears the backoff of every pending row: attempts may start at once.
    static func resetBackoff(_ db: borrowing Connection) throws {
        try db.execute(
            "UPDATE mutation_journal SET streak = 0, next_attempt_at = NULL WHERE state IN (?, ?)",
            MutationRecord.State.pending.rawValue, MutationRecord.State.inFlight.rawValue)
    }

    /// Appends an attempt to the log and drops the oldest beyond `limit`.
    static func append(_ attempt: MutationAttempt, limit: Int, _ db: borrowing Connection) throws {
        try db.execute(
            """
            INSERT INTO mutation_attempts (token, kind, attempt, started_at, ended_at, outcome, status, error_class,
                delay_ms, detail) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """
        ) { binder in
            try binder.bind(attempt.token.rawValue)
            try binder.bind(attempt.kind.name)
            try binder.bind(attempt.attempt)
            try binder.bind(attempt.startedAt.wireMilliseconds)
            try binder.bind(attempt.endedAt.wireMilliseconds)
            try binder.bind(attempt.outcome.rawValue)
            try binder.bind(attempt.status)
            try binder.bind(attempt.errorClass?.rawValue)
            try binder.bind(attempt.delay.map { Int64(($0.secondsValue * 1000).rounded()) })
            try binder.bind(attempt.detail)
        }
        try db.execute(
            "DELETE FROM mutation_attempts WHERE id <= ?", db.lastInsertRowID - Int64(max(limit, 1)))
    }

    /// The newest `limit` attempts (of one mutation, when `token` is given), oldest first.
    static func attempts(token: MutationToken?, limit: Int, _ db: borrowing Connection) throws
        -> [MutationAttempt]
    {
        let columns = """
            SELECT token, kind, attempt, started_at, ended_at, outcome, status, error_class, delay_ms, detail
            FROM mutation_attempts
            """
        // Rows a newer build wrote with kinds or outcomes this one does not know are left out.
        let map: (borrowing RowCursor) throws -> MutationAttempt? = { row in
            guard let kind = MutationKind(named: try row.string(1)),
                let outcome = MutationAttempt.Outcome(rawValue: try row.string(5))
            else { return nil }
            return MutationAttempt(
                token: MutationToken(try row.string(0)), kind: kind, attempt: try row.int(2),
                startedAt: Date(wireMilliseconds: try row.int64(3)),
                endedAt: Date(wireMilliseconds: try row.int64(4)), outcome: outcome,
                status: try row.isNull(6) ? nil : try row.int(6),
                errorClass: try row.isNull(7) ? nil : ErrorClass(rawValue: try row.string(7)),
                delay: try row.isNull(8) ? nil : .milliseconds(try row.int64(8)), detail: try row.string(9))
        }
        let newestFirst: [MutationAttempt?]
        if let token {
            newestFirst = try db.query(
                columns + " WHERE token = ? ORDER BY id DESC LIMIT ?", token.rawValue, max(limit, 0), map: map
            )
        } else {
            newestFirst = try db.query(columns + " ORDER BY id DESC LIMIT ?", max(limit, 0), map: map)
        }
        return newestFirst.reversed().compactMap { $0 }
    }
}
