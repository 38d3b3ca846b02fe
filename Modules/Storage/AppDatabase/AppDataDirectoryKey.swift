import Composition
import Foundation

/// The directory of the app's own data (`app.sqlite`: feed cache, mutation journal). Each app
/// needs its own; the launcher sets it from `--data-dir`. Default: `loom-app` in the temporary
/// directory.
public enum AppDataDirectoryKey: LaunchValueKey {
    /// `<tmp>/loom-app`.
    public static var defaultValue: String {
        FileManager.default.temporaryDirectory.appendingPathComponent("loom-app").path
    }
}
