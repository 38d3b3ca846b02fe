import Backend
import Composition
import Features
import Foundation
import ServerAPI
import Storage
import Wire

extension LaunchConfiguration {
    /// The values services read, decided from the command line: directories, the backend to
    /// use, network conditions, and the one clock every module shares.
    package func launchValues(clock: any WallClock) -> LaunchValues {
        var values = LaunchValues()
        values[AppDataDirectoryKey.self] = dataDirectory
        values[BackendDirectoryKey.self] = backendDirectory
        values[EmbeddedBackendEnabledKey.self] = serverURL == nil
        values[ServerURLKey.self] = serverURL
        values[EmbeddedFaultProfileKey.self] = FaultProfile.named(network) ?? .perfect
        values[HTTPFaultProfileKey.self] = FaultProfile.named(network) ?? .perfect
        values[BackendClockKey.self] = clock
        values[NetworkClockKey.self] = clock
        return values
    }

    /// Creates the data and backend directories, or says clearly why it cannot.
    package func createDirectories() throws(LaunchDirectoryError) {
        for directory in [dataDirectory, backendDirectory] {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw LaunchDirectoryError(path: directory, reason: error.localizedDescription)
            }
        }
    }
}

/// A data directory the app cannot create or use.
package struct LaunchDirectoryError: Error, Sendable, CustomStringConvertible {
    /// The directory.
    package var path: String
    /// Why it cannot be used.
    package var reason: String

    package var description: String {
        "cannot create the directory '\(path)': \(reason); pass --data-dir (and --backend-dir) to use another"
    }
}
