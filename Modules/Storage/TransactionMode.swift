/// How an outermost transaction begins. Nested transactions are savepoints and take no mode.
public enum TransactionMode: Hashable, Sendable {
    /// Takes locks as statements need them (`BEGIN DEFERRED`). Right for read-only work; a
    /// deferred transaction that later writes may fail with `SQLITE_BUSY` without waiting.
    case deferred
    /// Takes the write lock at once (`BEGIN IMMEDIATE`), waiting up to the busy timeout. The
    /// default: it makes write transactions wait instead of failing midway.
    case immediate
    /// Like `immediate`; in WAL mode the two behave the same (`BEGIN EXCLUSIVE`).
    case exclusive

    var beginSQL: String {
        switch self {
        case .deferred: "BEGIN DEFERRED"
        case .immediate: "BEGIN IMMEDIATE"
        case .exclusive: "BEGIN EXCLUSIVE"
        }
    }
}
