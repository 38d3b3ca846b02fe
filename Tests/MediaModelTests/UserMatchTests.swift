import MediaModel
import Testing

/// The one rule for finding an account by what a person typed.
@Suite struct UserMatchTests {
    struct Account {
        var handle: String
        var name: String
    }

    static let accounts = [
        Account(handle: "reef_lee", name: "Kai Reef"), Account(handle: "kathleen", name: "Kathleen Ito"),
        Account(handle: "karen", name: "Karen Abbott"), Account(handle: "ivan", name: "Ivan Kowalski"),
        Account(handle: "zoe_a", name: "Zoë Ångström"), Account(handle: "mika", name: "Mika Häkkinen"),
    ]

    static func ranked(_ typed: String) -> [String] {
        UserMatch.ranked(typed, accounts, handle: \.handle, displayName: \.name).map(\.handle)
    }

    @Test func handlesThatStartWithTheText_comeFirst_thenNamesWithAWordThatDoes_eachByHandle() {
        #expect(Self.ranked("ka") == ["karen", "kathleen", "reef_lee"])
        #expect(
            Self.ranked("@KA") == ["karen", "kathleen", "reef_lee"], "case and a leading @ do not matter")
        #expect(Self.ranked("ko") == ["ivan"], "a later word of the name")
    }

    @Test func textInsideAWord_isNoMatch() {
        #expect(Self.ranked("ee").isEmpty, "neither handle nor a name word starts with it")
        #expect(Self.ranked("aren").isEmpty)
    }

    @Test func textWithSpacesOrUnicode_matchesNames() {
        #expect(Self.ranked("kai re") == ["reef_lee"])
        #expect(Self.ranked("ÅNG") == ["zoe_a"])
        #expect(Self.ranked("häk") == ["mika"])
        #expect(Self.ranked("   ").isEmpty, "nothing typed matches nothing")
    }

    @Test func query_isLoweredTrimmedAndWithoutALeadingAt() {
        #expect(UserMatch.query("  @Ada ") == "ada")
        #expect(UserMatch.query("@@x") == "@x", "only one @ is left out")
        #expect(UserMatch("ada", handle: "ada", displayName: "Ada Abbott") == .handle)
        #expect(UserMatch("abb", handle: "ada", displayName: "Ada Abbott") == .name)
        #expect(UserMatch.handle < UserMatch.name)
    }
}
