import Foundation
import MediaModel
import ServerAPI
import TerminalUI
import Wire

/// The viewer's display name and bio, edited (`e` on their own profile): two fields, each with
/// its count against MediaModel's `ProfileLimits`; tab moves between them, enter saves, esc goes
/// back (a second esc when something was changed). A name or bio over its limit is refused here
/// with the limit named, before anything is saved.
///
/// Saving is a change like any other (the `profile` kind, through the viewer's actions): the
/// fields that changed are journaled, the profile shows them at once, and they are sent when
/// the server can be reached, offline included, across restarts; a refusal lists it in Sync and
/// the profile goes back to what the server has. Once confirmed, Home's cache is told the server
/// changed all the way down (the viewer's posts carry the new name), and Home fetches its cached
/// range again when it next appears.
@MainActor
package final class ProfileEditorScreen: AppScreen {
    /// Which field has the focus.
    package enum Focus: Sendable {
        /// The display name.
        case name
        /// The bio.
        case bio
    }

    private let context: AppContext
    private let original: User
    /// The display name's field (one line).
    package let nameField: TextField
    /// The bio's field (wrapped; a paste keeps its line breaks).
    package let bioField: TextField
    /// The field that has the focus.
    package private(set) var focus = Focus.name
    private var saving = false
    private var message: String?
    /// A first esc with changes asked to confirm; the next key clears it.
    private var askedToLeave = false

    /// The most lines the bio field shows.
    static let bioLines = 6

    /// Makes the editor of `user`'s name and bio.
    package init(context: AppContext, user: User) {
        self.context = context
        original = user
        nameField = TextField(text: user.displayName, placeholder: "your name, as others see it")
        bioField = TextField(
            text: user.bio, placeholder: "a few words about you", mode: .wrapped(maxLines: Self.bioLines))
    }

    package var title: String { "Edit profile" }

    package var status: String? { saving ? "saving…" : message }

    package var capturesText: Bool { true }

    package func appear() {}

    // MARK: Keys

    /// What the editor's keys do.
    enum Command: Sendable { case save, switchField, back }

    /// The editor's keys: the one place to add one. Every other key edits the focused field.
    var keys: KeyTable<Command> {
        KeyTable([
            .note("type"),
            .init([.enter], .save, does: "save", footer: "enter"),
            .init(
                [.tab, .backTab], .switchField, label: "tab",
                does: focus == .name ? "to the bio" : "to the name",
                footer: "tab"),
            .init([.escape], .back, does: "back (twice when changed)", footer: "esc", footerDoes: "back"),
        ])
    }

    package var keyBindings: [KeyBinding] { keys.bindings }

    package func handle(_ key: Key) -> Bool {
        guard !saving else { return true }
        message = nil
        let asked = askedToLeave
        askedToLeave = false
        guard let command = keys.command(for: key) else {
            switch (focus, key) {
            case (.name, .down): focus = .bio
            case (.bio, .up) where bioField.buffer.cursor == 0: focus = .name
            default: return focused.handle(.key(key))
            }
            return true
        }
        switch command {
        case .save: save()
        case .switchField: focus = focus == .name ? .bio : .name
        case .back:
            if !hasChanges || asked {
                context.navigator?.pop()
            } else {
                askedToLeave = true
                message = "esc again leaves without saving your changes"
            }
        }
        return true
    }

    package func paste(_ text: String) -> Bool {
        guard !saving else { return true }
        return focused.handle(.paste(text))
    }

    private var focused: TextField { focus == .name ? nameField : bioField }

    /// The name as it would be saved: without spaces at its ends.
    private var trimmedName: String { nameField.text.trimmingCharacters(in: .whitespacesAndNewlines) }

    private var hasChanges: Bool { trimmedName != original.displayName || bioField.text != original.bio }

    /// Why the fields cannot be saved as they are, or nil.
    var problem: String? {
        let name = trimmedName.count
        if name < ProfileLimits.displayNameCharacters.lowerBound {
            return "a name needs at least 1 character"
        }
        if name > ProfileLimits.displayNameCharacters.upperBound {
            return "the name is \(name) characters; \(ProfileLimits.displayNameCharacters.upperBound) at most"
        }
        let bio = bioField.text.count
        if bio > ProfileLimits.bioCharacters {
            return "the bio is \(bio) characters; \(ProfileLimits.bioCharacters) at most"
        }
        // Characters that take many bytes each (flags, joined emoji) meet the byte limits first.
        let nameBytes = trimmedName.utf8.count
        if nameBytes > ProfileLimits.displayNameBytes {
            return
                "the name takes \(nameBytes) bytes; \(ProfileLimits.displayNameBytes) at most (fewer emoji)"
        }
        let bioBytes = bioField.text.utf8.count
        if bioBytes > ProfileLimits.bioBytes {
            return "the bio takes \(bioBytes) bytes; \(ProfileLimits.bioBytes) at most (fewer emoji)"
        }
        return nil
    }

    private func save() {
        if let problem {
            message = "✕ " + problem
            return
        }
        guard hasChanges else {
            context.navigator?.pop()
            context.navigator?.showMessage("nothing changed")
            return
        }
        guard let actions = context.actions else {
            message = "✕ changes are not available in this build"
            return
        }
        let name = trimmedName == original.displayName ? nil : trimmedName
        let bio = bioField.text == original.bio ? nil : bioField.text
        saving = true
        actions.setProfile(displayName: name, bio: bio) { [weak self] problem in
            guard let self else { return }
            self.saving = false
            if let problem {
                // Not journaled: the text stays here, as typed.
                self.message = "✕ not saved: \(problem)"
            } else {
                self.context.navigator?.pop()
                self.context.navigator?.showMessage("name and bio saved")
            }
            self.context.navigator?.setNeedsDisplay()
        }
    }

    // MARK: Drawing

    package func draw(into buffer: inout ScreenBuffer, in rect: Rect) -> Point? {
        let style = context.style
        let inner = Rect(x: rect.x + 1, y: rect.y, width: max(rect.width - 2, 1), height: rect.height)
        var y = inner.y
        var cursor: Point?
        func label(_ text: String, focused: Bool) {
            guard y < inner.maxY else { return }
            buffer.putTruncated(
                StyledLine(text, style: focused ? style.accent.bold() : style.secondary),
                in: Rect(x: inner.x, y: y, width: inner.width, height: 1))
            y += 1
        }
        func count(_ count: Int, of limit: Int) {
            guard y < inner.maxY else { return }
            let over = count > limit
            buffer.putTruncated(
                StyledLine(
                    "\(count)/\(limit)" + (over ? " · \(count - limit) over" : ""),
                    style: over ? style.failure : style.secondary),
                in: Rect(x: inner.x, y: y, width: inner.width, height: 1))
            y += 2
        }
        label("Name", focused: focus == .name)
        if y < inner.maxY {
            let point = nameField.draw(
                into: &buffer, in: Rect(x: inner.x, y: y, width: inner.width, height: 1))
            if focus == .name { cursor = point }
            y += 1
        }
        count(trimmedName.count, of: ProfileLimits.displayNameCharacters.upperBound)
        label("Bio", focused: focus == .bio)
        if y < inner.maxY {
            let height = min(max(bioField.height(forWidth: inner.width), 1), max(inner.maxY - y - 2, 1))
            let point = bioField.draw(
                into: &buffer, in: Rect(x: inner.x, y: y, width: inner.width, height: height))
            if focus == .bio { cursor = point }
            y += height
        }
        count(bioField.text.count, of: ProfileLimits.bioCharacters)
        return saving ? nil : cursor
    }

    package func resize(width: Int, height: Int) {}
}
