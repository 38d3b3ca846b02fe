import Composition
import Foundation

/// The directory holding the embedded backend's database. The apps may share one (the file is
/// opened by both processes safely). Default: `loom-backend` in the temporary directory.
public enum BackendDirectoryKey: LaunchValueKey {
    /// `<tmp>/loom-backend`.
    public static var defaultValue: String {
        FileManager.default.temporaryDirectory.appendingPathComponent("loom-backend").path
    }
}
