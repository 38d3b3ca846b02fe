import AppRuntime
@_spi(Testing) import Backend
import Composition
import Features
import Foundation
import Imaging
import TerminalUI
import Wire

/// `photo-feed`: scrolling a feed of 500 stored photos in the photo-first app, headless at 80x24, one post a
/// key press: frame times with a cold art cache (the art loads off the UI path while the frames
/// go on) and a warm one, beside the same scroll over 500 text posts in the text-first app; and the process's
/// peak RSS while scrolling, beside the text feed's.
enum PhotoFeedSuite {
    static let posts = 500

    static let suite = BenchSuite(
        name: "photo-feed",
        summary: "scroll 500 stored photos: cold and warm art cache frame times, decodes off the UI, peak RSS"
    ) { runner in
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "bench-photo-feed-\(UUID().uuidString)"
        ).path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let photoBackend = root + "/photo-backend"
        let textBackend = root + "/text-backend"
        let jpeg = try ImageEncoder.jpeg(
            PhotoSuite.gradientPhoto(width: 640, height: 400), quality: 85)
        try await fill(photoBackend, photoJPEG: jpeg)
        try await fill(textBackend, photoJPEG: nil)
        runner.log(
            "\(posts) posts of a stored 640x400 JPEG (\(jpeg.count / 1024) KiB), and \(posts) text posts")
        try await measure(runner, root: root, photoBackend: photoBackend, textBackend: textBackend)
    }

    /// A backend whose viewer's feed has `posts` entries from followed accounts, each with the
    /// photo (uploaded and stored with its variants) or text only.
    static func fill(_ directory: String, photoJPEG: [UInt8]?) async throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let server = try BackendServer(directory: directory, seed: 1, clock: ManualClock())
        defer { server.close() }
        let base64 = photoJPEG.map { Data($0).base64EncodedString() }
        for index in 0..<posts {
            let attachments = base64.map { #", "attachments": [{"type": "photo", "data": "\#($0)"}]"# } ?? ""
            try await BenchPosts.post(
                #"{"text": "Bench post \#(index): a line of words under the picture."\#(attachments)}"#,
                as: BenchPosts.authors[index % BenchPosts.authors.count], key: "bench-\(index)", on: server)
        }
    }

    @MainActor
    static func launch(_ definition: AppDefinition, data: String, backend: String) async throws -> AppSession
    {
        let configuration = try LaunchConfiguration.parse(
            ["--headless", "--data-dir", data, "--backend-dir", backend], app: definition.id,
            environment: [:], isTerminal: false)
        let clock = ManualClock()
        let session = AppSession(
            definition: definition, configuration: configuration, clock: clock,
            networkClock: InstantNetworkClock(base: clock), colorMode: .trueColor, width: 80, height: 24)
        try await session.launch()
        await session.settle()
        return session
    }

    @MainActor
    static func measure(_ runner: BenchRunner, root: String, photoBackend: String, textBackend: String)
        async throws
    {
        let presses = runner.quick ? 100 : posts - 1

        // The baseline: the same scroll over text posts (a text-first app: a photo-first feed shows photos only).
        let textStart = PeakMemory.reset()
        let text = try await launch(
            try BenchApps.textFirst(), data: root + "/text-data", backend: textBackend)
        let textFrames = Samples(await HeadlessScroll.run(text, presses: presses).presses)
        let textPeak = PeakMemory.peakMegabytes()
        await text.stop()

        // Cold: nothing cached; every photo's art is fetched and decoded while the scroll goes on.
        let photoStart = PeakMemory.reset()
        let photos = try await launch(
            try BenchApps.photoFirst(), data: root + "/photo-data", backend: photoBackend)
        let store = photos.shell?.context.presentation.photoArt
        let coldFrames = Samples(await HeadlessScroll.run(photos, presses: presses).presses)
        let cold = store?.counts
        // Warm: back to the top and down again, every art in memory.
        (photos.shell?.currentScreen as? FeedScreen)?.postList.selectFirst()
        await photos.settle()
        let warmFrames = Samples(await HeadlessScroll.run(photos, presses: presses).presses)
        let photoPeak = PeakMemory.peakMegabytes()
        let warm = store?.counts
        await photos.stop()

        runner.log(
            "cold pass: \(cold?.loadsStarted ?? 0) loads, \(cold?.fetched ?? 0) variants fetched and decoded, "
                + "\(cold?.decodesOnMainThread ?? 0) on the main thread; warm pass: "
                + "\((warm?.fetched ?? 0) - (cold?.fetched ?? 0)) more fetched, "
                + "\((warm?.memoryHits ?? 0) - (cold?.memoryHits ?? 0)) memory hits")
        runner.report(
            "warm art cache: scroll one photo post, p99 frame", value: warmFrames.p99 * 1e3,
            p90: warmFrames.p90 * 1e3, p99: warmFrames.p99 * 1e3, unit: .milliseconds,
            baseline: ("text-only feed, p99 frame", textFrames.p99 * 1e3), targets: [.atMost(4)])
        runner.report(
            "cold art cache: scroll one photo post, max frame", value: (coldFrames.sorted.last ?? 0) * 1e3,
            p90: coldFrames.p90 * 1e3, p99: coldFrames.p99 * 1e3, unit: .milliseconds,
            baseline: ("text-only feed, max frame", (textFrames.sorted.last ?? 0) * 1e3),
            note: "loads run off the UI path; a frame never waits for a decode")
        runner.report(
            "cold art cache: variants decoded on the main thread",
            value: Double(cold?.decodesOnMainThread ?? -1),
            unit: .count, baseline: ("variants decoded in all", Double(cold?.fetched ?? 0)),
            targets: [.atMost(0)])
        runner.report(
            "peak RSS scrolling \(posts) photo posts (cold, then warm)", value: photoPeak, unit: .megabytes,
            baseline: ("text-only feed", textPeak), targets: [.atMost(150)],
            note: String(
                format:
                    "process VmHWM after resetting it; resident before launch: photos %.0f MB, text %.0f MB",
                photoStart, textStart))
    }
}

/// The process's peak resident memory (Linux: `VmHWM` in /proc/self/status), resettable through
/// /proc/self/clear_refs.
enum PeakMemory {
    /// Resets the peak to what is resident now, and returns that (in MB).
    static func reset() -> Double {
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
        return value("VmRSS")
    }

    /// The peak since the last reset, in MB.
    static func peakMegabytes() -> Double { value("VmHWM") }

    private static func value(_ field: String) -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
            return -1
        }
        for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
            let kilobytes = line.split(separator: " ").compactMap { Double($0) }.first ?? -1
            return kilobytes / 1024
        }
        return -1
    }
}
