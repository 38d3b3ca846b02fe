import Sockets

/// Strand's tab bar.
struct StrandTabs: Tabs {
    let tabs = [
        Tab(title: "Home", destination: .home, glyph: "⌂"),
        Tab(title: "Activity", destination: .activity, glyph: "♥"),
        Tab(title: "Write", destination: .compose, glyph: "✎"),
        Tab(title: "Profile", destination: .profile, glyph: "☺"),
        Tab(title: "Sync", destination: .mutations, glyph: "⇅"),
    ]
}
