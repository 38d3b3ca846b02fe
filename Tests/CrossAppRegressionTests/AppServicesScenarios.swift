import AppRuntime
import AppTesting
import Backend
import Composition
import Features
import Foundation
import Testing

/// The app's own services in Features, each owning its work: `activity.events` long-polls the
/// event stream in a loop of its own (no runner polls it) and `photo.art` keeps the photos' art;
/// both end with the app.
@Suite @MainActor struct AppServicesScenarios {
    @Test(arguments: ShippedApp.all)
    func aLikeBySomeoneElse_showsAsABanner_withoutAKey_andTheLoopEndsWithTheApp(app: ShippedApp) async throws
    {
        // Given the viewer's post on the server, and the app listening to the event stream
        let directories = try TestDirectories.make()
        let (session, _) = try await HeadlessHarness.session(app.definition, directories: directories)
        let events = try #require(session.app?.service(.activityEvents), "\(app.id) enables activity.events")
        let server = try #require(session.app?.service(.embeddedBackend)?.embeddedTransport?.server)
        let viewer = BackendSeed.firstHandle
        let liker = try #require(BackendSeed.handles.last { $0 != viewer })
        let mediaID = try await BackendFixtures.post(on: server, as: viewer, text: "Kites over the dunes")
        await events.poll()  // where the stream ends now: what comes after is news
        events.listen(wait: 5)
        #expect(events.isListening)

        // When another account likes it, and the person presses no key
        try await BackendFixtures.like(on: server, as: liker, mediaID)

        // Then the banner says so within seconds, on the service's own loop
        let deadline = ContinuousClock.now + .seconds(10)
        var frame = HeadlessHarness.frame(of: session)
        while !frame.contains("(@\(liker)) liked your post"), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
            frame = HeadlessHarness.frame(of: session)
        }
        #expect(frame.contains("(@\(liker)) liked your post"), "\(app.id): no banner:\n\(frame)")

        // And the loop ends with the app
        await session.stop()
        #expect(!events.isListening, "\(app.id): the long poll outlived the app")
    }

    /// Only a session in a terminal long-polls by itself: a first launch driven by a test (no
    /// `--headless`, a manual clock) would spin on waits that never end.
    @Test(arguments: ShippedApp.all)
    func aSessionNotInATerminal_leavesTheEventStreamToItsDriver(app: ShippedApp) async throws {
        let directories = try TestDirectories.make()
        let (session, _) = try await HeadlessHarness.firstLaunch(app.definition, directories: directories)
        defer { Task { await session.stop() } }
        let events = try #require(session.app?.service(.activityEvents))
        #expect(!events.isListening, "\(app.id): a first launch in a test started the long poll")
    }

    @Test(arguments: ShippedApp.all)
    func photoArt_isAServiceOfTheApp_whoseStoreTheScreensDrawWith_andWhichEndsWithIt(app: ShippedApp)
        async throws
    {
        let directories = try TestDirectories.make()
        let (session, _) = try await HeadlessHarness.session(app.definition, directories: directories)
        let service = try #require(session.app?.service(.photoArt), "\(app.id) enables photo.art")
        let store = try #require(service.store)
        let context = try #require(session.shell?.context)

        #expect(
            context.presentation.photoArt === store, "\(app.id): the screens draw with the service's store")
        #expect(store.disk?.directory == directories.data + "/photo-art")

        await session.stop()
        #expect(service.store == nil, "\(app.id): the store outlived the app")
    }
}
