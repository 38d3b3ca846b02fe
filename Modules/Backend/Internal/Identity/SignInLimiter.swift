import Storage
import Synchronization

/// Counts sign-in attempts per account and per client address over a sliding window, and says
/// how long a caller must wait once either count reaches its limit: 5 per account and 20 per
/// address in 15 minutes by default. Requests in process (no address) count as one address.
///
/// An attempt is counted *before* its password is hashed (`reserve`, as pending), then becomes a
/// failure when the password was wrong (`recordFailure`) or is given back when it was right or
/// could not be checked (`giveBack`), so guesses that arrive together are counted together: no
/// more than the limit are ever hashed, however many race. A count full only of pending attempts
/// asks for a retry in a second (they may be given back), a count full of failures for the time
/// until the oldest leaves the window. A successful sign-in also clears the account's count (not
/// the address's). On top of that, one account's
/// sign-ins are checked one at a time in a process (`takeTurn`), at most
/// `maximumWaitingPerAccount` waiting.
///
/// The counts live in the backend's database (`sign_in_attempts`: one row per attempt and key,
/// pending or failed), so every process serving one database counts the same attempts: five
/// wrong passwords spread over two servers behind a load balancer are five. Reserving is one
/// write transaction, so attempts that race in different processes are counted one after
/// another. Rows leave once older than the window (each reservation deletes them); a pending
/// row whose process died stops counting after `pendingLifetime`.
final class SignInLimiter: Sendable {
    /// The limits.
    struct Limits: Sendable {
        var perAccount = 5
        var perAddress = 20
        /// The window, in milliseconds.
        var window: Int64 = 15 * 60 * 1000
    }

    /// An attempt counted (as pending) against an account and an address: its rows.
    struct Reservation: Sendable {
        fileprivate let rows: [Int64]
    }

    fileprivate enum Key: Hashable {
        case account(Int64)
        case address(String)

        /// The key as stored: `account:<id>` or `address:<address>`.
        var text: String {
            switch self {
            case .account(let id): "account:\(id)"
            case .address(let address): "address:\(address)"
            }
        }

    }

    private struct State {
        /// The accounts whose sign-in is being checked, each with the sign-ins waiting for it.
        var turns: [Int64: [CheckedContinuation<Bool, Never>]] = [:]
        var checked = 0
    }

    let limits: Limits
    /// The most sign-ins for one account that wait while another is checked.
    let maximumWaitingPerAccount = 16
    /// How long a pending attempt counts at most: one whose process died while checking it is
    /// forgotten after this, not held against the account for the whole window.
    let pendingLifetime: Int64 = 60_000
    private let database: Database
    private let state = Mutex(State())

    /// A limiter whose counts live in `database` (table `sign_in_attempts`), so every process
    /// serving that database counts the same attempts.
    init(database: Database, limits: Limits = Limits()) {
        self.database = database
        self.limits = limits
    }

    /// How many passwords this process checked against an account's hash (the test hook that
    /// counts the guesses an attacker got).
    var passwordsChecked: Int { state.withLock { $0.checked } }

    /// Counts one password about to be checked against an account's hash.
    func countCheck() { state.withLock { $0.checked += 1 } }

    /// The seconds to wait before `account` (or anyone at `address`) may try again, or nil when
    /// a sign-in may go ahead now.
    func retryAfter(account: Int64?, address: String?, now: Int64) throws -> Int64? {
        try database.transaction(.deferred) { db in
            try wait(db, keys(account: account, address: address), now: now)
        }
    }

    /// Counts an attempt for `account` from `address` as pending, or answers the seconds to wait
    /// when either count (failures and pending) is at its limit (then nothing is counted). Follow
    /// it with `recordFailure` or `giveBack`. One write transaction, so attempts that race, in
    /// this process or another, are counted one after another.
    func reserve(account: Int64, address: String?, now: Int64) throws -> Result<Reservation, RetryAfter> {
        try database.transaction { db in
            try db.execute("DELETE FROM sign_in_attempts WHERE at <= ?", now - limits.window)
            let keys = keys(account: account, address: address)
            if let seconds = try wait(db, keys, now: now) { return .failure(RetryAfter(seconds: seconds)) }
            var rows: [Int64] = []
            for (key, _) in keys {
                let id = try db.queryFirst(
                    "INSERT INTO sign_in_attempts (key, at, pending) VALUES (?, ?, 1) RETURNING id", key.text,
                    now
                ) { try $0.int64(0) }
                if let id { rows.append(id) }
            }
            return .success(Reservation(rows: rows))
        }
    }

