/// Shows an item no controller claims as one row: its type, identifier and description.
@MainActor
final class FallbackSectionController<Row: ListPlainRow>: ListSectionController {
    /// One plain-text row summarizing the item.
    struct Layout: ListSectionLayout {
        func rowCount(for model: AnyListItem) -> Int { 1 }
        func height(ofRow row: Int, for model: AnyListItem, width: Int) -> Int { 1 }
        func row(_ row: Int, for model: AnyListItem, width: Int) -> Row {
            Row(plainText: model.description, width: width)
        }
    }

    let layout = Layout()
}
