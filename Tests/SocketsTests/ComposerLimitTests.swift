import Sockets
import Testing

/// The composer's policy keeps the server's shared limits (MediaModel's `PostLimits`) whatever
/// an app's provider says: text bytes, combining marks a character, photos in a carousel.
@Suite struct ComposerLimitTests {
    /// A policy as generous as an app could write: more characters and photos than the server takes.
    struct Generous: ComposerPolicy {
        let media = MediaRequirement.optional
        let textLimit = 100_000
        let textRequired = false
        let noun = "post"
        let carouselLimit = 50
    }

    /// A family emoji: one character of 25 bytes.
    static let family = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}\u{200D}\u{1F466}"

    static func text(bytes: Int) -> String {
        String(repeating: family, count: bytes / 25) + String(repeating: "a", count: bytes % 25)
    }

    @Test func textBytes_atTheSharedLimitIsReady_overItIsRejected() {
        #expect(Generous().check(text: Self.text(bytes: 16_383), attachmentCount: 0) == .ready)
        #expect(Generous().check(text: Self.text(bytes: 16_384), attachmentCount: 0) == .ready)
        #expect(
            Generous().check(text: Self.text(bytes: 16_385), attachmentCount: 0)
                == .rejected("text: 16385 bytes (UTF-8) is over the limit of 16384"))
    }

    @Test func oneCharacterOfAMillionMarks_isRejectedForItsBytes_inARepliesCheckToo() {
        let text = "a" + String(repeating: "\u{0301}", count: 1_000_000)

        #expect(
            Generous().checkLength(of: text)
                == .rejected("text: 2000001 bytes (UTF-8) is over the limit of 16384"))
    }

    @Test func combiningMarks_eightOnACharacterAreReady_nineAreRejected() {
        let marks = { (count: Int) in "a" + String(repeating: "\u{0301}", count: count) }
        #expect(Generous().check(text: marks(7), attachmentCount: 0) == .ready)
        #expect(Generous().check(text: marks(8), attachmentCount: 0) == .ready)
        #expect(
            Generous().check(text: "hi " + marks(9), attachmentCount: 0)
                == .rejected(
                    "text: character 4 of the text carries 9 combining marks, over the limit of 8 per character"
                ))
    }

    @Test func photos_tenAreReady_elevenAreRejected_evenWhenThePolicyAllowsFifty() {
        #expect(Generous().check(text: "", attachmentCount: 9) == .ready)
        #expect(Generous().check(text: "", attachmentCount: 10) == .ready)
        #expect(
            Generous().check(text: "", attachmentCount: 11)
                == .rejected("a carousel holds at most 10 photos; remove 1"))
        #expect(
            Generous().check(text: "", attachmentCount: 13)
                == .rejected("a carousel holds at most 10 photos; remove 3"))
    }

    @Test func aPolicyWithoutItsOwnCarouselLimit_takesTheShared() {
        struct Plain: ComposerPolicy {
            let media = MediaRequirement.optional
            let textLimit = 10
            let textRequired = false
            let noun = "post"
        }
        #expect(Plain().carouselLimit == 10)
    }
}
