import Composition
import MediaModel
import Sockets
import Testing

@Suite struct StandardSocketsTests {
    @Test func catalog_listsEverySocketOnceWithItsRequirement() {
        let sockets = StandardSockets.catalog.sockets
        #expect(
            sockets.map(\.id) == [
                "branding", "feedPolicy", "postLayout", "composerPolicy", "replyModel", "tabs", "theme",
                "onboarding", "direct",
            ])
        #expect(
            sockets.filter { $0.requirement == .optional }.map(\.id) == ["theme", "onboarding", "direct"])
        #expect(Set(sockets.map(\.id)).count == sockets.count)
    }

    @Test func optionalSockets_haveDefaultsAnEmptyRegistryServes() {
        let registry = SocketRegistry()
        #expect(registry[.theme].failure == StandardTheme().failure)
        #expect(registry[.onboarding].choices(existingAccounts: []) == [.createAccount])
        // Direct messages are empty unless an app binds them: no inbox, no tab, no share key.
        #expect(registry[.direct] == nil)
        #expect(
            registry[.onboarding].choices(existingAccounts: [
                OnboardingAccount(handle: "a", displayName: "A", followingCount: 1)
            ])
                == [.createAccount])
    }

    @Test func feedPolicyShows_knownKindsByListAndUnknownByFlag() {
        struct Photos: FeedPolicy {
            let shownKinds: Set<MediaKind> = [.photo]
            let showsUnknownKinds = false
            let pageSize = 10
            let showsReplyParent = false
        }
        #expect(Photos().shows(.photo))
        #expect(!Photos().shows(.text))
        #expect(!Photos().shows(.unknown("poll")))
    }

    @Test func rgbColor_readsAndPrintsHex() {
        let color = RGBColor(hex: 0x3DDC97)
        #expect(color == RGBColor(red: 0x3D, green: 0xDC, blue: 0x97))
        #expect(color.description == "#3ddc97")
    }

    @Test func replyModel_takesPhotosInRepliesOnlyForThreadedPosts() {
        struct Comments: ReplyModel {
            let style = ReplyStyle.comments
            let noun = "comment"
        }
        struct Threads: ReplyModel {
            let style = ReplyStyle.threadedPosts
            let noun = "reply"
        }
        #expect(!Comments().repliesTakePhotos)
        #expect(Threads().repliesTakePhotos)
    }
}
