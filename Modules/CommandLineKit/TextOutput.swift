import Foundation
import Synchronization

/// Where a command writes its text: the process's standard output and error, or a buffer in
/// tests.
public protocol TextOutput: Sendable {
    /// Writes text to standard output.
    func write(_ text: String)
    /// Writes text to standard error.
    func writeError(_ text: String)
}

/// The process's standard output and standard error.
public struct StandardTextOutput: TextOutput {
    /// Makes the standard streams.
    public init() {}

    /// Writes `text` to the process's standard output, unbuffered.
    public func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// Writes `text` to the process's standard error, unbuffered.
    public func writeError(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}

/// A buffer that collects what a command writes (for tests).
public final class CapturedTextOutput: TextOutput {
    private let buffers = Mutex<(output: String, error: String)>(("", ""))

    /// Makes an empty buffer.
    public init() {}

    /// Appends `text` to `output`.
    public func write(_ text: String) { buffers.withLock { $0.output += text } }
    /// Appends `text` to `error`.
    public func writeError(_ text: String) { buffers.withLock { $0.error += text } }

    /// Everything written to standard output so far.
    public var output: String { buffers.withLock { $0.output } }
    /// Everything written to standard error so far.
    public var error: String { buffers.withLock { $0.error } }
}
