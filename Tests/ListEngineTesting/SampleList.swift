import Foundation
import ListEngine
import Synchronization

/// A photo post for sample lists: two rows (the picture, three lines tall, and the caption,
/// wrapped to the width).
public struct SamplePhoto: ListDiffable, Sendable, CustomStringConvertible {
    /// The identity.
    public var id: Int
    /// The caption: the content the second row shows.
    public var caption: String

    /// Makes a photo.
    public init(id: Int, caption: String = "") {
        self.id = id
        self.caption = caption
    }

    /// The identity the diff matches on.
    public var diffIdentifier: Int { id }
    /// Whether what the rows show is equal.
    public func isContentEqual(to other: SamplePhoto) -> Bool { caption == other.caption }
    /// A one-line summary, for logs and test failures.
    public var description: String { "photo \(id) '\(caption)'" }
}

/// A note for sample lists: one row per line, each line with its own identity so the
/// controller can report row-level changes.
public struct SampleNote: ListDiffable, Sendable {
    /// One line of a note.
    public struct Line: ListDiffable, Sendable {
        /// The identity.
        public var id: Int
        /// The line's text.
        public var text: String

        /// Makes a line.
        public init(id: Int, text: String) {
            self.id = id
            self.text = text
        }

        /// The identity the diff matches on.
        public var diffIdentifier: Int { id }
        /// Whether what the rows show is equal.
        public func isContentEqual(to other: Line) -> Bool { text == other.text }
    }

    /// The identity.
    public var id: String
    /// The lines, one row each.
    public var lines: [Line]

    /// Makes a note of these lines.
    public init(id: String, lines: [Line]) {
        self.id = id
        self.lines = lines
    }

    /// A note whose lines are `texts`, identified by position.
    public init(id: String, texts: [String]) {
        self.init(id: id, lines: texts.enumerated().map { Line(id: $0.offset, text: $0.element) })
    }

    /// The identity the diff matches on.
    public var diffIdentifier: String { id }
    /// Whether what the rows show is equal.
    public func isContentEqual(to other: SampleNote) -> Bool {
        lines.map(\.text) == other.lines.map(\.text) && lines.map(\.id) == other.lines.map(\.id)
    }
}

/// A model no sample controller claims.
public struct SampleUnknown: ListDiffable, Sendable, CustomStringConvertible {
    /// The identity.
    public var id: String

    /// Makes an item.
    public init(id: String) { self.id = id }

    /// The identity the diff matches on.
    public var diffIdentifier: String { id }
    /// Whether what the rows show is equal.
    public func isContentEqual(to other: SampleUnknown) -> Bool { true }
    /// A one-line summary, for logs and test failures.
    public var description: String { "something new" }
}

/// Counts where layout work ran, to check it runs off the main thread when prepared.
public final class LayoutProbe: Sendable {
    struct Counts {
        var onMainThread = 0
        var offMainThread = 0
    }

    let counts = Mutex(Counts())
    /// Added to every photo's caption row count (0 normally): lets a test change a row count
    /// behind the adapter's back, as a non-pure layout would.
    let extraCaptionRows = Mutex(0)

    /// Makes an empty one.
    public init() {}

    /// Heights measured on the main thread.
    public var onMainThread: Int { counts.withLock { $0.onMainThread } }
    /// Heights measured elsewhere.
    public var offMainThread: Int { counts.withLock { $0.offMainThread } }

    /// Makes photo layouts report `rows` extra caption rows from now on.
    public func setExtraCaptionRows(_ rows: Int) { extraCaptionRows.withLock { $0 = rows } }

    func recordMeasure() {
        let main = Thread.isMainThread
        counts.withLock { main ? ($0.onMainThread += 1) : ($0.offMainThread += 1) }
    }
}

/// Lines `text` takes at `width` columns (at least one).
public func wrappedLineCount(_ text: String, width: Int) -> Int {
    max(1, (text.count + max(1, width) - 1) / max(1, width))
}

/// The layout of a `SamplePhoto`.
public struct SamplePhotoLayout: ListSectionLayout {
    /// Where measurements are recorded.
    public let probe: LayoutProbe

    /// See `ListSectionLayout`.
    public func rowCount(for photo: SamplePhoto) -> Int { 2 + probe.extraCaptionRows.withLock { $0 } }

    /// See `ListSectionLayout`; records where it ran.
    public func height(ofRow row: Int, for photo: SamplePhoto, width: Int) -> Int {
        probe.recordMeasure()
        return row == 0 ? 3 : wrappedLineCount(photo.caption, width: width)
    }

    /// See `ListSectionLayout`.
    public func row(_ row: Int, for photo: SamplePhoto, width: Int) -> String {
        row == 0 ? "[photo \(photo.id)]" : photo.caption
    }
}

