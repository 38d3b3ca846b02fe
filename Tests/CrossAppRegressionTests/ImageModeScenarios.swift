import AppRuntime
import AppTesting
import TerminalUI
import Testing

/// `--images`: the same home feed drawn with each image mode. The photos' cells are half blocks,
/// ramp characters or kitty placeholders, in the same places; every other cell (the posts'
/// text, their order, the chrome) is the same in all three.
@Suite @MainActor struct ImageModeScenarios {
    /// The home frame of a fresh launch with `--images mode`, as lines of graphemes.
    static func homeFrame(_ app: ShippedApp, images mode: String) async throws -> [[Character]] {
        let directories = try TestDirectories.make()
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: directories, extraArguments: ["--images", mode])
        let frame = lines(HeadlessHarness.frame(of: session)).map(Array.init)
        // Stopped before the next launch: one app at a time, as the other scenarios run.
        await session.stop()
        return frame
    }

    @Test(arguments: ShippedApp.withHome)
    func eachImageMode_drawsTheFeedsPhotosInTheSameCells_andLeavesTheRestAlone(app: ShippedApp) async throws {
        let blocks = try await Self.homeFrame(app, images: "blocks")
        let ascii = try await Self.homeFrame(app, images: "ascii")
        let kitty = try await Self.homeFrame(app, images: "kitty")
        let photoCells = blocks.enumerated().flatMap { y, line in
            line.enumerated().filter { $0.element == "▀" }.map { (y, $0.offset) }
        }
        #expect(photoCells.count >= 40, "\(app.id): a photo on the first screen")
        #expect(ascii.map(\.count) == blocks.map(\.count))
        #expect(kitty.map(\.count) == blocks.map(\.count), "\(app.id): a placeholder is one column")
        let ramp = Set(HalfBlockArt.luminanceRamp)
        #expect(photoCells.allSatisfy { ramp.contains(ascii[$0.0][$0.1]) }, "\(app.id): ramp characters")
        #expect(
            photoCells.allSatisfy { KittyGraphics.isPlaceholder(kitty[$0.0][$0.1]) },
            "\(app.id): kitty placeholders")
        #expect(
            kitty.joined().filter(KittyGraphics.isPlaceholder).count == photoCells.count,
            "\(app.id): no placeholder outside the photos")
        #expect(!ascii.joined().contains("▀") && !kitty.joined().contains("▀"))
        // Everything but the photos' cells is the same: text, order, chrome.
        func withoutPhotos(_ frame: [[Character]]) -> [String] {
            var frame = frame
            for (y, x) in photoCells { frame[y][x] = "□" }
            return frame.map { String($0) }
        }
        #expect(withoutPhotos(ascii) == withoutPhotos(blocks), "\(app.id)")
        #expect(withoutPhotos(kitty) == withoutPhotos(blocks), "\(app.id)")
    }
}
