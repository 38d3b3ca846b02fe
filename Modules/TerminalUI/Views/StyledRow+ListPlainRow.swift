import ListEngine

/// `StyledRow` is the terminal's row type for the list engine: `init(plainText:width:)` makes
/// the fallback row for items no section controller claims.
extension StyledRow: ListPlainRow {}
