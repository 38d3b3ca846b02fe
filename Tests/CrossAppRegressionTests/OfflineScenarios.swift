import AppTesting
import Foundation
import Testing

/// A person who loses the network and gets it back: what they did offline shows at once, the
/// title bar says offline, the Sync tab says what is waiting and why; back online everything is
/// sent once, the marker goes, and the other app on the same backend sees it all.
@Suite @MainActor struct OfflineScenarios {
    @Test(arguments: ShippedApp.withHome)
    func likeAndPostOffline_thenBackOnline_everythingIsSentOnce_andTheOtherAppSeesIt(app: ShippedApp)
        async throws
    {
        // Given the app online, its feed loaded
        let directories = try TestDirectories.make()
        let text = "Harbor at dusk, written offline in \(app.id)"
        let run = await HeadlessHarness.run(
            app.definition,
            script: """
                wait
                frame
                network offline
                key l
                key n
                type \(text)
                attach \(try TestPhotos.sample())
                key enter
                wait
                frame
                key \(app.syncKey)
                frame
                network perfect
                wait
                frame
                key 1
                wait
                frame

                """,
            directories: directories, height: 80)
        #expect(run.status == 0, "\(run.errors)")
        let frames = run.frames
        try #require(frames.count == 5)
        let (online, offlineHome, offlineSync, backSync, backHome) = (
            frames[0], frames[1], frames[2], frames[3], frames[4]
        )
        let before = feedEntries(online)
        let liked = try #require(before.first, "the first post, to like")
        let neighbour = try #require(before.dropFirst().first, "the post under it")
        let likedBefore = try #require(counts(in: liked))
        #expect(!likedBefore.liked)
        let viewer = try #require(lines(online)[0].split(separator: " ").last)
        #expect(!lines(online)[0].contains("offline"))

        // When offline it likes the first post and writes a post: the title bar says offline,
        // the new post waits at the top, the like shows at once on the post under it, and the
        // post that was second comes next, unchanged
        #expect(lines(offlineHome)[0].hasSuffix(" offline \(viewer)"), "title bar: \(lines(offlineHome)[0])")
        let pending = feedEntries(offlineHome)
        #expect(pending.count >= 3)
        #expect(pending.filter { $0.joined(separator: " ").contains(text) }.count == 1, "the post shows once")
        #expect(pending[0].joined(separator: " ").contains(text))
        #expect(pending[0][0].hasSuffix("@\(viewer.dropFirst()) · now · sending…"), "\(pending[0][0])")
        Self.expectLiked(pending[1], was: liked, counts: likedBefore)
        #expect(pending[2] == neighbour, "the neighbour is unchanged")

        // And the Sync tab lists both changes as waiting, each with the reason in plain words
        #expect(lines(offlineSync)[0].hasSuffix(" offline \(viewer)"))
        #expect(offlineSync.contains("Changes: 2 pending, 0 failed"))
        let waiting = lines(offlineSync).filter { $0.contains(" waiting ") }
        #expect(waiting.count == 2, "\(offlineSync)")
        #expect(waiting.contains { $0.contains("like · @") }, "\(offlineSync)")
        #expect(waiting.contains { $0.contains("post · \"Harbor at dusk") }, "\(offlineSync)")
        #expect(
            lines(offlineSync).filter { $0.contains("no connection: it is sent when the network is back") }
                .count
                == 2)
        #expect(!offlineSync.contains("/v1/") && !offlineSync.contains("HTTP"), "no HTTP internals")

        // When the network is back: the marker goes, and both changes are confirmed
        #expect(!lines(backSync)[0].contains("offline"), "title bar: \(lines(backSync)[0])")
        #expect(backSync.contains("Changes: 0 pending, 0 failed"))
        #expect(backSync.contains("everything is sent"))
        let confirmed = lines(backSync).filter { $0.contains(" confirmed ") }
        #expect(confirmed.count == 2 && confirmed.contains { $0.contains(" post ") })
        #expect(confirmed.contains { $0.contains(" like ") })

        // And Home shows the new post once, at the top, no longer sending; the liked post under it
        // one like higher than the server had; then the same neighbour
        #expect(!lines(backHome)[0].contains("offline"))
        let sent = feedEntries(backHome)
        #expect(sent.count >= 3)
        #expect(sent.filter { $0.joined(separator: " ").contains(text) }.count == 1, "the post shows once")
        #expect(sent[0].joined(separator: " ").contains(text))
        #expect(sent[0][0].hasSuffix("@\(viewer.dropFirst()) · now"), "\(sent[0][0])")
        Self.expectLiked(sent[1], was: liked, counts: likedBefore)
        #expect(sent[2] == neighbour, "the neighbour is unchanged")

        // And the other app, on the same backend, sees the post at the top and the like
        let other = try #require(ShippedApp.withHome.first { $0.id != app.id })
        let seen = feedEntries(
            await HeadlessHarness.run(
                other.definition, script: "wait\nframe\n", directories: directories.sibling(), height: 80
            ).lastFrame)
        #expect(seen.count >= 2)
        #expect(
            seen.filter { $0.joined(separator: " ").contains(text) }.count == 1, "\(other.id) shows it once")
        #expect(seen.first?.joined(separator: " ").contains(text) == true, "\(other.id) shows it at the top")
        #expect(
            seen.dropFirst().first.flatMap(counts)
                == Counts(
                    liked: true, likes: likedBefore.likes + 1, replies: likedBefore.replies,
                    reposts: likedBefore.reposts), "\(other.id) shows the like")
    }

    /// Expects `entry` to be `was` with the like added: every line the same but the counts, which
    /// are liked and one higher.
    static func expectLiked(
        _ entry: [String], was: [String], counts before: Counts,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(
            counts(in: entry)
                == Counts(
                    liked: true, likes: before.likes + 1, replies: before.replies, reposts: before.reposts),
            sourceLocation: sourceLocation)
        #expect(
            entry.filter { counts(in: [$0]) == nil } == was.filter { counts(in: [$0]) == nil },
            "the same post, only its counts changed", sourceLocation: sourceLocation)
    }
}

/// The feed's entries as drawn in `frame`: the lines between the title rule and the status line,
/// without the selection column, split at blank lines (an entry's lines include its repost line
/// and its reply's parent). The last entry may be cut off by the status line.
func feedEntries(_ frame: String) -> [[String]] {
    let rows = lines(frame)
    guard rows.count > 4 else { return [] }
    var entries: [[String]] = [[]]
    for row in rows[2..<(rows.count - 2)] {
        let line = String(row.dropFirst())
        if line.allSatisfy({ $0 == " " }) {
            if !(entries.last?.isEmpty ?? true) { entries.append([]) }
        } else {
            entries[entries.count - 1].append(line)
        }
    }
    return entries.filter { !$0.isEmpty }
}

/// The counts line of an entry (`♥ 2   ↩ 0   ↻ 1`), if it shows one.
func counts(in entry: [String]) -> Counts? {
    for line in entry where line.hasPrefix("♥") || line.hasPrefix("♡") {
        if let counts = selectedCounts("▌" + line) { return counts }
    }
    return nil
}
