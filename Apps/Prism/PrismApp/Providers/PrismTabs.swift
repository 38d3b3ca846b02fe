import Sockets

/// Prism's tab bar.
struct PrismTabs: Tabs {
    let tabs = [
        Tab(title: "Home", destination: .home, glyph: "⌂"),
        Tab(title: "New", destination: .compose, glyph: "+"),
        Tab(title: "Activity", destination: .activity, glyph: "♥"),
        Tab(title: "Direct", destination: .direct, glyph: "✉"),
        Tab(title: "Profile", destination: .profile, glyph: "☺"),
        Tab(title: "Sync", destination: .mutations, glyph: "⇅"),
    ]
}
