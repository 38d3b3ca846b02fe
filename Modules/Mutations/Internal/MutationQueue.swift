/// The journal's live rows in memory and the lanes they are sent in: which row heads each lane,
/// which are in flight, which wait for a time or for the post they depend on.
///
/// Only rows of `account` (the signed-in account) are in lanes: rows another account made are
/// held, kept in `rows` but never scheduled, until `setAccount(_:)` names their account again.
///
/// Event-driven: a lane is looked at again only when something about it changed (a row joined
/// or left it, its head's time came, its dependency resolved), so scheduling costs O(changed
/// lanes), not O(all lanes). Times are milliseconds since 1970.
struct MutationQueue: Sendable {
    /// What `schedule` decided.
    struct Decision {
        /// Lane heads to send now, oldest first (each is now in flight).
        var launches: [JournalRow] = []
        /// Lane heads waiting for a post that is confirmed, failed or gone: the manager resolves
        /// them (retargets or fails them).
        var unresolved: [JournalRow] = []
        /// When the next lane head becomes due, if any waits for a time.
        var wakeAt: Int64?
    }

    private(set) var rows: [MutationToken: JournalRow] = [:]
    /// The account whose rows are sent (nil: rows that name no account).
    private(set) var account: String?
    /// Pending and in-flight tokens of each lane, oldest first.
    private var lanes: [MutationLane: LaneQueue] = [:]
    /// Who waits for each token.
    private(set) var dependents: [MutationToken: Set<MutationToken>] = [:]
    private(set) var inFlight: Set<MutationToken> = []
    /// Lanes to look at on the next `schedule`.
    private var candidates: Set<MutationLane> = []
    /// When a lane's head becomes due (the heap may hold stale entries; this map is the truth).
    private var due: [MutationLane: Int64] = [:]
    private var timers = TimerHeap()

    /// Whether some lane needs looking at, or a lane head is due at `now`.
    func hasWork(now: Int64) -> Bool {
        !candidates.isEmpty || (timers.peek().map { $0.due <= now } ?? false)
    }

    /// The earliest time a lane head becomes due, if any waits for a time.
    var nextDue: Int64? { timers.peek()?.due }

    /// Rows in sequence order that are in `states`.
    func rows(in states: Set<MutationRecord.State>) -> [JournalRow] {
        rows.values.filter { states.contains($0.state) }.sorted { $0.sequence < $1.sequence }
    }

    /// Whether `row` waits in a lane: pending or in flight, and made as `account`.
    func isLaned(_ row: JournalRow) -> Bool { row.isQueued && row.account == account }

    // MARK: - Changes

    /// Sends the rows of `account` from now on, holding the others: the lanes are built again.
    ///
    /// Complexity: O(n log n) in the rows.
    mutating func setAccount(_ account: String?) {
        guard account != self.account else { return }
        self.account = account
        lanes = [:]
        let rows = self.rows
        for row in rows.values.sorted(by: { $0.sequence < $1.sequence }) where isLaned(row) {
            lanes[row.lane, default: LaneQueue()].insert(row.token, sequence: row.sequence) {
                rows[$0]?.sequence ?? .max
            }
        }
        reconsiderAll()
    }

    /// Makes room for `count` rows (a cold start), so loading never resizes the tables.
    mutating func reserve(_ count: Int) {
        rows.reserveCapacity(count)
        candidates.reserveCapacity(min(count, 1 << 16))
    }

    /// Adds or replaces a row, moving it between lanes as its state and lane say.
    ///
    /// Complexity: O(1) amortized for a row joining the end of its lane; O(log n + n) when it
    /// goes back into the middle (a retried row).
    mutating func put(_ row: JournalRow) {
        let old = rows.updateValue(row, forKey: row.token)
        if let old {
            if let dependency = old.dependsOn, dependency != row.dependsOn {
                dependents[dependency]?.remove(row.token)
                if dependents[dependency]?.isEmpty == true { dependents[dependency] = nil }
            }
            if isLaned(old), !isLaned(row) || old.lane != row.lane {
                lanes[old.lane]?.remove(old.token)
                if lanes[old.lane]?.isEmpty == true { lanes[old.lane] = nil }
                candidates.insert(old.lane)
            }
        }
        if let dependency = row.dependsOn { dependents[dependency, default: []].insert(row.token) }
        if isLaned(row), old.map({ !isLaned($0) || $0.lane != row.lane }) ?? true {
            let rows = self.rows
            lanes[row.lane, default: LaneQueue()].insert(row.token, sequence: row.sequence) {
                rows[$0]?.sequence ?? .max
            }
        }
        if row.state != .inFlight { inFlight.remove(row.token) }
        if isLaned(row) { candidates.insert(row.lane) }
    }

    /// Removes a row.
    mutating func remove(_ token: MutationToken) {
        guard let old = rows.removeValue(forKey: token) else { return }
        if let dependency = old.dependsOn {
            dependents[dependency]?.remove(token)
            if dependents[dependency]?.isEmpty == true { dependents[dependency] = nil }
        }
        if isLaned(old) {
            lanes[old.lane]?.remove(token)
            if lanes[old.lane]?.isEmpty == true { lanes[old.lane] = nil }
            candidates.insert(old.lane)
        }
        inFlight.remove(token)
    }

    /// Looks at every lane again and forgets the waits (after the network came back).
    mutating func reconsiderAll() {
        candidates.formUnion(lanes.keys)
        due.removeAll()
        timers = TimerHeap()
    }

    /// Looks at a lane again.
    mutating func reconsider(_ lane: MutationLane) { candidates.insert(lane) }

    /// Decides which lane heads to send at `now`, marking them in flight, with at most `capacity`
    /// attempts in flight in all.
    ///
    /// A head is sent when it is not in flight, its dependency (if any) is resolved, and its next
    /// attempt time has come. Heads are taken oldest first, so the order is deterministic.
    mutating func schedule(now: Int64, capacity: Int) -> Decision {
        while let timer = timers.peek(), timer.due <= now {
            timers.pop()
            if due[timer.lane] == timer.due {
                due[timer.lane] = nil
                candidates.insert(timer.lane)
            }
        }
        var decision = Decision()
        var heads: [JournalRow] = []
        for lane in candidates {
            guard let head = lanes[lane]?.first, let row = rows[head] else {
                candidates.remove(lane)
                continue
            }
            if inFlight.contains(head) {
                candidates.remove(lane)
                continue
            }
            if let dependency = row.dependsOn {
                candidates.remove(lane)
                if let waitedFor = rows[dependency], waitedFor.isQueued { continue }
                decision.unresolved.append(row)
                continue
            }
            if let next = row.nextAttemptAt, next > now {
                candidates.remove(lane)
                if due[lane] != next {
                    due[lane] = next
                    timers.push(due: next, lane: lane)
                }
                continue
            }
            heads.append(row)
        }
        heads.sort { $0.sequence < $1.sequence }
        for var row in heads where inFlight.count < capacity {
            candidates.remove(row.lane)
            due[row.lane] = nil
            row.state = .inFlight
            rows[row.token] = row
            inFlight.insert(row.token)
            decision.launches.append(row)
        }
        decision.wakeAt = timers.peek()?.due
        return decision
    }
}
