import AllApps
import Composition
import Features
import Foundation
import MediaModel
import Sockets
import Testing

/// One app as it ships (its real definition and embedded manifest), with what that app does
/// differently, read from the app's own composed registry: the cross-app suite runs every
/// scenario against each app in the package, and knows an app only through its providers.
///
/// Nothing here is kept per app. A new app (`swift run new-app`) is in ``all`` as soon as
/// Package.swift lists it, and every trait below is what its composer policy, reply model, feed
/// policy, post layout and branding say.
package struct ShippedApp: Sendable, CustomTestStringConvertible {
    /// The app's definition, exactly as its executable launches it.
    package let definition: AppDefinition
    /// The app's composed contracts, or nil when it does not compose (``compositionProblem``).
    package let registry: SocketRegistry?
    /// Why the app does not compose, if it does not; every scenario for it then fails with this.
    package let compositionProblem: String?

    /// The app as it ships.
    package init(_ definition: AppDefinition) {
        self.definition = definition
        do {
            registry = try AppHost.compose(definition).registry
            compositionProblem = nil
        } catch {
            registry = nil
            compositionProblem = "\(definition.id) does not compose: \(error)"
        }
    }

    /// The app's id.
    package var id: String { definition.id }
    package var testDescription: String { definition.id }

    /// Every app in the package, in Package.swift's order.
    package static let all = AllApps.definitions.map(ShippedApp.init)

    /// Every app with direct messages (its `direct` socket filled, its tabs showing the inbox).
    package static var withDirect: [ShippedApp] { all.filter { $0.hasTab(.direct) } }

    /// Every app without direct messages.
    package static var withoutDirect: [ShippedApp] { all.filter { $0.registry?[.direct] == nil } }

    /// The first app with a Home feed whose registry satisfies `trait`, for a scenario that needs
    /// an app of a kind (one whose feed takes photos, one that threads replies); nil when no app
    /// in the package does.
    package static func first(where trait: (ShippedApp) -> Bool) -> ShippedApp? {
        withHome.first(where: trait)
    }

    /// Every app whose tab bar shows a Home feed: the scenarios of the feed, of posts and of
    /// changes made on them run against these (an app whose first tab is an inbox has none).
    package static var withHome: [ShippedApp] { all.filter { $0.hasTab(.home) } }

    /// Every app with an Activity tab.
    package static var withActivity: [ShippedApp] { all.filter { $0.hasTab(.activity) } }

    /// Every app with a composer's tab (new posts, `n`).
    package static var withComposer: [ShippedApp] { all.filter { $0.hasTab(.compose) } }

    // MARK: - What the app's providers say

    /// The app's composer policy (the standard one's values when it does not compose).
    package var composer: (any ComposerPolicy)? { registry?[.composerPolicy] }
    /// The app's reply model.
    package var replies: (any ReplyModel)? { registry?[.replyModel] }
    /// The app's feed policy.
    package var feed: (any FeedPolicy)? { registry?[.feedPolicy] }
    /// The app's post layout.
    package var layout: (any PostLayout)? { registry?[.postLayout] }

    /// The app's tabs as its tab bar shows them, first to last.
    package var tabs: [Tab] { registry.map { AppContext.tabs(in: $0) } ?? [] }

    /// Whether the app has a tab showing `destination`.
    package func hasTab(_ destination: TabDestination) -> Bool {
        tabs.contains { $0.destination == destination }
    }

    /// The key that opens the app's tab showing `destination` ("5" for Sync in an app of five
    /// tabs, "6" in one of six), read from its `tabs` socket; "0", which opens nothing, when it
    /// has no such tab (the scenario then fails on what it expected to see).
    package func tabKey(_ destination: TabDestination) -> Character {
        tabs.firstIndex { $0.destination == destination }.map { Character("\($0 + 1)") } ?? "0"
    }

    /// The key of the Sync tab (the viewer's pending and failed changes).
    package var syncKey: Character { tabKey(.mutations) }
    /// How a conversation marks the viewer's own messages in this app ("you"), from its `direct`
    /// provider.
    package var ownMark: String { registry?[.direct]?.ownMark ?? "you" }

    /// The key of the inbox's tab (direct messages).
    package var inboxKey: Character { tabKey(.direct) }

    /// Whether replies are comments (text only, no photo picker) rather than threaded posts.
    package var repliesAreComments: Bool { replies?.style == .comments }
    /// The title of a post's replies screen.
    package var threadTitle: String { repliesAreComments ? "Comments" : "Thread" }
    /// The reply composer's title: the reply model's noun, capitalized.
    package var replyTitle: String { Self.capitalized(replies?.noun ?? "reply") }
    /// Whether the home feed shows text-only posts.
    package var showsTextPosts: Bool { feed?.shows(.text) ?? true }
    /// Whether a reply in the home feed is shown under its parent.
    package var showsReplyParent: Bool { feed?.showsReplyParent ?? false }
    /// Whether a new post needs a photo.
    package var requiresPhoto: Bool { composer?.media == .required }
    /// Whether a new post can carry photos at all.
    package var takesPhotos: Bool { composer.map { $0.media != .forbidden } ?? true }
    /// The longest text a post may have.
    package var textLimit: Int { composer?.textLimit ?? 0 }
    /// What the composer says when a post has text and no photo, if that is refused.
    package var missingPhotoMessage: String? {
        guard requiresPhoto, case .rejected(let reason)? = composer?.check(text: "words", attachmentCount: 0)
        else { return nil }
        return "✕ " + reason
    }
    /// The title bar's start: the branding's glyph and name.
    package var titlePrefix: String {
        guard let branding = registry?[.branding] else { return id }
        return branding.logoGlyph + " " + branding.appName
    }
    /// How the viewer's own reply "Nice one" is drawn in the thread: a comment is the author's
    /// handle and its text on one line; a threaded reply is a post under a threadline, its header
    /// first.
    package var ownReplyLine: String {
        repliesAreComments ? "ada Nice one" : "┃ A Ada Abbott @ada · now"
    }

    private static func capitalized(_ word: String) -> String {
        word.prefix(1).uppercased() + word.dropFirst()
    }
}
