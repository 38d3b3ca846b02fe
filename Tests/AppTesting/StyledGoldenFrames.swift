import AppRuntime
import Features
import Foundation
import TerminalUI
import TerminalUITesting
import Testing

/// Styled golden frames: a frame's plain text followed by its colors and attributes, in the
/// notation of `StyledFrameText`, with colors named by the role the app's branding and theme
/// give them (`accent`, `text`, `secondary`, `separator`, `pending`, `failure`, `like`, and the
/// lists' `selection` background).
///
/// A theme or accent bound to the wrong provider leaves the plain golden as it was but changes
/// the `colors:` line (and every run in a color no role has any more), so it fails here. They are
/// re-recorded like plain goldens, with `LOOM_RECORD_GOLDEN=1`.
package enum StyledGoldenFrames {
    /// The color roles of `style`, in the order the legend prefers when two share a value, and
    /// the lists' selection background (`selection`, TerminalUI's, the same in every app).
    @MainActor
    package static func roles(of style: AppStyle) -> [(role: String, color: RGBColor)] {
        let roles: [(String, Style)] = [
            ("accent", style.accent), ("text", style.text), ("secondary", style.secondary),
            ("separator", style.separator), ("pending", style.pending), ("failure", style.failure),
            ("like", style.like), ("selection", TerminalListView(width: 1, height: 1).selectionStyle.flipped),
        ]
        return roles.compactMap { role, style in style.foreground.map { (role, $0) } }
    }

    /// The session's current frame in the styled notation, colors named by its app's roles.
    @MainActor
    package static func text(of session: AppSession) -> String {
        let buffer = session.render().buffer
        guard let style = session.shell?.context.style else { return StyledFrameText.render(buffer) }
        return StyledFrameText.render(buffer, names: roles(of: style))
    }

    /// Compares the session's styled frame with the golden `styled/<name>` of `app`.
    @MainActor
    package static func check(
        _ session: AppSession, app: String, name: String, directory: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        GoldenFrames.check(
            text(of: session), app: app, name: "styled/\(name)", directory: directory, explain: explain,
            sourceLocation: sourceLocation)
    }

    /// Says whether only the style section differs: the plain golden would have passed.
    package static func explain(golden: String, actual: String) -> String? {
        func plain(_ text: String) -> Substring {
            guard let range = text.range(of: "\n" + StyledFrameText.separator + "\n") else {
                return Substring(text)
            }
            return text[..<range.lowerBound]
        }
        guard plain(golden) == plain(actual) else { return nil }
        return "the text is the same; only colors or attributes differ (see 'colors:' and the rows below)"
    }
}

extension Style {
    /// This style's background as its foreground (to name a background color like the others).
    fileprivate var flipped: Style { Style(foreground: background) }
}
