/// A row type the adapter can make a plain one-line row of, for items no controller claims.
///
/// The terminal UI's styled rows conform; `String` does, for tests and simple views.
public protocol ListPlainRow: SendableMetatype {
    /// A one-line row showing `text`, cut to `width` columns.
    init(plainText text: String, width: Int)
}

extension String: ListPlainRow {
    /// `text` cut to `width` characters (a terminal view measures columns itself).
    public init(plainText text: String, width: Int) {
        self = String(text.prefix(Swift.max(0, width)))
    }
}
