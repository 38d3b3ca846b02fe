/// Why `new-app` writes nothing: the name, the model app or the package is not what it needs.
/// The command prints `new-app: error: <description>` and exits 1.
struct ScaffoldRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong and how to fix it, quoting the offending value, on one line.
    let description: String

    /// A refusal saying `description`.
    init(_ description: String) { self.description = description }
}
