extension CommandLineSpec.Option {
    /// `--version`: print the command's name and version and exit. Every executable of the
    /// repository offers it (the apps print their manifest's version, the tools
    /// ``ToolVersion/current``); read it with ``ParsedArguments/versionRequested``.
    ///
    /// ```swift
    /// let spec = CommandLineSpec(command: "tool", summary: "Does a thing.", options: [.version()])
    /// if try spec.parse(["--version"]).versionRequested { print(ToolVersion.line(for: "tool")) }
    /// ```
    public static func version(help: String = "print the name and version and exit") -> Self {
        .flag("version", help: help)
    }
}

extension ParsedArguments {
    /// Whether `--version` (``CommandLineSpec/Option/version(help:)``) was given.
    public var versionRequested: Bool { has("version") }
}

/// The version of the repository's tools (`manifest-lint`, `backend-server`), which `--version`
/// prints. The apps' versions are their manifests'; a release raises this one with them.
public enum ToolVersion {
    /// The tools' version, `0.1.0`.
    public static let current = "0.1.0"

    /// What `--version` prints for `command`: `manifest-lint 0.1.0`.
    public static func line(for command: String) -> String {
        "\(command) \(current)"
    }
}
