/// One problem found in a manifest or a catalog, printed the way compilers print theirs:
/// `Manifests/app.json:12:5: error: socket 'feedPolicy' is bound to unknown provider ...`.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    /// How serious the problem is.
    public enum Severity: String, Sendable, Hashable {
        /// A problem that fails validation (and the launch).
        case error
        /// A problem worth fixing that does not fail validation.
        case warning
        /// More about the diagnostic before it.
        case note
    }

    /// How serious the problem is. Only errors fail validation.
    public var severity: Severity
    /// Where the problem is.
    public var location: SourceLocation
    /// A stable, machine-readable name for the kind of problem (`unknown-provider`).
    public var code: String
    /// What went wrong and how to fix it, quoting the offending value.
    public var message: String

    /// Makes a diagnostic. Control characters in the message are escaped and an overlong
    /// message is cut (`DiagnosticText`), so no manifest can reach the terminal through it; quote
    /// each value with `DiagnosticText.value(_:)` so a long one is cut where it stands.
    public init(_ severity: Severity = .error, at location: SourceLocation, code: String, _ message: String) {
        self.severity = severity
        self.location = location
        self.code = code
        self.message = DiagnosticText.message(message)
    }

    /// `file:line:column: severity: message`, the file's path escaped too.
    public var description: String {
        "\(DiagnosticText.escaped(location.description)): \(severity.rawValue): \(message)"
    }
}

extension [Diagnostic] {
    /// Whether any of the diagnostics is an error.
    public var containsErrors: Bool { contains { $0.severity == .error } }
}
