import Foundation

/// Something that happens to a running app, delivered to the services that react to it, in
/// dependency order.
public enum LifecycleEvent: Sendable, Hashable, CustomStringConvertible {
    /// Every enabled service has started.
    case launch
    /// The app came to the front (the terminal gained focus).
    case foreground
    /// The app went to the back (the terminal lost focus).
    case background
    /// A push event arrived, with its JSON payload.
    case pushReceived(Data)
    /// Memory is short: drop what can be rebuilt.
    case memoryWarning
    /// The app is about to stop.
    case terminate

    /// The event's kind, without its payload.
    public var kind: Kind {
        switch self {
        case .launch: .launch
        case .foreground: .foreground
        case .background: .background
        case .pushReceived: .pushReceived
        case .memoryWarning: .memoryWarning
        case .terminate: .terminate
        }
    }

    /// The event's kind, as manifests and scripts name it.
    public var description: String { kind.rawValue }

    /// An event's kind, named as manifests name it.
    public enum Kind: String, Sendable, Hashable, CaseIterable, Comparable {
        /// The app has launched: every service has started.
        case launch
        /// The app came to the front (the terminal gained the focus).
        case foreground
        /// The app went to the back (the terminal lost the focus).
        case background
        /// A push event arrived from the server's event stream.
        case pushReceived
        /// The app should free what it can rebuild.
        case memoryWarning
        /// The app is about to exit; services stop after this.
        case terminate

        /// The kind a manifest name stands for, if any.
        public init?(name: String) {
            self.init(rawValue: name)
        }

        /// Kinds order as `allCases` lists them.
        public static func < (lhs: Kind, rhs: Kind) -> Bool {
            allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
        }
    }
}
