import MediaModel

/// The composer's previews of picked photo files: each file decoded once, off the UI actor, to
/// the small rendition a post carries, and kept until the file is picked again.
///
/// `state(of:)` answers at once: a preview still being decoded is `.loading` (the composer
/// draws a placeholder) and the screen is asked to redraw when it is ready. The decode is tracked
/// work, so a headless `wait` waits for it.
@MainActor
package final class PhotoPreviews {
    /// Where a file's preview stands.
    package enum State: Sendable, Equatable {
        /// Being decoded.
        case loading
        /// Decoded: the rendition and the photo's size.
        case ready(Attachment.Photo)
        /// The file could not be read or decoded.
        case failed(PhotoFileError)
    }

    private var states: [String: State] = [:]
    private let tracker: WorkTracker
    private let changed: @MainActor () -> Void
    /// What transparent parts are drawn over: the theme's background.
    private let background: PixelImage.Color

    /// Makes an empty cache; `changed` is called when a preview finished decoding.
    package init(
        tracker: WorkTracker, background: PixelImage.Color, changed: @escaping @MainActor () -> Void
    ) {
        self.tracker = tracker
        self.background = background
        self.changed = changed
    }

    /// The preview of the file at `path`, starting its decode if it has none.
    package func state(of path: String) -> State {
        if let state = states[path] { return state }
        states[path] = .loading
        let background = background
        tracker.run { [weak self] in
            let result = await Task.detached(priority: .userInitiated) {
                Result { () throws(PhotoFileError) in
                    try PhotoFile.inlinePhoto(PickedPhoto(path: path), background: background)
                }
            }.value
            guard let self, self.states[path] == .loading else { return }
            switch result {
            case .success(let photo): self.states[path] = .ready(photo)
            case .failure(let error): self.states[path] = .failed(error)
            }
            self.changed()
        }
        return .loading
    }

    /// The preview of `path`, decoded now on the caller's thread if it is not decoded yet (the
    /// composer checks every photo this way before posting).
    package func decodedNow(_ path: String) -> State {
        if let state = states[path], state != .loading { return state }
        let state: State
        do {
            state = .ready(try PhotoFile.inlinePhoto(PickedPhoto(path: path), background: background))
        } catch {
            state = .failed(error)
        }
        states[path] = state
        return state
    }

    /// Forgets the preview of `path` (the file was picked again: it may have changed).
    package func forget(_ path: String) {
        states[path] = nil
    }
}
