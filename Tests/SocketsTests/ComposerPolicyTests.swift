import Sockets
import Testing

@Suite struct ComposerPolicyTests {
    struct PhotoRules: ComposerPolicy {
        let media = MediaRequirement.required
        let textLimit = 20
        let textRequired = false
        let noun = "photo"
    }

    struct TextRules: ComposerPolicy {
        let media = MediaRequirement.optional
        let textLimit = 10
        let textRequired = true
        let noun = "post"
    }

    @Test func mediaRequired_rejectsADraftWithoutAPhoto() {
        #expect(
            PhotoRules().check(text: "caption", attachmentCount: 0)
                == .rejected("add a photo first: press tab to pick one"))
        #expect(PhotoRules().check(text: "", attachmentCount: 1) == .ready)
    }

    @Test func textRequired_rejectsBlankText() {
        #expect(TextRules().check(text: "   ", attachmentCount: 1) == .rejected("a post needs text"))
    }

    @Test func textOverTheLimit_saysByHowMuch() {
        #expect(
            TextRules().check(text: "twelve chars", attachmentCount: 0)
                == .rejected("text is 2 characters over the limit of 10"))
        #expect(TextRules().check(text: "ten chars!", attachmentCount: 0) == .ready)
    }

    @Test func limitCountsCharactersNotBytes() {
        #expect(TextRules().check(text: "héllo wörl", attachmentCount: 0) == .ready)
    }
}
