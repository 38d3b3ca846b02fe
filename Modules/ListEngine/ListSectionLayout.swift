/// The pure half of a section controller: how one item of `Model` becomes rows.
///
/// A layout is a `Sendable` value whose answers depend only on the model and the width, so
/// the adapter's layout cache can compute heights on a background task before the rows are
/// needed. A row may be several terminal lines tall; its height is in lines for a width in
/// columns. Keep per-controller state out of it: state that changes rows belongs in the model.
///
/// ```swift
/// struct CaptionLayout: ListSectionLayout {
///     func rowCount(for caption: Caption) -> Int { 1 }
///     func height(ofRow row: Int, for caption: Caption, width: Int) -> Int {
///         max(1, (caption.text.count + width - 1) / max(1, width))
///     }
///     func row(_ row: Int, for caption: Caption, width: Int) -> String { caption.text }
/// }
/// ```
public protocol ListSectionLayout<Model, Row>: Sendable {
    /// The model type this layout lays out.
    associatedtype Model: ListDiffable & Sendable
    /// The row content the list view draws.
    associatedtype Row

    /// How many rows the model has (independent of the width).
    func rowCount(for model: Model) -> Int

    /// The height in lines of `row` when the list is `width` columns wide.
    func height(ofRow row: Int, for model: Model, width: Int) -> Int

    /// The content of `row` when the list is `width` columns wide.
    func row(_ row: Int, for model: Model, width: Int) -> Row
}
