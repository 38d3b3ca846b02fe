/// Why the terminal could not be set up: what went wrong, on which file descriptor, and what
/// to do about it.
///
/// ```swift
/// do { try Terminal.run { terminal in … } }
/// catch let error as TerminalError where error.code == .notATerminal {
///     print("\(error)\nuse --headless to print frames instead")
/// }
/// ```
public struct TerminalError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of failure, for code that reacts to it.
    public enum Code: Hashable, Sendable {
        /// Standard input or output is a pipe or a file, not a terminal.
        case notATerminal
        /// A system call (tcgetattr, tcsetattr, pipe) failed.
        case systemCall
        /// Another `Terminal` is already started in this process.
        case alreadyActive
    }

    /// The kind of failure.
    public let code: Code
    /// What went wrong, quoting the file descriptor and the system's reason.
    public let message: String

    /// Makes an error.
    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    /// The message.
    public var description: String { message }

    static func notATerminal(fileDescriptor: Int32, role: String) -> TerminalError {
        TerminalError(
            code: .notATerminal,
            message: "\(role) (fd \(fileDescriptor)) is not a terminal (it is a pipe or a file); "
                + "a full-screen interface needs a terminal: run it in one, or render frames headless")
    }

    static func alreadyActive() -> TerminalError {
        TerminalError(
            code: .alreadyActive,
            message: "a terminal is already started in this process; restore it before starting another")
    }

    static func systemCall(_ name: String, fileDescriptor: Int32, errno code: Int32) -> TerminalError {
        TerminalError(
            code: .systemCall,
            message: "\(name) on fd \(fileDescriptor) failed: \(SystemError.describe(code)) (errno \(code)); "
                + "check that the file descriptor is an open terminal")
    }
}
