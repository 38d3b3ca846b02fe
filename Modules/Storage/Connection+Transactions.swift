extension Connection {
    /// Runs `body` in a transaction: committed when `body` returns, rolled back when it throws
    /// (and the error rethrown).
    ///
    /// Inside another transaction this opens a savepoint instead, which a throw rolls back to
    /// without ending the outer transaction.
    ///
    /// - Parameters:
    ///   - mode: How an outermost transaction begins; ignored for a savepoint.
    ///   - synchronous: A durability level for this commit only (`.full` for a commit that must
    ///     survive power loss on a database opened `.normal`); outermost transactions only.
    ///   - body: the work to run inside the transaction (or savepoint), given this connection.
    @discardableResult
    public func transaction<T>(
        _ mode: TransactionMode = .immediate, synchronous: Database.Synchronous? = nil,
        _ body: (borrowing Connection) throws -> T
    ) throws -> T {
        if let engine { return try engineTransaction(engine, mode, body) }
        if core.isInTransaction {
            if let synchronous, synchronous != core.synchronous {
                throw StorageError(
                    code: .misuse,
                    message: "synchronous = \(synchronous.rawValue) was asked for a nested transaction; "
                        + "choose it on the outermost transaction, where the commit happens",
                    path: core.path)
            }
            return try savepoint(body)
        }
        let previous = core.synchronous
        if let synchronous, synchronous != previous {
            try core.execute("PRAGMA synchronous = \(synchronous.rawValue)")
            core.synchronous = synchronous
        }
        defer {
            if core.synchronous != previous {
                _ = try? core.execute("PRAGMA synchronous = \(previous.rawValue)")
                core.synchronous = previous
            }
        }
        try core.execute(mode.beginSQL)
        let result: T
        do {
            result = try body(self)
        } catch {
            rollback()
            throw error
        }
        do {
            try core.execute("COMMIT")
        } catch {
            rollback()
            throw error
        }
        return result
    }

    private func savepoint<T>(_ body: (borrowing Connection) throws -> T) throws -> T {
        core.savepointDepth += 1
        defer { core.savepointDepth -= 1 }
        let name = "storage_savepoint_\(core.savepointDepth)"
        try core.execute("SAVEPOINT \(name)")
        let result: T
        do {
            result = try body(self)
        } catch {
            if core.isInTransaction {
                _ = try? core.execute("ROLLBACK TO \(name)")
                _ = try? core.execute("RELEASE \(name)")
            }
            throw error
        }
        try core.execute("RELEASE \(name)")
        return result
    }

    /// A transaction on an engine: its own begin statement for `mode` (the engine commits
    /// durably on its own terms, so `synchronous` does not apply), savepoints when nested.
    private func engineTransaction<T>(
        _ engine: any SQLEngine, _ mode: TransactionMode, _ body: (borrowing Connection) throws -> T
    ) throws -> T {
        let nested = engine.isInTransaction
        engine.savepointDepth += nested ? 1 : 0
        defer { if nested { engine.savepointDepth -= 1 } }
        let name = "storage_savepoint_\(engine.savepointDepth)"
        if nested { _ = try engine.execute("SAVEPOINT \(name)", []) } else { try engine.begin(mode) }
        let result: T
        do {
            result = try body(self)
        } catch {
            if engine.isInTransaction {
                _ = try? engine.execute(nested ? "ROLLBACK TO \(name)" : "ROLLBACK", [])
                if nested { _ = try? engine.execute("RELEASE \(name)", []) }
            }
            throw error
        }
        do {
            _ = try engine.execute(nested ? "RELEASE \(name)" : "COMMIT", [])
        } catch {
            if engine.isInTransaction {
                _ = try? engine.execute(nested ? "ROLLBACK TO \(name)" : "ROLLBACK", [])
            }
            throw error
        }
        return result
    }

    private func rollback() {
        // SQLite may already have rolled back (after SQLITE_FULL, for example).
        if core.isInTransaction { _ = try? core.execute("ROLLBACK") }
    }
}
