extension HTTPServer {
    /// Counts of what the server has done since it started.
    public struct Statistics: Hashable, Sendable {
        /// Connections accepted (including those refused for being over a connection limit).
        public var connectionsAccepted = 0
        /// Connections open now.
        public var connectionsOpen = 0
        /// The most connections open at once.
        public var peakConnectionsOpen = 0
        /// Requests read in full and given to the handler (or answered by an injected fault).
        public var requests = 0
        /// Responses written in full.
        public var responses = 0
        /// Requests answered by the server itself because they were malformed or over a limit.
        public var rejected = 0
        /// Requests answered 408, or connections closed, because a timeout expired.
        public var timeouts = 0
        /// Responses dropped by the fault profile after the handler ran.
        public var droppedAfterApply = 0
        /// Connections that closed or failed before their response was written.
        public var clientsGone = 0
        /// Body bytes held now by requests in flight (the bytes of their bodies that have
        /// arrived, not what their heads announce), the figure `Limits.bodyBytesInFlight` caps.
        public var bodyBytesInFlight = 0
        /// Idle connections closed to make room for a new one when every slot was taken.
        public var idleClosedForRoom = 0
        /// Connections still receiving a request, from the address holding the most, closed to
        /// make room for a connection from an address holding fewer when none was idle.
        public var slowClosedForRoom = 0
    }

    /// What a shutdown did.
    public struct ShutdownReport: Hashable, Sendable {
        /// Requests in flight when the shutdown began whose responses were then written.
        public var finished = 0
        /// Requests whose handlers were still running at the end of the grace period: cancelled,
        /// their connections closed without a response.
        public var abandoned = 0
        /// Connections closed by the shutdown (idle ones at once, the rest when done).
        public var connectionsClosed = 0
    }
}
