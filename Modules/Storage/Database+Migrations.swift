extension Database {
    /// Brings the schema up to the latest of `migrations`, applying each pending step in its
    /// own transaction together with the `user_version` it reaches; a step never runs twice.
    ///
    /// If a step fails, it is rolled back, the steps before it stay applied, and the error
    /// names the step. Safe when several connections migrate one file: each step re-reads the
    /// version inside its write transaction.
    ///
    /// - Throws: `StorageError` with code `schema` when versions are not 1, 2, 3, … or the file's
    ///   version is newer than the latest migration (a newer build wrote it); the failing step's
    ///   error otherwise.
    @discardableResult
    public func migrate(_ migrations: [Migration]) throws -> Migration.Report {
        for (offset, migration) in migrations.enumerated() where migration.version != offset + 1 {
            throw StorageError(
                code: .schema,
                message: "migration '\(migration.name)' has version \(migration.version) but should be "
                    + "\(offset + 1): number migrations 1, 2, 3, … in order with no gaps, and never renumber "
                    + "a shipped one",
                path: path)
        }
        let latest = migrations.count
        return try withConnection { connection in
            let previous = try connection.userVersion()
            guard previous <= latest else {
                throw StorageError(
                    code: .schema,
                    message: "the database is at schema version \(previous), newer than this build's latest "
                        + "migration \(latest); it was written by a newer build: open it with that build",
                    path: path)
            }
            var applied: [Int] = []
            for migration in migrations where migration.version > previous {
                do {
                    let ran = try connection.transaction(.immediate) { connection in
                        guard try connection.userVersion() < migration.version else { return false }
                        try migration.body(connection)
                        try connection.setUserVersion(migration.version)
                        return true
                    }
                    if ran { applied.append(migration.version) }
                } catch let error as StorageError {
                    throw StorageError(
                        code: error.code, extendedCode: error.extendedCode,
                        message: "migration \(migration.version) ('\(migration.name)') failed and was rolled "
                            + "back; the schema stays at version \(migration.version - 1): \(error.message)",
                        sql: error.sql, path: path)
                }
            }
            return Migration.Report(previousVersion: previous, currentVersion: latest, applied: applied)
        }
    }

    /// The schema version stored in the file (`PRAGMA user_version`).
    public func userVersion() throws(StorageError) -> Int {
        try withAnyConnection { connection throws(StorageError) in try connection.userVersion() }
    }
}
