import AppRuntime
import Features
import TerminalUI

/// Scrolling a headless session one post a key press, as the `ui` and `photo-feed` suites time
/// it: each sample is one key press and the frame it draws, committed to an 80x24 screen; the
/// work the press started (pages, heights, art loads) is waited for between presses, untimed.
enum HeadlessScroll {
    /// The frame times of `presses` presses of ↓, in seconds, and, when `timingRedraws`, the time
    /// of redrawing each frame unchanged after its work settled (the same count; else empty).
    @MainActor
    static func run(_ session: AppSession, presses: Int, timingRedraws: Bool = false) async -> (
        presses: [Double], redraws: [Double]
    ) {
        let frame = frames(of: session)
        _ = frame()
        var pressed: [Double] = []
        var redrawn: [Double] = []
        let wall = ContinuousClock()
        for _ in 0..<presses {
            let start = wall.now
            _ = session.shell?.handle(.down)
            blackHole(frame())
            pressed.append((wall.now - start).seconds)
            await session.settle()
            if timingRedraws {
                let idle = wall.now
                blackHole(frame())
                redrawn.append((wall.now - idle).seconds)
            }
        }
        return (pressed, redrawn)
    }

    /// Draws `session` into an 80x24 screen and commits it, each call: the frame update a
    /// terminal would be sent (what changed since the last call).
    @MainActor
    static func frames(of session: AppSession) -> () -> FrameUpdate {
        let screen = Screen(size: TerminalSize(columns: 80, rows: 24), colorMode: .trueColor)
        return {
            let (buffer, cursor) = session.render()
            screen.buffer = buffer
            screen.cursor = cursor
            return screen.commit()
        }
    }
}
