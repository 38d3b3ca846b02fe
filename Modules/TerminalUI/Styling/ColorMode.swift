/// How much color the terminal gets: 24-bit, the xterm 256-color palette, or none.
///
/// Detected from the environment with `detect(environment:)`, and overridable: it is a plain
/// value the app may replace (for example from a command-line flag).
///
/// ```swift
/// let mode = ColorMode.detect(environment: ProcessInfo.processInfo.environment)
/// ```
public enum ColorMode: Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// 24-bit color (`ESC[38;2;r;g;bm`).
    case trueColor
    /// The xterm 256-color palette (`ESC[38;5;nm`); RGB colors map to the nearest index.
    case palette256
    /// No color at all: bold, dim, italic, underline and inverse still apply.
    case none

    /// The mode the environment asks for.
    ///
    /// - `NO_COLOR` set to any value (even empty) → `.none` (https://no-color.org).
    /// - `TERM` unset, empty or `dumb` → `.none`.
    /// - `COLORTERM` is `truecolor` or `24bit` (any case) → `.trueColor`.
    /// - Otherwise → `.palette256`.
    public static func detect(environment: [String: String]) -> ColorMode {
        if environment["NO_COLOR"] != nil { return .none }
        let term = environment["TERM"] ?? ""
        if term.isEmpty || term == "dumb" { return .none }
        switch (environment["COLORTERM"] ?? "").lowercased() {
        case "truecolor", "24bit": return .trueColor
        default: return .palette256
        }
    }

    /// `truecolor`, `256` or `none`.
    public var description: String {
        switch self {
        case .trueColor: "truecolor"
        case .palette256: "256"
        case .none: "none"
        }
    }
}
