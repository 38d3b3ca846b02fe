import TerminalUI
import Testing

/// Terminal replies read from the input: set aside, never keys.
@Suite struct TerminalReplyTests {
    private let kittyOK = "\u{1B}_Gi=31;OK\u{1B}\\"
    private let deviceAttributes = "\u{1B}[?62;22c"

    @Test func kittyReplyAndDeviceAttributes_areRepliesNotKeys() {
        var parser = KeyParser()
        let events = parser.parse(Array(("a" + kittyOK + deviceAttributes + "b").utf8))
        #expect(events == [.key(.character("a")), .key(.character("b"))])
        #expect(
            parser.takeReplies() == [.graphics(id: 31, message: "OK"), .primaryDeviceAttributes([62, 22])])
        #expect(parser.takeReplies() == [], "taken once")
    }

    @Test func graphicsError_keepsItsMessage_andBELEndsAnAPCToo() {
        var parser = KeyParser()
        #expect(parser.parse(Array("\u{1B}_Gi=5;ENOENT:no such image\u{07}".utf8)) == [])
        #expect(parser.takeReplies() == [.graphics(id: 5, message: "ENOENT:no such image")])
    }

    @Test func repliesSplitAtEveryByte_neverBecomeKeys() {
        let bytes = Array(("x" + kittyOK + deviceAttributes + "y").utf8)
        for split in 1..<bytes.count {
            // Two reads, the second within the escape timeout (as a terminal's one write arrives).
            var parser = KeyParser()
            var events = parser.parse(bytes[..<split])
            events += parser.parse(bytes[split...])
            #expect(!parser.isAwaitingMore)
            #expect(
                events == [.key(.character("x")), .key(.character("y"))], "split at \(split): \(events)")
            #expect(
                parser.takeReplies() == [
                    .graphics(id: 31, message: "OK"), .primaryDeviceAttributes([62, 22]),
                ],
                "split at \(split)")
        }
    }

    @Test func unfinishedKittyReply_waitsForItsEnd_insteadOfTimingOutIntoKeys() {
        var parser = KeyParser()
        #expect(parser.parse(Array("\u{1B}_Gi=31;O".utf8)) == [])
        #expect(!parser.isAwaitingMore, "no escape timeout mid-reply")
        #expect(parser.flush() == [])
        #expect(parser.parse(Array("K\u{1B}\\q".utf8)) == [.key(.character("q"))])
        #expect(parser.takeReplies() == [.graphics(id: 31, message: "OK")])
    }

    @Test func altUnderscore_isStillEscapeThenUnderscore() {
        var parser = KeyParser()
        #expect(parser.parse(Array("\u{1B}_".utf8)) == [])
        #expect(parser.isAwaitingMore)
        #expect(parser.flush() == [.key(.escape), .key(.character("_"))])
        #expect(
            parser.parse(Array("\u{1B}_x".utf8)) == [
                .key(.escape), .key(.character("_")), .key(.character("x")),
            ])
        #expect(parser.takeReplies() == [])
    }

    @Test func probe_kittyOKBeforeDeviceAttributes_meansKitty() {
        var probe = KittyGraphicsProbe(id: 31)
        #expect(probe.receive(.graphics(id: 7, message: "OK")) == nil, "another id is not ours")
        #expect(probe.receive(.graphics(id: 31, message: "OK")) == true)
        #expect(probe.receive(.primaryDeviceAttributes([62])) == true, "decided by what came first")
    }

    @Test func probe_deviceAttributesFirst_orAnError_meansNoKitty() {
        var deviceOnly = KittyGraphicsProbe(id: 31)
        #expect(deviceOnly.receive(.primaryDeviceAttributes([1, 2])) == false)
        #expect(deviceOnly.receive(.graphics(id: 31, message: "OK")) == false, "too late")
        var failed = KittyGraphicsProbe(id: 31)
        #expect(failed.receive(.graphics(id: 31, message: "EINVAL:bad")) == false)
    }

    @Test func answer_readsTheStream_andATimeoutMeansNoKitty() async {
        let (kitty, kittyFeed) = AsyncStream<TerminalReply>.makeStream()
        kittyFeed.yield(.graphics(id: 9, message: "OK"))
        kittyFeed.yield(.primaryDeviceAttributes([62]))
        #expect(await KittyGraphicsProbe.answer(in: kitty, id: 9, timeout: .seconds(30)) == true)

        let (plain, plainFeed) = AsyncStream<TerminalReply>.makeStream()
        plainFeed.yield(.primaryDeviceAttributes([62]))
        #expect(await KittyGraphicsProbe.answer(in: plain, id: 9, timeout: .seconds(30)) == false)

        let (silent, silentFeed) = AsyncStream<TerminalReply>.makeStream()
        #expect(await KittyGraphicsProbe.answer(in: silent, id: 9, timeout: .milliseconds(20)) == false)
        silentFeed.finish()
    }
}
