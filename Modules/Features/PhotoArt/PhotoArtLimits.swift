/// How much photo art is kept: bytes of pixel grids in memory and on disk.
package struct PhotoArtLimits: Hashable, Sendable {
    /// The most bytes of art grids kept in memory (least recently used dropped first).
    package var memoryBytes: Int
    /// The most bytes of art files kept in the data directory (least recently used removed first).
    package var diskBytes: Int
    /// The first wait before a failed load is tried again on a draw; it doubles after each
    /// failure up to ``maximumRetryDelay``. A network change retries at once.
    package var firstRetryDelay: Duration
    /// The longest wait between tries of a load that keeps failing.
    package var maximumRetryDelay: Duration

    /// Makes limits.
    package init(
        memoryBytes: Int, diskBytes: Int, firstRetryDelay: Duration = .seconds(5),
        maximumRetryDelay: Duration = .seconds(300)
    ) {
        self.memoryBytes = memoryBytes
        self.diskBytes = diskBytes
        self.firstRetryDelay = firstRetryDelay
        self.maximumRetryDelay = maximumRetryDelay
    }

    /// 16 MiB in memory (about 1,300 photos drawn 80 columns wide and 24 lines tall) and 64 MiB on
    /// disk (about 5,500 of them).
    package static let standard = PhotoArtLimits(memoryBytes: 16 << 20, diskBytes: 64 << 20)
}
