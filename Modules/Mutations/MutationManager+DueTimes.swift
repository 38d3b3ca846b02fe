import ServerAPI

extension MutationManager {
    /// Keeps every pending change's next attempt within its retry policy's cap of `now`.
    ///
    /// Next-attempt times are stored as absolute times, so a clock stepped back (or a run whose
    /// clock was advanced by hand, such as a headless script) would otherwise leave a change
    /// waiting for hours, until a network change reset its backoff. The times are clamped when
    /// the journal is loaded and whenever a reading of the clock is earlier than the previous one
    /// (while the clock only moves forward, no time set since can exceed the cap: a `Retry-After`
    /// is capped too). The journal keeps its time; the next load clamps it again.
    ///
    /// Complexity: O(n log n) in the pending rows when the clock went back, O(1) otherwise.
    ///
    /// - Returns: The tokens whose time moved.
    @discardableResult
    func clampDueTimes(_ state: inout State, now: Int64) -> Set<MutationToken> {
        defer { state.lastClockReading = now }
        if let last = state.lastClockReading, now >= last { return [] }
        var moved: Set<MutationToken> = []
        for row in state.queue.rows(in: [.pending]) {
            guard let next = row.nextAttemptAt else { continue }
            let cap = configuration.retryPolicy(for: row.mutation.kind).cap
            let latest = now + cap.wholeMilliseconds
            guard next > latest else { continue }
            var clamped = row
            clamped.nextAttemptAt = latest
            state.queue.put(clamped)
            moved.insert(row.token)
        }
        return moved
    }
}

extension Duration {
    /// The duration in whole milliseconds, rounded to the nearest.
    var wholeMilliseconds: Int64 { Int64((secondsValue * 1000).rounded()) }
}
