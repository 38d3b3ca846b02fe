import Sockets
import Testing

@Suite struct ReplyModelTests {
    struct Comments: ReplyModel {
        let style = ReplyStyle.comments
        let noun = "comment"
    }

    struct Threaded: ReplyModel {
        let style = ReplyStyle.threadedPosts
        let noun = "reply"
    }

    @Test func aComment_needsTextButNoPhoto_evenWhenPostsNeedOne() {
        let policy = ComposerPolicyTests.PhotoRules()
        #expect(Comments().check(reply: "Lovely light", attachmentCount: 0, policy: policy) == .ready)
        #expect(
            Comments().check(reply: "  ", attachmentCount: 0, policy: policy)
                == .rejected("a comment needs text"))
        #expect(
            Comments().check(reply: "Lovely", attachmentCount: 1, policy: policy)
                == .rejected("a comment is text only: remove the photo"))
        #expect(!Comments().repliesTakePhotos)
    }

    @Test func aComment_keepsTheComposersTextLimit() {
        let policy = ComposerPolicyTests.PhotoRules()
        #expect(
            Comments().check(reply: String(repeating: "x", count: 21), attachmentCount: 0, policy: policy)
                == .rejected("text is 1 character over the limit of 20"))
    }

    @Test func aThreadedReply_followsTheComposerPolicyLikeAnyPost() {
        let policy = ComposerPolicyTests.TextRules()
        #expect(Threaded().repliesTakePhotos)
        #expect(
            Threaded().check(reply: "   ", attachmentCount: 1, policy: policy)
                == .rejected("a post needs text"))
        #expect(
            Threaded().check(reply: "eleven char", attachmentCount: 0, policy: policy)
                == policy.check(text: "eleven char", attachmentCount: 0))
        #expect(Threaded().check(reply: "short", attachmentCount: 1, policy: policy) == .ready)
    }
}