/// The layout of a `SampleNote`: one row per line.
public struct SampleNoteLayout: ListSectionLayout {
    /// See `ListSectionLayout`.
    public func rowCount(for note: SampleNote) -> Int { note.lines.count }

    /// See `ListSectionLayout`; records where it ran.
    public func height(ofRow row: Int, for note: SampleNote, width: Int) -> Int {
        wrappedLineCount(note.lines[row].text, width: width)
    }

    /// See `ListSectionLayout`.
    public func row(_ row: Int, for note: SampleNote, width: Int) -> String { note.lines[row].text }
}

/// What sample controllers heard, in order: `"photo 1: update 'caption'"`, `"note a: enter"`.
@MainActor
public final class ControllerLog {
    /// The entries so far, oldest first.
    public private(set) var entries: [String] = []

    /// Makes an empty one.
    public init() {}

    /// Appends an entry.
    public func add(_ entry: String) { entries.append(entry) }

    /// Returns the entries so far and starts afresh.
    public func take() -> [String] {
        defer { entries = [] }
        return entries
    }
}

/// The controller of a `SamplePhoto`.
@MainActor
public final class SamplePhotoController: ListSectionController {
    /// The layout of the controller's item.
    public let layout: SamplePhotoLayout
    let log: ControllerLog
    var name = "photo ?"

    /// Makes a controller logging to `log`.
    public init(log: ControllerLog, probe: LayoutProbe) {
        self.log = log
        layout = SamplePhotoLayout(probe: probe)
    }

    /// Logs the update.
    public func didUpdate(to photo: SamplePhoto) {
        name = "photo \(photo.id)"
        log.add("\(name): update '\(photo.caption)'")
    }

    /// Logs the selection.
    public func didSelect(row: Int) { log.add("\(name): select \(row)") }
    /// Logs entering the working range.
    public func didEnterWorkingRange() { log.add("\(name): enter") }
    /// Logs leaving the working range.
    public func didExitWorkingRange() { log.add("\(name): exit") }
}

/// The controller of a `SampleNote`, reporting row-level changes (or, when asked, wrong ones).
@MainActor
public final class SampleNoteController: ListSectionController {
    /// The layout of the controller's item.
    public let layout = SampleNoteLayout()
    let log: ControllerLog
    let reportsWrongRowChanges: Bool
    var name = "note ?"

    /// Makes a controller logging to `log`.
    public init(log: ControllerLog, reportsWrongRowChanges: Bool = false) {
        self.log = log
        self.reportsWrongRowChanges = reportsWrongRowChanges
    }

    /// Logs the update.
    public func didUpdate(to note: SampleNote) {
        name = "note \(note.id)"
        log.add("\(name): update \(note.lines.count) lines")
    }

    /// Logs the selection.
    public func didSelect(row: Int) { log.add("\(name): select \(row)") }
    /// Logs entering the working range.
    public func didEnterWorkingRange() { log.add("\(name): enter") }
    /// Logs leaving the working range.
    public func didExitWorkingRange() { log.add("\(name): exit") }

    /// The diff of the lines (or a wrong one, when asked).
    public func rowChanges(from old: SampleNote, to new: SampleNote) -> ListDiffResult? {
        // Wrong on purpose: diffs the old lines against themselves.
        if reportsWrongRowChanges { return ListDiff.diff(old: old.lines, new: old.lines + old.lines) }
        return ListDiff.diff(old: old.lines, new: new.lines)
    }
}

/// A data source for sample lists: photos and notes get their controllers, anything else none
/// (so it gets the fallback row).
@MainActor
public final class SampleDataSource: ListAdapterDataSource {
    /// The items the adapter will be given.
    public var items: [AnyListItem] = []
    /// What the controllers it made heard.
    public let log = ControllerLog()
    /// Where the photo layouts record their measurements.
    public let probe = LayoutProbe()
    /// Hands notes a photo controller (to test the mismatch diagnostic).
    public var mismatchesNoteControllers = false
    /// Note controllers report row changes that do not fit.
    public var noteControllersReportWrongRowChanges = false

    /// Makes a data source with these items.
    public init(_ items: [AnyListItem] = []) {
        self.items = items
    }

    /// The items.
    public func listItems() -> [AnyListItem] { items }

    /// A photo or note controller, or nil for anything else.
    public func sectionController(for item: AnyListItem) -> (any ListSectionController<String>)? {
        switch item.base {
        case is SamplePhoto:
            return SamplePhotoController(log: log, probe: probe)
        case is SampleNote:
            if mismatchesNoteControllers { return SamplePhotoController(log: log, probe: probe) }
            return SampleNoteController(
                log: log, reportsWrongRowChanges: noteControllersReportWrongRowChanges)
        default:
            return nil
        }
    }
}
