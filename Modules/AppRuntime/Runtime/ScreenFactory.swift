import DirectMessages
import Features
import Sockets
import TerminalUI

/// Makes the first screen of each tab destination.
@MainActor
enum ScreenFactory {
    static func make(_ destination: TabDestination, context: AppContext, width: Int, height: Int)
        -> any AppScreen
    {
        switch destination {
        case .home:
            if let cache = context.feedCache {
                FeedScreen(context: context, cache: cache, width: width, height: height)
            } else {
                // Not reached: a launch whose tabs show Home without `feed.cache` fails first.
                MissingFeatureScreen(
                    title: "Home", reason: "this app's manifest enables no feed ('feed.cache')")
            }
        case .activity: ActivityScreen(context: context, width: width, height: height)
        case .compose: ComposerScreen(context: context, replyingTo: nil)
        case .profile: ProfileScreen(context: context, userID: nil, width: width, height: height)
        case .mutations: MutationsScreen(context: context, width: width, height: height)
        case .direct:
            if let inbox = DirectInbox.attach(to: context) {
                InboxScreen(inbox: inbox, width: width, height: height)
            } else {
                // Not reached: the tab bar leaves the inbox out of an app without `direct`.
                MissingFeatureScreen(title: "Messages", reason: "this app binds no 'direct' provider")
            }
        }
    }
}

/// A tab whose feature the app does not have: says so, rather than crash. A launch checks the
/// tabs against the manifest first (`AppContext`), so this is a last guard.
@MainActor
final class MissingFeatureScreen: AppScreen {
    let title: String
    private let reason: String

    init(title: String, reason: String) {
        self.title = title
        self.reason = reason
    }

    var keyBindings: [KeyBinding] { [] }

    func appear() {}

    func handle(_ key: Key) -> Bool { false }

    func draw(into buffer: inout ScreenBuffer, in rect: Rect) -> Point? {
        buffer.put("✕ " + reason, x: rect.x + 2, y: rect.y + 1, clip: rect)
        return nil
    }

    func resize(width: Int, height: Int) {}
}
