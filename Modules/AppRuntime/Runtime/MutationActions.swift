import Features
import Foundation
import MediaModel
import Mutations
import ServerAPI
import Wire

/// The viewer's changes, carried out by the mutation manager: each is journaled (durable before
/// anything is sent), shown at once through the optimistic layer, and sent in its lane with its
/// client token. Screens only ever call these.
@MainActor
final class MutationActions: ViewerActions {
    let manager: MutationManager
    private weak var context: AppContext?

    init(manager: MutationManager, context: AppContext) {
        self.manager = manager
        self.context = context
    }

    func submit(_ draft: Draft) {
        let attachments = draft.photo.map { [Attachment.photo($0)] } ?? []
        let mutation: Mutation =
            if let parent = draft.replyingTo {
                .reply(to: parent.id, text: draft.text, attachments: attachments)
            } else {
                .post(text: draft.text, attachments: attachments)
            }
        enqueue(mutation, done: draft.replyingTo == nil ? "posting…" : "replying…")
    }

    func toggleLike(_ media: Media, liked: Bool) {
        enqueue(liked ? .like(media.id) : .unlike(media.id), done: nil)
    }

    func repost(_ media: Media) {
        enqueue(.repost(media.id), done: nil)
    }

    private func enqueue(_ mutation: Mutation, done message: String?) {
        guard let context else { return }
        let manager = manager
        context.tracker.run { [weak context] in
            do {
                let token = try await manager.enqueue(mutation)
                if let message {
                    // Said while it is true: the status line drops it once the server has the change.
                    context?.navigator?.showProgress(message) { [manager] in
                        guard let state = manager.record(for: token)?.state else { return false }
                        return state == .pending || state == .inFlight
                    }
                }
            } catch {
                context?.navigator?.showMessage("✕ could not save the change: \(error)")
            }
            if case .post = mutation { context?.navigator?.revealNewest() }
        }
    }

    var pendingChanges: [ChangeSummary] { manager.pending.map(summary) }

    var failedChanges: [ChangeSummary] { manager.failed.map(summary) }

    var journalProblem: String? { manager.journalWriteFailure }

    private func summary(_ record: MutationRecord) -> ChangeSummary {
        var detail: String
        switch record.state {
        case .failed:
            detail = "failed: " + (record.lastError ?? "refused by the server")
        case .inFlight:
            detail = "sending (attempt \(record.attempts + 1))"
        case .pending, .confirmed:
            detail = record.attempts == 0 ? "waiting to send" : "attempt \(record.attempts)"
            if let next = record.nextAttemptAt, let now = context?.clock.now, next > now {
                detail += ", next in \(Int(next.timeIntervalSince(now).rounded(.up)))s"
            }
            if let error = record.lastError { detail += " · \(error)" }
        }
        return ChangeSummary(
            token: record.token.rawValue, title: Self.title(of: record.mutation), detail: detail)
    }

    static func title(of mutation: Mutation) -> String {
        func quoted(_ text: String) -> String {
            let first = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
            return "\"" + (first.count > 24 ? first.prefix(23) + "…" : first) + "\""
        }
        switch mutation {
        case .post(let text, _): return "post \(quoted(text))"
        case .reply(let parent, let text, _): return "reply to \(parent.rawValue) \(quoted(text))"
        case .like(let id): return "like \(id.rawValue)"
        case .unlike(let id): return "unlike \(id.rawValue)"
        case .repost(let id): return "repost \(id.rawValue)"
        case .delete(let id): return "delete \(id.rawValue)"
        case .follow(let id): return "follow \(id.rawValue)"
        case .unfollow(let id): return "unfollow \(id.rawValue)"
        }
    }

    func attemptLog(limit: Int) -> [String] {
        guard limit > 0, let attempts = try? manager.attemptLog(limit: limit) else { return [] }
        let formatter = AttemptLogFormatter(detailWidth: 40)
        return attempts.reversed().map(formatter.line)
    }

    func retry(_ change: ChangeSummary) {
        do {
            try manager.retry(MutationToken(change.token))
        } catch {
            context?.navigator?.showMessage("✕ cannot retry: \(error)")
        }
    }

    func discard(_ change: ChangeSummary) {
        do {
            try manager.discard(MutationToken(change.token))
        } catch {
            context?.navigator?.showMessage("✕ cannot discard: \(error)")
        }
    }
}
