import Synchronization

/// Counts failed sign-ins (a wrong password) per account and per client address over a sliding
/// window, and says how long a caller must wait once either count reaches its limit: 5 per
/// account and 20 per address in 15 minutes by default. A successful sign-in clears the
/// account's count (not the address's). Requests in process (no address) count as one address.
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

    private enum Key: Hashable {
        case account(Int64)
        case address(String)
    }

    let limits: Limits
    private let failures = Mutex([Key: [Int64]]())
    private let sweepThreshold = 10_000

    init(limits: Limits = Limits()) { self.limits = limits }

    /// The seconds to wait before `account` (or anyone at `address`) may try again, or nil when
    /// a sign-in may go ahead now.
    func retryAfter(account: Int64?, address: String?, now: Int64) -> Int64? {
        failures.withLock { table in
            var wait: Int64 = 0
            for (key, limit) in keys(account: account, address: address) {
                let times = Self.recent(table[key] ?? [], now: now, window: limits.window)
                if times.count >= limit, let oldest = times.suffix(limit).first {
                    wait = max(wait, oldest + limits.window - now)
                }
            }
            return wait > 0 ? max(1, (wait + 999) / 1000) : nil
        }
    }

    /// Counts a failed sign-in against the account (when known) and the address.
    func recordFailure(account: Int64?, address: String?, now: Int64) {
        failures.withLock { table in
            if table.count > sweepThreshold {
                table = table.filter { !Self.recent($0.value, now: now, window: limits.window).isEmpty }
            }
            for (key, limit) in keys(account: account, address: address) {
                var times = Self.recent(table[key] ?? [], now: now, window: limits.window)
                times.append(now)
                table[key] = Array(times.suffix(limit))
            }
        }
    }

    /// Clears the account's count after a sign-in that succeeded.
    func recordSuccess(account: Int64) {
        _ = failures.withLock { $0.removeValue(forKey: .account(account)) }
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