    /// Turns a pending attempt into a failure counted at `now`.
    func recordFailure(_ reservation: Reservation, now: Int64) throws {
        try database.transaction { db in
            for row in reservation.rows {
                try db.execute("UPDATE sign_in_attempts SET pending = 0, at = ? WHERE id = ?", now, row)
            }
        }
    }

    /// Gives back a pending attempt that was not a wrong password (it was right, or was never
    /// checked).
    func giveBack(_ reservation: Reservation) throws {
        try database.transaction { db in
            for row in reservation.rows { try db.execute("DELETE FROM sign_in_attempts WHERE id = ?", row) }
        }
    }

    /// Clears the account's count after a sign-in that succeeded.
    func recordSuccess(account: Int64) throws {
        try database.execute(
            "DELETE FROM sign_in_attempts WHERE key = ? AND pending = 0", Key.account(account).text)
    }

    /// Waits until no other sign-in for `account` is being checked in this process; false (at
    /// once) when `maximumWaitingPerAccount` already wait. Call `endTurn` after a true.
    func takeTurn(account: Int64) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let answer = state.withLock { state -> Bool? in
                guard var waiting = state.turns[account] else {
                    state.turns[account] = []
                    return true
                }
                guard waiting.count < maximumWaitingPerAccount else { return false }
                waiting.append(continuation)
                state.turns[account] = waiting
                return nil
            }
            if let answer { continuation.resume(returning: answer) }
        }
    }

    /// Hands the account's turn to the next sign-in waiting for it, or frees it.
    func endTurn(account: Int64) {
        let next = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            guard var waiting = state.turns[account], !waiting.isEmpty else {
                state.turns[account] = nil
                return nil
            }
            let next = waiting.removeFirst()
            state.turns[account] = waiting
            return next
        }
        next?.resume(returning: true)
    }

    /// Seconds to wait before another attempt.
    struct RetryAfter: Error {
        var seconds: Int64
    }

    /// The seconds to wait before the next attempt under `keys`: until the oldest failure leaves
    /// the window when the failures alone fill a count, a second when pending attempts fill it.
    private func wait(_ db: borrowing Connection, _ keys: [(Key, Int)], now: Int64) throws -> Int64? {
        var wait: Int64 = 0
        for (key, limit) in keys {
            let (failures, pending) =
                try db.queryFirst(
                    """
                    SELECT COALESCE(SUM(CASE WHEN pending = 0 THEN 1 ELSE 0 END), 0),
                           COALESCE(SUM(CASE WHEN pending = 1 AND at > ? THEN 1 ELSE 0 END), 0)
                    FROM sign_in_attempts WHERE key = ? AND at > ?
                    """, now - pendingLifetime, key.text, now - limits.window
                ) { (try $0.int(0), try $0.int(1)) } ?? (0, 0)
            if failures >= limit {
                // The oldest of the newest `limit` failures leaves the window first.
                let oldest =
                    try db.queryFirst(
                        """
                        SELECT at FROM sign_in_attempts WHERE key = ? AND pending = 0 AND at > ?
                        ORDER BY at DESC LIMIT 1 OFFSET ?
                        """, key.text, now - limits.window, limit - 1
                    ) { try $0.int64(0) } ?? now
                wait = max(wait, oldest + limits.window - now)
            } else if failures + pending >= limit {
                wait = max(wait, 1)
            }
        }
        return wait > 0 ? max(1, (wait + 999) / 1000) : nil
    }

    private func keys(account: Int64?, address: String?) -> [(Key, Int)] {
        var keys: [(Key, Int)] = [(.address(address ?? "local"), limits.perAddress)]
        if let account { keys.append((.account(account), limits.perAccount)) }
        return keys
    }
}
