import Features
import Sockets

/// Makes the first screen of each tab destination.
@MainActor
enum ScreenFactory {
    static func make(_ destination: TabDestination, context: AppContext, width: Int, height: Int)
        -> any AppScreen
    {
        switch destination {
        case .home: FeedScreen(context: context, width: width, height: height)
        case .activity: ActivityScreen(context: context, width: width, height: height)
        case .compose: ComposerScreen(context: context, replyingTo: nil)
        case .profile: ProfileScreen(context: context, userID: nil, width: width, height: height)
        case .mutations: MutationsScreen(context: context, width: width, height: height)
        }
    }
}
