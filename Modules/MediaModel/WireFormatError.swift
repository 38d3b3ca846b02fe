/// A malformed wire payload: where in the document, and what was wrong there.
///
/// The description reads `media.attachments[2].width: expected a number, found "abc"`.
/// Unknown kinds, attachment types and extra fields are never errors; see `WireFormat`.
public struct WireFormatError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Where the problem is.
    public let path: WirePath
    /// What is wrong there, quoting the offending value.
    public let problem: String

    /// Makes an error at `path`.
    public init(path: WirePath, problem: String) {
        self.path = path
        self.problem = problem
    }

    /// `path: problem`.
    public var description: String { "\(path): \(problem)" }
}
