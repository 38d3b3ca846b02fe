import Foundation

/// The root of the Swift package a repository tool works on (manifest-lint, new-app,
/// mutation-score): the directory holding `Package.swift`.
///
/// ```swift
/// guard let root = PackageRoot.find(parsed.value("package-dir"), from: currentDirectory) else { ... }
/// ```
public enum PackageRoot {
    /// `given` (relative to `directory` unless absolute) when it holds a `Package.swift`, and nil
    /// when it does not; without `given`, the nearest directory from `directory` up that holds one,
    /// or nil when none does.
    public static func find(_ given: String?, from directory: String) -> String? {
        if let given {
            let path = given.hasPrefix("/") ? given : "\(directory)/\(given)"
            return FileManager.default.fileExists(atPath: "\(path)/Package.swift") ? path : nil
        }
        var url = URL(fileURLWithPath: directory)
        while true {
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
                return url.path
            }
            let parent = url.deletingLastPathComponent()
            if parent.path == url.path { return nil }
            url = parent
        }
    }
}
