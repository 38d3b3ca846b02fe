import Composition

/// Every socket this package defines, as a catalog to merge into an app's.
public enum StandardSockets {
    /// The sockets, required ones first.
    public static var catalog: Catalog {
        Catalog(sockets: [
            brandingSocket.descriptor, feedPolicySocket.descriptor, postLayoutSocket.descriptor,
            composerPolicySocket.descriptor, replyModelSocket.descriptor, tabsSocket.descriptor,
            themeSocket.descriptor, onboardingSocket.descriptor, directSocket.descriptor,
        ])
    }
}
