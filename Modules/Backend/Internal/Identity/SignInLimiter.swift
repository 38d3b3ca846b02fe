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
/// sign-ins are checked one at a time (`takeTurn`), at most `maximumWaitingPerAccount` waiting.
///
/// Memory stays bounded: each key keeps at most its limit's number of times, and keys whose
/// times have all left the window are dropped whenever the table grows past `sweepThreshold`.
final class SignInLimiter: Sendable {
    /// The limits.
    struct Limits: Sendable {
        var perAccount = 5
        var perAddress = 20
        /// The window, in milliseconds.
        var window: Int64 = 15 * 60 * 1000
    }

    /// An attempt counted (as pending) against an account and an address.
    struct Reservation: Sendable {
        fileprivate let keys: [Key]
    }

    fileprivate enum Key: Hashable {
        case account(Int64)
        case address(String)

        var isAccount: Bool {
            if case .account = self { return true }
            return false
        }
    }

    private struct State {
        /// The times of failed attempts.
        var attempts: [Key: [Int64]] = [:]
        /// How many attempts are being checked now.
        var pending: [Key: Int] = [:]
        /// The accounts whose sign-in is being checked, each with the sign-ins waiting for it.
        var turns: [Int64: [CheckedContinuation<Bool, Never>]] = [:]
        var checked = 0
    }

    let limits: Limits
    /// The most sign-ins for one account that wait while another is checked.
    let maximumWaitingPerAccount = 16
    private let state = Mutex(State())
    private let sweepThreshold = 10_000

    init(limits: Limits = Limits()) { self.limits = limits }

    /// How many passwords were checked against an account's hash (the test hook that counts the
    /// guesses an attacker got).
    var passwordsChecked: Int { state.withLock { $0.checked } }

    /// Counts one password about to be checked against an account's hash.
    func countCheck() { state.withLock { $0.checked += 1 } }

    /// The seconds to wait before `account` (or anyone at `address`) may try again, or nil when
    /// a sign-in may go ahead now.
    func retryAfter(account: Int64?, address: String?, now: Int64) -> Int64? {
        state.withLock { state in wait(state, keys(account: account, address: address), now: now) }
    }

    /// Counts an attempt for `account` from `address` as pending, or answers the seconds to wait
    /// when either count (failures and pending) is at its limit (then nothing is counted). Follow
    /// it with `recordFailure` or `giveBack`.
    func reserve(account: Int64, address: String?, now: Int64) -> Result<Reservation, RetryAfter> {
        state.withLock { state in
            let keys = keys(account: account, address: address)
            if let seconds = wait(state, keys, now: now) { return .failure(RetryAfter(seconds: seconds)) }
            for (key, _) in keys { state.pending[key, default: 0] += 1 }
            return .success(Reservation(keys: keys.map(\.0)))
        }
    }

    /// Turns a pending attempt into a failure counted at `now`.
    func recordFailure(_ reservation: Reservation, now: Int64) {
        state.withLock { state in
            release(reservation, &state)
            if state.attempts.count > sweepThreshold {
                state.attempts = state.attempts.filter {
                    !Self.recent($0.value, now: now, window: limits.window).isEmpty
                }
            }
            for key in reservation.keys {
                let limit = key.isAccount ? limits.perAccount : limits.perAddress
                var times = Self.recent(state.attempts[key] ?? [], now: now, window: limits.window)
                times.append(now)
                state.attempts[key] = Array(times.suffix(limit))
            }
        }
    }

    /// Gives back a pending attempt that was not a wrong password (it was right, or was never
    /// checked).
    func giveBack(_ reservation: Reservation) {
        state.withLock { state in release(reservation, &state) }
    }

    private func release(_ reservation: Reservation, _ state: inout State) {
        for key in reservation.keys {
            let left = (state.pending[key] ?? 1) - 1
            state.pending[key] = left > 0 ? left : nil
        }
    }

    /// Clears the account's count after a sign-in that succeeded.
    func recordSuccess(account: Int64) {
        _ = state.withLock { $0.attempts.removeValue(forKey: .account(account)) }
    }

    /// Waits until no other sign-in for `account` is being checked; false (at once) when
    /// `maximumWaitingPerAccount` already wait. Call `endTurn` after a true.
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
    private func wait(_ state: State, _ keys: [(Key, Int)], now: Int64) -> Int64? {
        var wait: Int64 = 0
        for (key, limit) in keys {
            let times = Self.recent(state.attempts[key] ?? [], now: now, window: limits.window)
            if times.count >= limit, let oldest = times.suffix(limit).first {
                wait = max(wait, oldest + limits.window - now)
            } else if times.count + (state.pending[key] ?? 0) >= limit {
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

    private static func recent(_ times: [Int64], now: Int64, window: Int64) -> [Int64] {
        times.filter { $0 > now - window }
    }
}
