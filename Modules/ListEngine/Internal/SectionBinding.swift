/// A section controller's layout with its model and row types erased: `Sendable`, so heights
/// can be computed on a background task, and not generic, so the adapter's core is compiled
/// once, optimized, in this module.
struct ErasedLayout: Sendable {
    let rowCount: @Sendable (AnyListItem) -> Int
    let height: @Sendable (Int, AnyListItem, Int) -> Int
    /// The row content, as the view's row type; nil for an item of another model type.
    let content: @Sendable (Int, AnyListItem, Int) -> Any?

    /// Erases `layout`. An item of another model type (which the adapter never passes) gets
    /// one blank row rather than a crash; negative counts and heights read as zero.
    init<Layout: ListSectionLayout>(_ layout: Layout) {
        rowCount = { item in
            guard let model = item.model(as: Layout.Model.self) else { return 1 }
            return Swift.max(0, layout.rowCount(for: model))
        }
        height = { row, item, width in
            guard let model = item.model(as: Layout.Model.self) else { return 1 }
            return Swift.max(0, layout.height(ofRow: row, for: model, width: width))
        }
        content = { row, item, width in
            guard let model = item.model(as: Layout.Model.self) else { return nil }
            return layout.row(row, for: model, width: width)
        }
    }

    /// The height of every row of `item` for `width`.
    func heights(of item: AnyListItem, width: Int) -> [Int] {
        (0..<rowCount(item)).map { height($0, item, width) }
    }
}

/// One section's controller behind a type-erased face, as the adapter uses it.
@MainActor
final class SectionBinding {
    /// The controller itself (for identity and for `ListAdapter.sectionController(at:)`).
    let controller: AnyObject
    private let readLayout: () -> ErasedLayout
    /// The controller's layout, as of the last update.
    private(set) var layout: ErasedLayout
    let didUpdate: (AnyListItem) -> Void
    let didSelect: (Int) -> Void
    let didEnterWorkingRange: () -> Void
    let didExitWorkingRange: () -> Void
    let rowChanges: (AnyListItem, AnyListItem) -> ListDiffResult?

    private init<Controller: ListSectionController>(_ controller: Controller) {
        self.controller = controller
        readLayout = { ErasedLayout(controller.layout) }
        layout = ErasedLayout(controller.layout)
        didUpdate = { item in
            if let model = item.model(as: Controller.Model.self) { controller.didUpdate(to: model) }
        }
        didSelect = { controller.didSelect(row: $0) }
        didEnterWorkingRange = { controller.didEnterWorkingRange() }
        didExitWorkingRange = { controller.didExitWorkingRange() }
        rowChanges = { old, new in
            guard let old = old.model(as: Controller.Model.self),
                let new = new.model(as: Controller.Model.self)
            else { return nil }
            return controller.rowChanges(from: old, to: new)
        }
    }

    /// Reads the controller's layout again (after its item changed).
    func refreshLayout() {
        layout = readLayout()
    }

    /// Binds `controller` to `item`, or explains why it cannot: the name of the model type the
    /// controller takes, when the item is of another type.
    static func bind<Controller: ListSectionController>(
        _ controller: Controller, to item: AnyListItem
    ) -> Result<SectionBinding, ModelMismatch> {
        guard item.model(as: Controller.Model.self) != nil else {
            return .failure(
                ModelMismatch(
                    controller: String(describing: Controller.self),
                    expectedModel: String(describing: Controller.Model.self)))
        }
        return .success(SectionBinding(controller))
    }

    /// A fallback controller's binding, which takes any item, drawing rows of `rowType`.
    static func fallback<Row: ListPlainRow>(rowType: Row.Type) -> SectionBinding {
        SectionBinding(FallbackSectionController<Row>())
    }

    /// Why a controller cannot show an item.
    struct ModelMismatch: Error {
        let controller: String
        let expectedModel: String
    }
}
