extension Database {
    /// Checks the file for damage (`PRAGMA quick_check`) and returns SQLite's findings; an empty
    /// array means the database is sound. Damage inside a file whose header is intact is not
    /// seen at open: run this where a cache must be trusted, and rebuild the cache if it reports
    /// anything.
    ///
    /// - Complexity: O(n) in the size of the database.
    public func quickCheck() throws(StorageError) -> [String] {
        let rows = try query("PRAGMA quick_check")
        let findings = rows.compactMap { row in try? row.string(0) }
        return findings == ["ok"] ? [] : findings
    }
}
