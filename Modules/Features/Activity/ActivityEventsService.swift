import Composition
import Foundation
import MediaModel
import ServerAPI
import Synchronization
import Wire

/// The `activity.events` service: turns the backend's event stream and push events into in-app
/// banners.
///
/// On `pushReceived` it reads the push payload (a `PushPayload`: `{"kind": "like", "from":
/// "grace", "text": "…"}` or `{"message": "…"}`) and announces it. On `foreground` it fetches the
/// events that arrived since it last looked and announces each. Who shows the announcements is
/// up to the app (the session calls `setAnnouncementHandler(_:)`); the service only knows text.
///
/// Depends on: `network.client`. Reacts to: `foreground`, `pushReceived`.
package final class ActivityEventsService: Service {
    private struct State {
        var network: NetworkClientService?
        var cursor: String?
        var onAnnouncement: (@Sendable (String) -> Void)?
        var onEvent: (@Sendable (ActivityEvent) -> Void)?
        var listener: Task<Void, Never>?
    }

    private let state = Mutex(State())

    /// Makes the service.
    package init() {}

    /// The service's definition.
    package static let definition = ServiceDefinition(
        .activityEvents, dependencies: [NetworkClientService.id], events: [.foreground, .pushReceived]
    ) { _ in ActivityEventsService() }

    /// Where announcements go (the app shows them as banners).
    package func setAnnouncementHandler(_ handler: (@Sendable (String) -> Void)?) {
        state.withLock { $0.onAnnouncement = handler }
    }

    /// Where each event goes as it arrives, after its announcement (the app hands it to the
    /// screens: an open conversation shows a new message, the inbox counts it).
    package func setEventHandler(_ handler: (@Sendable (ActivityEvent) -> Void)?) {
        state.withLock { $0.onEvent = handler }
    }

    package func start(_ context: ServiceContext) async throws {
        let network = try context.service(.networkClient)
        state.withLock { $0.network = network }
    }

    package func handle(_ event: LifecycleEvent) async {
        switch event {
        case .pushReceived(let payload):
            if let text = Self.announcement(fromPush: payload) { announce(text) }
        case .foreground:
            await poll()
        default:
            break
        }
    }

    /// Fetches the events since the last look and announces each.
    ///
    /// The first look only finds where the stream ends (what happened before is not news); it
    /// happens at the first foreground, after the app has signed in.
    ///
    /// - Parameter wait: seconds the server may hold the request open until an event arrives (a
    ///   long poll), once the first look has been made.
    package func poll(wait: Int? = nil) async {
        let (network, cursor) = state.withLock { ($0.network, $0.cursor) }
        guard let client = network?.client, client.bearerToken != nil else { return }
        let page: WireEnvelope<EventPage>
        do throws(TransportError) {
            page = try await client.events(
                after: cursor ?? "latest", limit: cursor == nil ? 1 : 20, wait: cursor == nil ? nil : wait)
        } catch {
            return
        }
        state.withLock { $0.cursor = page.payload.nextCursor }
        guard cursor != nil else { return }
        let onEvent = state.withLock { $0.onEvent }
        for event in page.payload.events {
            announce(ActivityScreen.describe(event))
            onEvent?(event)
        }
    }

    /// Long-polls the event stream until the service stops: the first ask learns where the
    /// stream ends, then each ask waits up to `wait` seconds on the server for what comes next,
    /// and every event goes to the handlers. The loop is the service's own (an interactive
    /// session starts it once its handlers are set; headless runs poll step by step instead).
    /// Calling it again while it runs does nothing.
    package func listen(wait: Int = 25) {
        state.withLock { state in
            guard state.listener == nil else { return }
            state.listener = Task { [weak self] in
                await self?.poll()
                while !Task.isCancelled {
                    guard let self else { return }
                    await self.poll(wait: wait)
                    // A failed ask (offline, signed out) comes back at once: not a busy loop.
                    try? await Task.sleep(for: .milliseconds(200))
                }
            }
        }
    }

    /// Whether the long-poll loop runs (`listen(wait:)`, until `stop()`).
    package var isListening: Bool { state.withLock { $0.listener != nil } }

    /// Ends the long-poll loop, if it runs.
    package func stop() async {
        let listener = state.withLock { state in
            defer { state.listener = nil }
            return state.listener
        }
        listener?.cancel()
    }

    private func announce(_ text: String) {
        let handler = state.withLock { $0.onAnnouncement }
        handler?(text)
    }

    /// The banner text of a push payload, or nil when it cannot be read (see `PushPayload`:
    /// a payload of an unknown kind shows no banner).
    package static func announcement(fromPush payload: Data) -> String? {
        (try? PushPayload(parsing: payload))?.announcement
    }
}

extension ServiceKey where S == ActivityEventsService {
    /// `activity.events`.
    package static var activityEvents: Self { .init("activity.events") }
}
