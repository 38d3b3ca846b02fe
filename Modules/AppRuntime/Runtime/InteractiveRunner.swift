import CommandLineKit
import Composition
import Features
import Foundation
import Storage
import TerminalUI
import Wire

/// Runs an app full-screen in a terminal: raw mode, the alternate screen and bracketed paste
/// (restored on every way out), keys and pastes to the shell, focus changes as
/// foreground/background events, resizes relaid out off the UI actor, and a redraw of only what
/// changed whenever something did. Ctrl-Z (or SIGTSTP) puts the terminal back and stops the
/// process; on SIGCONT the whole frame is drawn again. Photos are drawn in the `--images` mode;
/// `auto` asks the terminal with the kitty graphics protocol's query first, and the images sent
/// to it are deleted on every way out.
@MainActor
package final class InteractiveRunner {
    /// What the runner turns on in the terminal while the app runs: the defaults, and bracketed
    /// paste, so a paste arrives as one piece of text and never as key presses.
    nonisolated package static let terminalOptions = TerminalOptions(usesBracketedPaste: true)

    private enum LoopEvent: Sendable {
        case input(InputEvent)
        case redraw
        case tick
    }

    let definition: AppDefinition
    let configuration: LaunchConfiguration
    let output: any TextOutput
    private(set) var frameTimes: [Duration] = []
    private(set) var firstFrame: Duration?
    /// The image mode the run drew photos in, and how it was chosen (for `--trace`).
    private(set) var imageChoice: String?

    init(definition: AppDefinition, configuration: LaunchConfiguration, output: any TextOutput) {
        self.definition = definition
        self.configuration = configuration
        self.output = output
    }

    private var setAsideDatabase: SetAsideDatabase?
    /// The data directory, taken before the terminal (see `run()`).
    private var directoryLock: DataDirectoryLock?

    func run() async -> Int32 {
        var trace: LaunchTrace?
        // The data directory first: another app holding it is said before the terminal is taken.
        do {
            try configuration.createDirectories()
            directoryLock = try DataDirectoryLock.acquire(
                directory: configuration.dataDirectory, app: definition.id)
        } catch {
            output.writeError("\(definition.id): error: \(error)\n")
            return 1
        }
        do {
            trace = try await Terminal.run(options: Self.terminalOptions) { terminal in
                try await self.loop(terminal)
            }
        } catch let error as TerminalError {
            output.writeError(
                "\(definition.id): error: \(error.message); use --headless to run without a terminal\n")
            return 1
        } catch {
            output.writeError("\(definition.id): error: \(error)\n")
            return 1
        }
        if let setAsideDatabase {
            output.writeError("\(definition.id): warning: \(setAsideDatabase)\n")
        }
        if configuration.trace, let trace {
            output.write(trace.formatted + "\n")
            output.write(FrameTimes(samples: frameTimes, firstFrame: firstFrame).summary + "\n")
            if let imageChoice { output.write(imageChoice + "\n") }
        }
        return 0
    }

    private func loop(_ terminal: Terminal) async throws -> LaunchTrace? {
        let size = terminal.size
        let colorMode = ColorMode.detect(environment: ProcessInfo.processInfo.environment)
        // `--images auto`: the kitty protocol's own query, answered (or not) before anything is drawn.
        let images = KittyImageRegistry()
        let asked = ContinuousClock.now
        let asks = configuration.asksTerminalAboutImages(colorMode: colorMode)
        let speaksKitty = asks ? await terminal.supportsKittyGraphics() : false
        let imageMode = configuration.imageMode(
            colorMode: colorMode, speaksKitty: speaksKitty, registry: images)
        imageChoice =
            "images: \(imageMode) (--images \(configuration.images.rawValue)"
            + (asks ? "; the kitty query took \(FrameTimes.milliseconds(ContinuousClock.now - asked)))" : ")")
        let clock = SystemClock()
        let session = AppSession(
            definition: definition, configuration: configuration, clock: clock, networkClock: clock,
            colorMode: colorMode, imageMode: imageMode, width: size.columns, height: size.rows)
        let (events, continuation) = AsyncStream.makeStream(of: LoopEvent.self, bufferingPolicy: .unbounded)
        if let directoryLock { session.holdDataDirectory(directoryLock) }
        session.onNeedsDisplay = { continuation.yield(.redraw) }
        session.hearsEventsAsTheyHappen = true
        let forward = Task {
            for await event in terminal.events { continuation.yield(.input(event)) }
            continuation.finish()
        }
        let ticker = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(1))
                continuation.yield(.tick)
            }
        }
        defer {
            forward.cancel()
            ticker.cancel()
        }
        let screen = Screen(size: size, colorMode: colorMode)
        try await session.launch()
        // Said again on standard error once the terminal is restored: the status line's note
        // goes with the screen.
        setAsideDatabase = session.setAsideDatabase
        func draw() {
            let begin = ContinuousClock.now
            let (buffer, cursor) = session.render()
            screen.buffer = buffer
            screen.cursor = cursor
            // Images new in this frame go first, so the terminal has them before their cells.
            let transmissions = images.takePendingOutput()
            if !transmissions.isEmpty { terminal.setFarewell(images.farewellOutput) }
            terminal.write(transmissions + screen.commit().output)
            frameTimes.append(ContinuousClock.now - begin)
        }
        draw()
        loop: for await event in events {
            switch event {
            case .input(.resize(let newSize)):
                screen.resize(to: newSize)
                session.resize(width: newSize.columns, height: newSize.rows)
            case .input(.focusGained):
                await session.app?.deliver(.foreground)
            case .input(.focusLost):
                await session.app?.deliver(.background)
            case .input(.resumed):
                // Back from a stop: the terminal shows nothing of ours, and may have been resized.
                let newSize = terminal.size
                if newSize != screen.size {
                    screen.resize(to: newSize)
                    session.resize(width: newSize.columns, height: newSize.rows)
                }
                screen.invalidate()
            case .input(let input):
                switch session.shell?.handle(input) {
                case .quit: break loop
                case .suspend: terminal.suspend()
                case .handled, nil: break
                }
            case .redraw, .tick:
                break
            }
            draw()
        }
        let trace = session.trace
        firstFrame = session.firstContentFrame
        await session.stop()
        return trace
    }
}

/// Frame-time figures for `--trace`.
struct FrameTimes {
    var samples: [Duration]
    var firstFrame: Duration?

    /// `1.234 ms`, or `-` for nil.
    static func milliseconds(_ duration: Duration?) -> String {
        guard let duration else { return "-" }
        let (seconds, attoseconds) = duration.components
        return String(format: "%.3f ms", Double(seconds) * 1000 + Double(attoseconds) / 1e15)
    }

    var summary: String {
        let sorted = samples.sorted()
        let ms = Self.milliseconds
        let p50 = sorted.isEmpty ? nil : sorted[sorted.count / 2]
        let p99 = sorted.isEmpty ? nil : sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))]
        return
            "frames: \(samples.count), draw median \(ms(p50)), p99 \(ms(p99)), first frame with content at \(ms(firstFrame)) after launch start"
    }
}
