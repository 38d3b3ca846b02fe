import Foundation
import TerminalUI

/// Who receives the photos the picker picks (the composer).
@MainActor
package protocol PhotoPickerTarget: AnyObject {
    /// The absolute paths picked so far, in order.
    var pickedPaths: [String] { get }
    /// Adds the photo at `path` (absolute), or throws why it cannot be attached; nothing picked
    /// before is lost either way.
    func attach(path: String) throws(PhotoFileError)
    /// The picker moved to `directory`: the next picker starts there.
    func pickerDidOpen(_ directory: String)
}

/// Picking photos from disk for the composer: a listing of one folder (its folders first, then
/// its JPEG and PNG files, hidden ones left out) under a path line the person can type into.
///
/// Keys: ↑ ↓ move; enter opens the selected folder or picks the selected photo, or, with a path
/// typed, opens or picks what the path names (absolute, `~/…`, or inside the folder shown); tab
/// completes the path as far as the matches agree and opens a folder it completes to; backspace
/// on an empty path (or `..`) goes up a folder; esc goes back to the composer with what was
/// picked. Every photo picked goes to the composer at once; picking one again says so.
@MainActor
package final class PhotoPickerScreen: AppScreen {
    /// One row of the listing: the folder above, or an entry.
    enum Row: Equatable {
        case up
        case entry(DirectoryListing.Entry)
    }

    private let context: AppContext
    private weak var target: (any PhotoPickerTarget)?
    private let home: String?
    private let field = TextField(placeholder: "type a path, or pick below", mode: .singleLine)
    /// The folder shown (nil when it could not be listed: `problem` says why).
    package private(set) var listing: DirectoryListing?
    /// The folder the picker is in, listed or not.
    package private(set) var directory: String
    /// Why the folder shown cannot be listed.
    private var problem: String?
    /// The selected row.
    package private(set) var selection = 0
    private var window = ScrollWindow()
    private var message: String?

    /// Makes a picker showing `directory` (absolute) for `target`; `home` expands `~`.
    package init(context: AppContext, directory: String, home: String?, target: any PhotoPickerTarget) {
        self.context = context
        self.target = target
        self.home = home
        self.directory = DirectoryListing.standardized(directory)
        open(self.directory)
    }

    package var title: String { "Add photos" }

    package var status: String? { message }

    package var capturesText: Bool { true }

    /// The text on the path line.
    package var typedPath: String { field.text }

    package func appear() {}

    /// The rows shown: the folder above (unless at the root), then the listing's entries.
    var rows: [Row] {
        (DirectoryListing.parent(of: directory) == nil ? [] : [.up]) + (listing?.entries.map(Row.entry) ?? [])
    }

    /// Shows `path`; on failure the listing is empty and says why, and the picker stays usable.
    private func open(_ path: String) {
        directory = DirectoryListing.standardized(path)
        selection = 0
        window = ScrollWindow()
        do {
            listing = try DirectoryListing.read(directory)
            problem = nil
        } catch {
            listing = nil
            problem = error.description
        }
        target?.pickerDidOpen(directory)
    }

    /// Goes up a folder, selecting the one left.
    private func goUp() {
        guard let parent = DirectoryListing.parent(of: directory) else {
            message = "already at the top folder"
            return
        }
        let left = (directory as NSString).lastPathComponent
        open(parent)
        if let index = rows.firstIndex(of: .entry(.init(name: left, kind: .directory))) { selection = index }
    }

    // MARK: Keys

    /// What the picker's keys do.
    enum Command: Sendable {
        case next, previous, open, complete, up, done
    }

    /// The picker's keys: the one place to add one. Every other key edits the path line.
    var keys: KeyTable<Command> {
        KeyTable([
            .note("type a path"),
            .init([(.down, .next), (.up, .previous)], label: "↑ ↓", does: "move", footer: "↑/↓"),
            .init(
                [.enter], .open, does: "open the folder or pick the photo", footer: "enter",
                footerDoes: "pick"),
            .init([.tab], .complete, does: "complete the path", footer: "tab", footerDoes: "complete"),
            .init(
                [.backspace], .up, label: "backspace", does: "up a folder (when no path is typed)",
                footer: nil),
            .init([.escape], .done, does: "back to the post", footer: "esc", footerDoes: "done"),
        ])
    }

    package var keyBindings: [KeyBinding] { keys.bindings }

    package func handle(_ key: Key) -> Bool {
        message = nil
        guard let command = keys.command(for: key, typing: true) else { return field.handle(.key(key)) }
        let count = rows.count
        switch command {
        case .next: selection = min(selection + 1, max(count - 1, 0))
        case .previous: selection = max(selection - 1, 0)
        case .up:
            guard field.text.isEmpty else { return field.handle(.key(key)) }
            goUp()
        case .complete: complete()
        case .open:
            if field.text.isEmpty {
                openSelected()
            } else {
                openTyped()
            }
        case .done: context.navigator?.pop()
        }
        return true
    }

    package func paste(_ text: String) -> Bool {
        message = nil
        return field.handle(.paste(text))
    }

    private func openSelected() {
        let all = rows
        guard all.indices.contains(selection) else {
            message = "nothing to open here"
            return
        }
        switch all[selection] {
        case .up: goUp()
        case .entry(let entry):
            let path = DirectoryListing.join(directory, entry.name)
            entry.kind == .directory ? open(path) : pick(path)
        }
    }

    private func openTyped() {
        let typed = field.text
        if typed == ".." {
            field.text = ""
            return goUp()
        }
        let path = PathCompletion.resolve(typed, in: directory, home: home)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            message = "✕ '\(typed)' does not exist: tab completes a path"
            return
        }
        field.text = ""
        if isDirectory.boolValue {
            open(path)
        } else {
            pick(path)
        }
    }

    private func complete() {
        let result = PathCompletion.complete(field.text, in: directory, home: home)
        if let problem = result.problem {
            message = "✕ " + problem
            return
        }
        field.text = result.text
        let path = PathCompletion.resolve(result.text, in: directory, home: home)
        var isDirectory: ObjCBool = false
        if result.text.hasSuffix("/"),
            FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory),
            isDirectory.boolValue
        {
            // A folder's path: open it.
            field.text = ""
            open(path)
        } else if result.matches.isEmpty {
            message = "no folder or photo here starts with that"
        } else if result.matches.count > 1 {
            message = "\(result.matches.count) matches: " + result.matches.joined(separator: "  ")
        }
    }

    private func pick(_ path: String) {
        guard let target else { return }
        let name = (path as NSString).lastPathComponent
        if target.pickedPaths.contains(path) {
            message = "'\(name)' is attached already"
            return
        }
        do {
            try target.attach(path: path)
            let count = target.pickedPaths.count
            message =
                "✓ attached '\(name)' · \(count) photo\(count == 1 ? "" : "s") · esc goes back to the post"
        } catch {
            message = "✕ '\(name)': \(error.reason)"
        }
    }

    // MARK: Drawing

    package func draw(into buffer: inout ScreenBuffer, in rect: Rect) -> Point? {
        let style = context.style
        let width = rect.width - 2
        var y = rect.y
        func put(_ line: StyledLine) {
            guard y < rect.maxY else { return }
            buffer.putTruncated(line, in: Rect(x: rect.x + 1, y: y, width: width, height: 1))
            y += 1
        }
        put(StyledLine(Self.truncatingStart(directory, width: width), style: style.strong))
        let label = StyledLine("path: ", style: style.secondary)
        let fieldX = rect.x + 1 + label.displayWidth
        var cursor: Point?
        if y < rect.maxY {
            _ = buffer.put(label, x: rect.x + 1, y: y, clip: rect)
            cursor = field.draw(
                into: &buffer, in: Rect(x: fieldX, y: y, width: max(rect.maxX - 1 - fieldX, 1), height: 1))
            y += 1
        }
        let picked = target?.pickedPaths ?? []
        if let listing {
            let folders = listing.directoryCount
            let photos = listing.imageCount
            put(
                StyledLine(
                    "\(folders) folder\(folders == 1 ? "" : "s") · \(photos) photo\(photos == 1 ? "" : "s")"
                        + " · \(picked.count) picked", style: style.secondary))
        } else if let problem {
            put(StyledLine("✕ " + problem, style: style.failure))
        }
        let all = rows
        selection = min(selection, max(all.count - 1, 0))
        let shown = window.rows(count: all.count, selection: selection, room: rect.maxY - y)
        if shown.lowerBound > 0 { put(StyledLine("  ↑ \(shown.lowerBound) more", style: style.secondary)) }
        for index in shown {
            var line = StyledLine(index == selection ? "▌" : " ", style: style.accent)
            var tail = StyledLine()
            switch all[index] {
            case .up:
                line.append("▸ ../", style: style.secondary)
            case .entry(let entry) where entry.kind == .directory:
                line.append("▸ " + entry.name + "/", style: style.strong)
            case .entry(let entry):
                line.append("  " + entry.name, style: style.text)
                if let order = picked.firstIndex(of: DirectoryListing.join(directory, entry.name)) {
                    tail = StyledLine("  ✓ \(order + 1)", style: style.accent)
                }
            }
            put(TextLayout.truncate(line, keeping: tail, width: width))
        }
        if shown.upperBound < all.count {
            put(StyledLine("  ↓ \(all.count - shown.upperBound) more", style: style.secondary))
        }
        return cursor
    }

    package func resize(width: Int, height: Int) {}

    /// `path` cut at its start to `width` columns ("…/Pictures/2024/summer"): its end says where
    /// the picker is.
    static func truncatingStart(_ path: String, width: Int) -> String {
        String(TextLayout.truncate(String(path.reversed()), width: width).reversed())
    }
}
