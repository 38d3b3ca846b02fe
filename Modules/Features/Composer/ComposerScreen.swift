import Composition
import Foundation
import MediaModel
import Sockets
import TerminalUI

/// Writing a post or a reply, with the rules of the `composerPolicy` socket: one app requires a
/// photo, the other requires text up to its limit. Photos come from disk, through the
/// ``PhotoPickerScreen``, wherever the draft may carry them (a post, and a reply where the
/// `replyModel` socket makes replies posts).
///
/// Keys: typed text edits the post, enter posts it. Tab goes to the photos (with none yet, it
/// opens the picker). There ←/→ choose a photo, `a` adds more from disk, `x` removes the chosen
/// one, `<`/`>` move it, `t` writes its alt text (enter keeps it, esc drops the edit), tab goes
/// back to the text. A paste is text, its line breaks included. A new post's draft, photos and
/// alt text included, is kept (`DraftStore`) as it is written: esc leaves it for the home feed,
/// and only ctrl-d twice discards it; a kept photo whose file is gone is dropped with a message.
/// A reply's esc asks once before dropping typed text. The text has the focus when the composer
/// appears (the photos, coming back from the picker with some).
@MainActor
package final class ComposerScreen: AppScreen, PhotoPickerTarget {
    /// The longest alt text, in characters.
    package static let altTextLimit = 1000

    private let context: AppContext
    private let field: TextField
    private let altField = TextField(
        placeholder: "describe the photo for people who cannot see it", mode: .singleLine, limit: altTextLimit
    )
    /// The post being answered, for a reply.
    package let replyingTo: Media?

    /// What has the keys.
    enum Focus: Equatable {
        case text, photos, altText
    }

    private var focus = Focus.text
    /// The chosen photo in `files`.
    private var photoIndex = 0
    /// The photo files picked, in order, with their alt text.
    package private(set) var files: [PickedPhoto] = []
    private var previewCache: PhotoPreviews?
    /// Where the picker was last: it opens there again.
    private var pickerDirectory: String?
    private var returningFromPicker = false
    private var message: String?
    /// Why the last post could not be saved on this device, said until a post is: the text and
    /// the draft stay.
    private var unsaved: String?
    /// Whether a post is being written to the journal: keys wait (the text must not change
    /// under it).
    private var saving = false
    /// The kept draft's id (`DraftStore.Saved.id`): journaled with the post as used up.
    private var draftID = DraftStore.Saved.newID()
    /// The key that asks to confirm dropping the text, pressed once: a second press drops it.
    private var armed: Command?

    /// Makes a composer for a new post (`replyingTo` nil), with the kept draft, or a reply.
    package init(context: AppContext, replyingTo: Media?) {
        self.context = context
        self.replyingTo = replyingTo
        let placeholder = replyingTo.map { "Reply to @\($0.author.handle)…" } ?? "What's new?"
        field = TextField(placeholder: placeholder, mode: .wrapped(maxLines: Self.mostLines), limit: nil)
        if replyingTo == nil, let kept = context.drafts?.load() {
            draftID = kept.id
            field.text = kept.text
            files = takesPhotos ? kept.files : []
        }
    }

    /// Whether this draft may carry a photo: a post may unless the composer policy forbids media,
    /// a reply only when replies are posts too.
    private var takesPhotos: Bool {
        context.registry[.composerPolicy].media != .forbidden
            && (replyingTo == nil || context.registry[.replyModel].repliesTakePhotos)
    }

    private var previews: PhotoPreviews {
        if let previewCache { return previewCache }
        let background = context.presentation.style.background
        let cache = PhotoPreviews(
            tracker: context.tracker,
            background: PixelImage.Color(red: background.red, green: background.green, blue: background.blue)
        ) { [weak self] in
            self?.context.navigator?.setNeedsDisplay()
        }
        previewCache = cache
        return cache
    }

    package var title: String {
        let policy = context.registry[.composerPolicy]
        guard replyingTo != nil else { return "New \(policy.noun)" }
        let noun = context.registry[.replyModel].noun
        return noun.prefix(1).uppercased() + noun.dropFirst()
    }

    package var capturesText: Bool { focus != .photos }

    package var status: String? { message ?? unsaved }

    /// The text typed so far.
    package var text: String { field.text }

    /// The text takes the focus whenever the composer shows, except coming back from the
    /// picker with photos: then the last one picked is chosen. Kept photos whose file is gone
    /// are dropped, and the status line names them.
    package func appear() {
        focus = returningFromPicker && !files.isEmpty ? .photos : .text
        if returningFromPicker { photoIndex = max(files.count - 1, 0) }
        returningFromPicker = false
        dropVanishedFiles()
    }

    private func dropVanishedFiles() {
        let gone = files.filter { !FileManager.default.fileExists(atPath: $0.path) }
        guard !gone.isEmpty else { return }
        files.removeAll { gone.contains($0) }
        photoIndex = min(photoIndex, max(files.count - 1, 0))
        if files.isEmpty && focus != .text { focus = .text }
        let names = gone.map { "'\(($0.path as NSString).lastPathComponent)'" }.joined(separator: ", ")
        message = "✕ \(names) \(gone.count == 1 ? "is" : "are") gone from disk: removed from the draft"
        keepDraft()
    }

    /// Keeps a new post's draft as it stands.
    private func keepDraft() {
        guard replyingTo == nil else { return }
        context.drafts?.save(DraftStore.Saved(id: draftID, text: field.text, files: files))
    }

    // MARK: Photos

    package var pickedPaths: [String] { files.map(\.path) }

    /// Adds the photo file at `path` (absolute) after the others, once its header shows a JPEG or
    /// PNG within the decoder's limits; its preview decodes off the UI actor.
    package func attach(path: String) throws(PhotoFileError) {
        guard takesPhotos else {
            let noun =
                replyingTo == nil
                ? context.registry[.composerPolicy].noun : context.registry[.replyModel].noun
            throw PhotoFileError(path: path, reason: "a \(noun) is text only")
        }
        guard !files.contains(where: { $0.path == path }) else {
            throw PhotoFileError(path: path, reason: "it is attached already")
        }
        _ = try PhotoFile.check(path)
        previews.forget(path)
        files.append(PickedPhoto(path: path))
        photoIndex = files.count - 1
        _ = previews.state(of: path)
        keepDraft()
    }

    /// Sets the alt text of the photo at `index` (an empty text removes it).
    package func setAltText(_ text: String, ofPhotoAt index: Int) {
        guard files.indices.contains(index) else { return }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        files[index].altText = trimmed.isEmpty ? nil : String(trimmed.prefix(Self.altTextLimit))
        keepDraft()
    }

    package func pickerDidOpen(_ directory: String) {
        pickerDirectory = directory
    }

    private func openPicker() {
        returningFromPicker = true
        let home = ProcessInfo.processInfo.environment["HOME"]
        context.navigator?.push(
            PhotoPickerScreen(
                context: context, directory: pickerDirectory ?? context.photosDirectory, home: home,
                target: self))
    }

    // MARK: Keys

    /// What the composer's keys do.
    enum Command: Sendable {
        case previousPhoto, nextPhoto, addPhotos, removePhoto, moveBack, moveForward, editAltText
        case saveAltText, cancelAltText, photos, text, submit, cancel, discard
    }

    /// The composer's keys now: the one place to add one. While the text (or an alt text) has
    /// the focus, every key not listed here is the text field's (typing, editing, moving the
    /// cursor).
    var keys: KeyTable<Command> {
        let cancel =
            replyingTo == nil
            ? KeyTable.Row([.escape], Command.cancel, does: "back", footer: "esc")
            : KeyTable.Row([.escape], Command.cancel, does: "cancel", footer: "esc")
        let discard = KeyTable.Row(
            [.control("d")], Command.discard, label: "ctrl-d", does: "discard the draft (press twice)")
        guard takesPhotos else {
            return KeyTable([
                .note("type"),
                .init([.enter], .submit, does: replyingTo == nil ? "post" : "send", footer: "enter"),
                cancel, discard,
            ])
        }
        switch focus {
        case .text:
            return KeyTable([
                .note("type"), .init([.enter], .submit, does: "post", footer: "enter"),
                .init(
                    [.tab, .backTab], .photos, label: "tab",
                    does: files.isEmpty ? "add photos from disk" : "photos", footer: "tab",
                    footerDoes: "photos"),
                cancel, discard,
            ])
        case .photos:
            return KeyTable([
                .init(
                    [
                        (.left, .previousPhoto), (.right, .nextPhoto), (.character("h"), .previousPhoto),
                        (.character("l"), .nextPhoto),
                    ], label: "← →  h l", does: "choose a photo", footer: "←/→", footerDoes: "choose"),
                .init(
                    [.character("a")], .addPhotos, does: "add photos from disk", footer: "a",
                    footerDoes: "add"),
                .init(
                    [.character("x"), .delete], .removePhoto, does: "remove the photo", footer: "x",
                    footerDoes: "remove"),
                .init(
                    [(.character("<"), .moveBack), (.character(">"), .moveForward)], label: "< >",
                    does: "move the photo"),
                .init(
                    [.character("t")], .editAltText, does: "write its alt text", footer: "t",
                    footerDoes: "alt text"),
                .init(
                    [.tab, .backTab], .text, label: "tab", does: "back to text", footer: "tab",
                    footerDoes: "text"),
                .init([.enter], .submit, does: "post", footer: "enter"),
                cancel, discard,
            ])
        case .altText:
            return KeyTable([
                .note("type the alt text"),
                .init([.enter], .saveAltText, does: "keep the alt text", footer: "enter", footerDoes: "keep"),
                .init([.escape], .cancelAltText, does: "drop the edit", footer: "esc", footerDoes: "cancel"),
            ])
        }
    }

    package var keyBindings: [KeyBinding] { keys.bindings }

    /// The most lines the text field shows (the screen's free rows decide first).
    static let mostLines = 100

    package func handle(_ key: Key) -> Bool {
        guard !saving else { return true }
        message = nil
        let wasArmed = armed
        armed = nil
        guard let command = keys.command(for: key) else {
            let edited: TextField
            switch focus {
            case .text: edited = field
            case .altText: edited = altField
            case .photos: return false
            }
            let handled = edited.handle(.key(key))
            if focus == .text { keepDraft() }
            return handled
        }
        switch command {
        case .cancel:
            if replyingTo == nil {
                // The draft stays; the person goes back to the feed.
                keepDraft()
                context.navigator?.openTab(.home)
                if !field.text.isEmpty || !files.isEmpty {
                    context.navigator?.showMessage("draft kept: it is here when you come back")
                }
            } else if field.text.isEmpty || wasArmed == .cancel {
                context.navigator?.pop()
            } else {
                armed = .cancel
                message = "esc again drops this reply's text"
            }
        case .discard:
            if wasArmed == .discard {
                clear()
                message = "draft discarded"
            } else {
                armed = .discard
                message = "ctrl-d again discards the draft"
            }
        case .photos:
            if files.isEmpty {
                openPicker()
            } else {
                focus = .photos
                photoIndex = min(photoIndex, files.count - 1)
            }
        case .text: focus = .text
        case .submit: submit()
        case .previousPhoto: photoIndex = max(photoIndex - 1, 0)
        case .nextPhoto: photoIndex = min(photoIndex + 1, max(files.count - 1, 0))
        case .addPhotos: openPicker()
        case .removePhoto: removePhoto()
        case .moveBack: movePhoto(by: -1)
        case .moveForward: movePhoto(by: 1)
        case .editAltText:
            guard files.indices.contains(photoIndex) else { return true }
            altField.text = files[photoIndex].altText ?? ""
            focus = .altText
        case .saveAltText:
            setAltText(altField.text, ofPhotoAt: photoIndex)
            focus = .photos
            message = files[photoIndex].altText == nil ? "alt text removed" : "alt text kept"
        case .cancelAltText: focus = .photos
        }
        return true
    }

    private func removePhoto() {
        guard files.indices.contains(photoIndex) else { return }
        let removed = files.remove(at: photoIndex)
        photoIndex = min(photoIndex, max(files.count - 1, 0))
        if files.isEmpty { focus = .text }
        message = "removed '\((removed.path as NSString).lastPathComponent)'"
        keepDraft()
    }

    private func movePhoto(by offset: Int) {
        let target = photoIndex + offset
        guard files.indices.contains(photoIndex), files.indices.contains(target) else { return }
        files.swapAt(photoIndex, target)
        photoIndex = target
        keepDraft()
    }

    /// A paste goes into the text field that has the focus, where the cursor is (the post's text
    /// keeps its line breaks; only a typed enter posts). With the photos focused it is ignored.
    package func paste(_ text: String) -> Bool {
        guard !saving else { return true }
        message = nil
        switch focus {
        case .photos: return false
        case .altText: return altField.handle(.paste(text))
        case .text:
            let handled = field.handle(.paste(text))
            keepDraft()
            return handled
        }
    }

    /// Checks the draft against the composer policy and that every photo decodes, and hands it
    /// over; on a rejection the message says why and nothing is lost.
    func submit() {
        let policy = context.registry[.composerPolicy]
        let verdict =
            replyingTo == nil
            ? policy.check(text: field.text, attachmentCount: files.count)
            : context.registry[.replyModel].check(
                reply: field.text, attachmentCount: files.count, policy: policy)
        if case .rejected(let reason) = verdict {
            message = "✕ " + reason
            return
        }
        dropVanishedFiles()
        if message != nil { return }
        for (index, file) in files.enumerated() {
            if case .failed(let error) = previews.decodedNow(file.path) {
                photoIndex = index
                focus = .photos
                message = "✕ photo \(index + 1) '\(error.name)': \(error.reason) · x removes it"
                return
            }
        }
        guard let actions = context.actions else {
            message = "✕ posting is not available in this build"
            return
        }
        // The text stays until the post is in the journal: a refusal now (a file gone or
        // changed since it was checked) or a journal that cannot be written (a full disk) keeps
        // it, and the status line says why.
        let draft = Draft(
            text: field.text, files: files, replyingTo: replyingTo,
            keptDraftID: replyingTo == nil ? draftID : nil)
        saving = true
        message = replyingTo == nil ? "posting…" : "replying…"
        let accepted = actions.submit(draft) { [weak self] problem in self?.saved(problem: problem) }
        if !accepted {
            saving = false
            message = nil
        }
    }

    /// The post is in the journal (`problem` nil): the composer empties and closes. Or it could
    /// not be written: the text stays, and the composer says so until a post is saved.
    private func saved(problem: String?) {
        saving = false
        message = nil
        if let problem {
            let noun = replyingTo == nil ? "posted" : "sent"
            unsaved =
                "✕ not \(noun): the text is kept, enter tries again · could not save it on this device: \(problem)"
            return
        }
        unsaved = nil
        clear()
        context.navigator?.pop()
        if replyingTo == nil { context.navigator?.openTab(.home) }
    }

    private func clear() {
        field.text = ""
        files = []
        photoIndex = 0
        focus = .text
        if replyingTo == nil {
            context.drafts?.remove()
            draftID = DraftStore.Saved.newID()
        }
    }

    // MARK: Drawing

    /// Columns of one photo preview (and its label).
    static let previewWidth = 14

    package func draw(into buffer: inout ScreenBuffer, in rect: Rect) -> Point? {
        let style = context.style
        let policy = context.registry[.composerPolicy]
        var y = rect.y
        if let replyingTo {
            let line =
                StyledLine("replying to @\(replyingTo.author.handle): ", style: style.secondary)
                + StyledLine(replyingTo.text, style: style.secondary)
            buffer.putTruncated(line, in: Rect(x: rect.x + 1, y: y, width: rect.width - 2, height: 1))
            y += 2
        }
        let photoLines = takesPhotos && !files.isEmpty ? 8 : 1
        // Six lines at least, growing with the text into the rows the screen has free.
        let free = max(rect.maxY - y - 5 - photoLines, 1)
        let fieldRect = Rect(
            x: rect.x + 1, y: y, width: rect.width - 2,
            height: min(max(6, field.height(forWidth: rect.width - 2)), free))
        let cursor = field.draw(into: &buffer, in: fieldRect)
        y = fieldRect.maxY + 1
        let count = field.characterCount
        let over = count > policy.textLimit
        buffer.putTruncated(
            StyledLine("\(count)/\(policy.textLimit)", style: over ? style.failure : style.secondary),
            in: Rect(x: rect.x + 1, y: y, width: rect.width - 2, height: 1))
        y += 1
        guard takesPhotos else { return cursor }
        let requirement = policy.media == .required ? "a photo is required" : "optional"
        let summary =
            files.isEmpty
            ? "none yet · tab adds them from disk"
            : files.count == 1 ? "1 photo" : "\(files.count) photos, a carousel"
        buffer.putTruncated(
            StyledLine("photos (\(requirement)): ", style: focus == .text ? style.secondary : style.accent)
                + StyledLine(summary, style: style.text),
            in: Rect(x: rect.x + 1, y: y, width: rect.width - 2, height: 1))
        y += 1
        guard !files.isEmpty, y < rect.maxY else { return cursor }
        y = drawPreviews(
            into: &buffer, in: Rect(x: rect.x + 1, y: y, width: rect.width - 2, height: rect.maxY - y))
        guard y < rect.maxY, focus != .text, files.indices.contains(photoIndex) else { return cursor }
        let label = StyledLine("alt \(photoIndex + 1): ", style: style.secondary)
        if focus == .altText {
            _ = buffer.put(label, x: rect.x + 1, y: y, clip: rect)
            let x = rect.x + 1 + label.displayWidth
            return altField.draw(
                into: &buffer, in: Rect(x: x, y: y, width: max(rect.maxX - 1 - x, 1), height: 1))
        }
        let alt =
            files[photoIndex].altText.map { StyledLine($0, style: style.text) }
            ?? StyledLine("none · t writes one", style: style.secondary)
        buffer.putTruncated(label + alt, in: Rect(x: rect.x + 1, y: y, width: rect.width - 2, height: 1))
        return nil
    }

    /// Draws the photos side by side (as many as fit, the chosen one in view), each its art and a
    /// label under it; returns the line after them.
    private func drawPreviews(into buffer: inout ScreenBuffer, in rect: Rect) -> Int {
        let style = context.style
        let width = Self.previewWidth
        let fitting = max(1, (rect.width + 2) / (width + 2))
        let first = min(max(photoIndex - fitting + 1, 0), max(files.count - fitting, 0))
        let shown = first..<min(first + fitting, files.count)
        let artLines = max(min(5, rect.height - 3), 1)
        for (column, index) in shown.enumerated() {
            let x = rect.x + column * (width + 2)
            let cell = Rect(x: x, y: rect.y, width: width, height: artLines)
            switch previews.state(of: files[index].path) {
            case .loading:
                buffer.putTruncated(StyledLine("decoding…", style: style.secondary), in: cell)
            case .failed(let error):
                for (offset, line) in TextLayout.wrap("✕ " + error.reason, width: width).prefix(artLines)
                    .enumerated()
                {
                    _ = buffer.put(
                        StyledLine(line, style: style.failure), x: x, y: rect.y + offset, clip: cell)
                }
            case .ready(let photo):
                let art = PostRenderer.art(
                    photo.pixels, width: width, maxLines: artLines, presentation: context.presentation)
                for (offset, line) in art.enumerated() {
                    _ = buffer.put(line, x: x, y: rect.y + offset, clip: cell)
                }
            }
            let chosen = focus != .text && index == photoIndex
            let name = (files[index].path as NSString).lastPathComponent
            let label = StyledLine(
                TextLayout.truncate("\(chosen ? "›" : " ")\(index + 1) \(name)", width: width),
                style: chosen ? style.accent : style.secondary)
            _ = buffer.put(label, x: x, y: rect.y + artLines, clip: rect)
        }
        var y = rect.y + artLines + 1
        if shown.count < files.count, y < rect.maxY {
            let hidden = files.count - shown.count
            buffer.putTruncated(
                StyledLine("\(hidden) more · ←/→ show them", style: style.secondary),
                in: Rect(x: rect.x, y: y, width: rect.width, height: 1))
            y += 1
        }
        return y
    }

    package func resize(width: Int, height: Int) {}
}
