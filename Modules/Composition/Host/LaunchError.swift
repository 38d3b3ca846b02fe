/// Why an app could not launch, and what was cleaned up.
public struct LaunchError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Sendable {
        /// The manifest has problems; every one is listed with file, line and column.
        case invalidManifest([Diagnostic])
        /// A provider threw while it was built.
        case providerFailed(provider: String, socket: String, message: String)
        /// The enabled services cannot be ordered.
        case unresolvableGraph(ServiceGraphError)
        /// A service's start threw. `chain` runs from the service that needed it down to it.
        case serviceFailed(service: String, chain: [String], message: String)
        /// A service's start did not finish within its timeout.
        case serviceTimedOut(service: String, chain: [String], timeout: Duration)
        /// The launching task was cancelled.
        case cancelled
    }

    /// What went wrong.
    public var reason: Reason
    /// Services that had started and were stopped again, in the order they were stopped.
    public var stoppedServices: [String]

    /// Makes an error.
    public init(_ reason: Reason, stoppedServices: [String] = []) {
        self.reason = reason
        self.stoppedServices = stoppedServices
    }

    /// The id of the service that failed or timed out, if a service caused the failure.
    public var failedService: String? {
        switch reason {
        case .serviceFailed(let service, _, _), .serviceTimedOut(let service, _, _): service
        default: nil
        }
    }

    /// What failed, in which service, and what to do.
    public var description: String {
        var text: String
        switch reason {
        case .invalidManifest(let diagnostics):
            let count = diagnostics.filter { $0.severity == .error }.count
            text = "invalid manifest (\(count) error\(count == 1 ? "" : "s")):\n"
            text += diagnostics.map(\.description).joined(separator: "\n")
        case .providerFailed(let provider, let socket, let message):
            text = "provider '\(provider)' for socket '\(socket)' failed: \(message)"
        case .unresolvableGraph(let error):
            text = "cannot order services: \(error)"
        case .serviceFailed(let service, let chain, let message):
            text = "service '\(service)' failed to start: \(message) (\(Self.describe(chain)))"
        case .serviceTimedOut(let service, let chain, let timeout):
            text = "service '\(service)' did not start within \(timeout) (\(Self.describe(chain)))"
        case .cancelled:
            text = "launch cancelled"
        }
        if !stoppedServices.isEmpty {
            text += "; stopped already-started services: \(stoppedServices.joined(separator: ", "))"
        }
        return text
    }

    private static func describe(_ chain: [String]) -> String {
        chain.count <= 1 ? "enabled by the manifest" : "needed by: \(chain.joined(separator: " -> "))"
    }
}
