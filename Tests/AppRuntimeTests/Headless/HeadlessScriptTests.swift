import AppRuntime
import Composition
import Features
import Testing

@Suite struct HeadlessScriptTests {
    @Test func everyCommand_parses() throws {
        let script = try HeadlessScript.parse(
            """
            # a comment
            key l
            key enter
            key space
            type hello world
            wait

            frame
            expect ♥ 13
            expect-not pending
            network offline
            advance 2.5
            event memory-warning
            push {"kind": "like"}
            restart
            resize 100 30
            """, name: "t.script")
        #expect(
            script.steps.map(\.command) == [
                .key(.character("l")), .key(.enter), .key(.character(" ")), .type("hello world"), .wait,
                .frame,
                .expect("♥ 13"), .expectNot("pending"), .network("offline"), .advance(seconds: 2.5),
                .event(.memoryWarning), .push("{\"kind\": \"like\"}"), .restart,
                .resize(width: 100, height: 30),
            ])
        #expect(script.steps.map(\.line) == [2, 3, 4, 5, 6, 8, 9, 10, 11, 12, 13, 14, 15, 16])
    }

    @Test func unknownCommand_namesTheLineAndSuggests() {
        #expect(
            throws: HeadlessScriptError(
                script: "t.script", line: 2, message: "unknown command 'fram'; did you mean 'frame'?")
        ) {
            try HeadlessScript.parse("wait\nfram\n", name: "t.script")
        }
    }

    @Test func badArguments_areErrorsNamingTheLine() {
        let cases: [(String, String)] = [
            (
                "key",
                "'key' needs a key name (up, down, left, right, enter, esc, tab, backspace, space, or one character)"
            ),
            (
                "key pageup",
                "unknown key 'pageup'; use one of up, down, left, right, enter, esc, tab, backspace, space, or a single character"
            ),
            (
                "network lunar",
                "unknown network profile 'lunar'; use one of perfect, slow, flaky, lossy, offline"
            ),
            ("advance soon", "'advance' needs a number of seconds, found 'soon'"),
            ("event resume", "unknown event 'resume'; use one of foreground, background, memory-warning"),
            ("wait 3", "'wait' takes no argument, found '3'"),
            ("resize 10 10", "'resize' needs a width (20-400) and a height (5-200), found '10 10'"),
        ]
        for (line, message) in cases {
            #expect(throws: HeadlessScriptError(script: "s", line: 1, message: message)) {
                try HeadlessScript.parse(line, name: "s")
            }
        }
    }

    @Test func trailingWhitespace_isIgnoredByEveryCommand() throws {
        // Given lines that end in spaces and tabs (as editors leave them)
        let script = try HeadlessScript.parse(
            "key j  \nkey enter\t\nnetwork offline \nadvance 2 \nexpect ♥ 2  \nwait \t\n", name: "t.script")

        // Then each reads as if the whitespace were not there
        #expect(
            script.steps.map(\.command) == [
                .key(.character("j")), .key(.enter), .network("offline"), .advance(seconds: 2),
                .expect("♥ 2"),
                .wait,
            ])
    }

    @Test func windowsLineEndings_separateLinesAsNewlinesDo() throws {
        let script = try HeadlessScript.parse("wait\r\nkey j \r\n\r\nframe\r\n", name: "t.script")

        #expect(script.steps.map(\.command) == [.wait, .key(.character("j")), .frame])
        #expect(script.steps.map(\.line) == [1, 2, 4])
    }

    @Test func unknownKeyName_isAnErrorThatSuggestsTheClosestName() {
        #expect(
            throws: HeadlessScriptError(
                script: "s", line: 2, message: "unknown key 'entr'; did you mean 'enter'?")
        ) {
            try HeadlessScript.parse("wait\nkey entr  \n", name: "s")
        }
    }

    @Test func pushWithAMalformedOrUnknownPayload_isAnErrorSayingWhatIsWrong() {
        let cases: [(String, String)] = [
            (
                "push {bad json",
                #"invalid push payload '{bad json': not valid JSON; write an object such as {"kind": "like", "from": "grace"}"#
            ),
            (
                #"push {"kind":"nope"}"#,
                #"invalid push payload '{"kind":"nope"}': unknown kind 'nope'; use one of reply, like, follow, mention"#
            ),
            (
                #"push {"kind": "lik"}"#,
                #"invalid push payload '{"kind": "lik"}': unknown kind 'lik'; did you mean 'like'?"#
            ),
            (
                #"push {"from": "grace"}"#,
                #"invalid push payload '{"from": "grace"}': it needs a "kind" (reply, like, follow, mention) or a "message""#
            ),
            (
                #"push {"kind": "like", "form": "grace"}"#,
                #"invalid push payload '{"kind": "like", "form": "grace"}': unknown field 'form'; did you mean 'from'?"#
            ),
            (
                #"push {"kind": "like", "from": 7}"#,
                #"invalid push payload '{"kind": "like", "from": 7}': "from" must be text, found 7"#
            ),
            (
                #"push ["like"]"#,
                #"invalid push payload '["like"]': expected an object such as {"kind": "like", "from": "grace"}"#
            ),
        ]
        for (line, message) in cases {
            #expect(throws: HeadlessScriptError(script: "s", line: 1, message: message)) {
                try HeadlessScript.parse(line, name: "s")
            }
        }
    }

    @Test func pushWithEachDocumentedPayload_parses() throws {
        let payloads = [
            #"{"kind": "reply", "from": "grace", "text": "agreed"}"#, #"{"kind": "like", "from": "grace"}"#,
            #"{"kind": "follow"}"#, #"{"kind": "mention", "text": "hi"}"#, #"{"message": "Backup done"}"#,
        ]
        let script = try HeadlessScript.parse(
            payloads.map { "push " + $0 }.joined(separator: "\n"), name: "s")
        #expect(script.steps.map(\.command) == payloads.map(HeadlessCommand.push))
    }

    @Test func errorDescription_readsLikeACompilerDiagnostic() {
        #expect(
            HeadlessScriptError(script: "a.script", line: 4, message: "bad").description
                == "a.script:4: error: bad")
    }
}
