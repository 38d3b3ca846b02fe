import Sockets

/// Relay's tab bar: the inbox is Home; no feed, no composer of posts.
struct RelayTabs: Tabs {
    let tabs = [
        Tab(title: "Inbox", destination: .direct, glyph: "✉"),
        Tab(title: "Profile", destination: .profile, glyph: "☺"),
        Tab(title: "Sync", destination: .mutations, glyph: "⇅"),
    ]
}
