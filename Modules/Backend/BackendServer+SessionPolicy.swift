extension BackendServer {
    /// How long what sign-in hands out stays good: a bearer token for `tokenLifetime` (one hour),
    /// its renew token for `renewLifetime` (30 days). Each renewal hands out a new pair with
    /// both lifetimes counted afresh and revokes the old pair.
    ///
    /// ```swift
    /// // Tokens that expire within a test's run:
    /// let policy = BackendServer.SessionPolicy(tokenLifetime: .seconds(5))
    /// let server = try BackendServer(directory: directory, clock: clock, sessionPolicy: policy)
    /// ```
    public struct SessionPolicy: Hashable, Sendable {
        /// How long a bearer token is accepted after it was handed out (default one hour).
        public var tokenLifetime: Duration
        /// How long a renew token may be exchanged for a new pair (default 30 days).
        public var renewLifetime: Duration
        /// What a new password's hash costs (default `standard`).
        public var passwordCost: PasswordCost

        /// Makes a policy; the defaults are one hour, 30 days and the standard password cost.
        public init(
            tokenLifetime: Duration = .seconds(3600), renewLifetime: Duration = .seconds(30 * 86_400),
            passwordCost: PasswordCost = .standard
        ) {
            self.tokenLifetime = tokenLifetime
            self.renewLifetime = renewLifetime
            self.passwordCost = passwordCost
        }

        /// The lifetimes in milliseconds (the wire's and the database's unit), at least 1.
        var tokenMilliseconds: Int64 { Self.milliseconds(tokenLifetime) }
        var renewMilliseconds: Int64 { Self.milliseconds(renewLifetime) }

        private static func milliseconds(_ duration: Duration) -> Int64 {
            let (seconds, attoseconds) = duration.components
            let total = seconds.multipliedReportingOverflow(by: 1000)
            guard !total.overflow else { return seconds > 0 ? Int64.max / 2 : 1 }
            return max(1, total.partialValue + attoseconds / 1_000_000_000_000_000)
        }
    }

    /// What hashing a new password costs. A hash records its own cost, so a server verifies
    /// hashes made at either.
    public enum PasswordCost: Hashable, Sendable {
        /// scrypt at N = 2^15, r = 8, p = 1: 32 MiB and about 0.1 s a hash, at most two at once.
        /// Every server people use.
        case standard
        /// scrypt at the demo password's cost, N = 2^10: about a millisecond, and no turn at the
        /// two-at-once gate. For test copies of the backend that make many accounts in one process
        /// and are not about the hash's cost; never for a server people use.
        case minimal
    }
}
