import CommandLineKit
import Composition
import Features
import Foundation
import TerminalUI
import Wire

/// Runs a headless script against an app: launches it on a manual clock (time moves only with
/// `advance`), feeds keys, prints frames, checks expectations, restarts on the same data. The
/// same script gives the same frames on every run.
@MainActor
package final class HeadlessRunner {
    private let session: AppSession
    private let clock: ManualClock
    private let script: HeadlessScript
    private let scriptName: String
    private let output: any TextOutput
    private var frameNumber = 0
    /// How long each frame took to draw, for `--trace`.
    package private(set) var frameTimes: [Duration] = []

    /// Makes a runner; nothing runs until `run()`.
    package init(
        definition: AppDefinition, configuration: LaunchConfiguration, script: HeadlessScript,
        scriptName: String,
        output: any TextOutput
    ) {
        let clock = ManualClock()
        self.clock = clock
        self.session = AppSession(
            definition: definition, configuration: configuration, clock: clock,
            networkClock: InstantNetworkClock(base: clock), colorMode: .trueColor, width: configuration.width,
            height: configuration.height)
        self.script = script
        self.scriptName = scriptName
        self.output = output
    }

    /// The session (for tests that look inside).
    package var appSession: AppSession { session }

    /// Runs the script. Returns the exit status: 0 when every expectation held, 1 when one failed
    /// or the app could not run.
    package func run() async -> Int32 {
        do {
            try await session.launch()
        } catch {
            output.writeError("\(session.definition.id): error: \(error)\n")
            return 1
        }
        if let setAside = session.setAsideDatabase {
            output.writeError("\(session.definition.id): warning: \(setAside)\n")
        }
        defer { frameNumber = 0 }
        let observer = HeadlessStepObservation.observer
        await observer?(session, nil)
        for step in script.steps {
            do {
                if try await perform(step) == false { break }
                await observer?(session, step)
            } catch {
                output.writeError("\(scriptName):\(step.line): error: \(error)\n")
                await session.stop()
                return 1
            }
        }
        await session.settle()
        launchTrace = session.trace
        firstContentFrame = session.firstContentFrame
        await session.stop()
        return 0
    }

    /// The launch trace of the last launch (for `--trace`), once the script ran.
    package private(set) var launchTrace: LaunchTrace?
    /// When the first frame with content was drawn, from the launch's start.
    package private(set) var firstContentFrame: Duration?

    /// The frame as plain text.
    package func frameText() -> String {
        let start = ContinuousClock.now
        let (buffer, _) = session.render()
        frameTimes.append(ContinuousClock.now - start)
        return HeadlessRenderer.text(of: buffer)
    }

    /// Performs one step; false when the script should stop (the app quit).
    private func perform(_ step: HeadlessScript.Step) async throws -> Bool {
        switch step.command {
        case .key(let key):
            if session.shell?.handle(key.terminalKey) == .quit { return false }
        case .type(let text):
            for character in text { _ = session.shell?.handle(.character(character)) }
        case .wait:
            await session.settle()
        case .frame:
            frameNumber += 1
            output.write("--- frame \(frameNumber) ---\n\(frameText())\n--- end ---\n")
        case .expect(let text):
            let frame = frameText()
            if !frame.contains(text) { throw ExpectationFailure(text: text, expected: true, frame: frame) }
        case .expectNot(let text):
            let frame = frameText()
            if frame.contains(text) { throw ExpectationFailure(text: text, expected: false, frame: frame) }
        case .network(let name):
            guard let profile = FaultProfile.named(name) else {
                throw RunnerError("unknown network profile '\(name)'")
            }
            guard let control = session.shell?.context.faultControl else {
                throw RunnerError("this app's transport cannot switch network conditions")
            }
            control.setFaultProfile(profile)
            session.networkDidChange()
        case .advance(let seconds):
            clock.advance(by: .milliseconds(Int64((seconds * 1000).rounded())))
            await session.settle()
        case .event(let event):
            await session.app?.deliver(event)
            await session.settle()
        case .push(let json):
            await session.app?.deliver(.pushReceived(Data(json.utf8)))
            await session.settle()
        case .restart:
            try await session.restart()
        case .resize(let width, let height):
            session.resize(width: width, height: height)
            await session.settle()
        case .attach(let path):
            // The composer, or any screen that takes photos picked from disk (a conversation).
            let target: any PhotoPickerTarget =
                try (session.shell?.currentScreen as? any PhotoPickerTarget) ?? openComposer(for: "attach")
            let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
            do {
                try target.attach(path: DirectoryListing.standardized(absolute))
            } catch {
                throw RunnerError("cannot attach '\(path)': \(error.reason)")
            }
        case .alt(let text):
            let composer = try openComposer(for: "alt")
            guard !composer.files.isEmpty else {
                throw RunnerError("'alt' needs a photo attached first ('attach PATH')")
            }
            composer.setAltText(text, ofPhotoAt: composer.files.count - 1)
        }
        return true
    }

    /// The composer on screen, for `attach` and `alt`.
    private func openComposer(for word: String) throws -> ComposerScreen {
        guard let composer = session.shell?.currentScreen as? ComposerScreen else {
            let shown = session.shell?.currentScreen?.title ?? "no screen"
            throw RunnerError("'\(word)' needs the composer open (key n opens it); the screen is '\(shown)'")
        }
        return composer
    }
}

/// Who looks at the app after every step of a headless run: tests install an observer (an
/// oracle that compares the screen with the server's truth) for the runs a task starts.
package enum HeadlessStepObservation {
    /// Called with the session once the app launched (`nil` step) and after every step that did
    /// not end the run, before the next one.
    package typealias Observer = @MainActor @Sendable (AppSession, HeadlessScript.Step?) async -> Void

    /// The observer for headless runs started in the current task, if any.
    @TaskLocal package static var observer: Observer?
}

/// An `expect` or `expect-not` that did not hold, with the frame.
struct ExpectationFailure: Error, CustomStringConvertible {
    var text: String
    var expected: Bool
    var frame: String

    var description: String {
        (expected ? "expected the screen to show '\(text)'" : "expected the screen not to show '\(text)'")
            + "; the screen was:\n--- frame ---\n\(frame)\n--- end ---"
    }
}

/// A script step that cannot be carried out.
struct RunnerError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}

extension HeadlessKey {
    /// The terminal key a script key stands for.
    var terminalKey: Key {
        switch self {
        case .up: .up
        case .down: .down
        case .left: .left
        case .right: .right
        case .enter: .enter
        case .escape: .escape
        case .tab: .tab
        case .backspace: .backspace
        case .character(let character): .character(character)
        }
    }
}
