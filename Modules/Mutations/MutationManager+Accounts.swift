extension MutationManager.State {
    /// Adds `row`'s optimistic effect to the layer when the signed-in account made it: another
    /// account's pending like never shows on this account's screens.
    mutating func show(_ row: JournalRow) {
        guard row.account == queue.account else { return }
        layer.add(row)
    }

    /// The signed-in account's rows in `states`, in the order they were made.
    func ownRows(in states: Set<MutationRecord.State>) -> [JournalRow] {
        queue.rows(in: states).filter { $0.account == queue.account }
    }

    /// The signed-in account's row with `token`, or why it cannot be acted on here.
    func ownRow(_ token: MutationToken) -> Result<JournalRow, MutationError> {
        guard let row = queue.rows[token] else { return .failure(.unknownToken(token)) }
        guard row.account == queue.account else { return .failure(.heldForAccount(token, row.account)) }
        return .success(row)
    }
}
