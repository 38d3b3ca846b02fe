import Storage

extension FeedCache {
    /// How many confirmed follows and unfollows the cached entries do not reflect yet: the next
    /// `refresh` reconciles the cache while it is above zero (tests of the reconcile).
    @_spi(Testing) public var unreconciledFollowCount: Int {
        get throws { Int(try database.withConnection { db in try Self.unreconciled(db) }) }
    }
}
