import Backend
import Basics
import Composition
import Features
import Foundation
import HTTPClient
import Mutations
import ServerAPI
import Storage
import Wire

extension LaunchConfiguration {
    /// The values services read, decided from the command line: directories, the backend to
    /// use, network conditions, the one clock every module shares and, headless, the seed.
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
        values[HTTPFaultClockKey.self] = clock
        if case .headless = mode {
            values[BackendSeedKey.self] = seed
            values[MutationConfigurationKey.self] = headlessMutationConfiguration
        }
        return values
    }

    /// The mutation manager's configuration for a headless run: its tokens and its backoff
    /// jitter come from the seed, so two runs of one script send the same tokens and wait the
    /// same delays. The seed is mixed with the app's id so that two apps, signed in as the
    /// same user on one backend, do not make the same tokens.
    var headlessMutationConfiguration: MutationManager.Configuration {
        var hash = FNV1a()
        hash.combine(app.utf8)
        hash.endPart()
        var random = SplitMix64(seed: hash.value ^ seed)
        var configuration = MutationManager.Configuration()
        configuration.tokens = .seeded(random.next())
        configuration.jitterSeed = random.next()
        return configuration
    }

    /// Creates the data and backend directories, or says clearly why it cannot.
    package func createDirectories() throws(LaunchDirectoryError) {
        for directory in [dataDirectory, backendDirectory] {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw LaunchDirectoryError(
                    path: directory, reason: FileSystemReason.describe(error, at: directory))
            }
        }
    }
}

/// A data directory the app cannot create or use.
package struct LaunchDirectoryError: Error, Sendable, CustomStringConvertible {
    /// The directory.
    package var path: String
    /// Why it cannot be used, in words (Storage's `FileSystemReason`): `'/etc/passwd' is a file, not a
    /// directory`.
    package var reason: String

    package var description: String {
        "cannot create the directory '\(path)': \(reason); pass --data-dir (and --backend-dir) with a directory "
            + "you can write to"
    }
}
