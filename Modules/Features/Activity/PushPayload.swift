import Basics
import Foundation
import MediaModel

/// A push event's payload, read and checked: a banner of its own (`{"message": "…"}`) or news of
/// someone's activity (`{"kind": "like", "from": "grace", "text": "…"}`, with `from` and `text`
/// optional).
///
/// ```swift
/// let push = try PushPayload(parsing: Data(#"{"kind": "like", "from": "grace"}"#.utf8))
/// push.announcement  // "♥ @grace liked your post"
/// ```
package enum PushPayload: Sendable, Equatable {
    /// A banner with this text.
    case message(String)
    /// Someone's activity: what they did, their handle, and what they wrote.
    case activity(Kind, from: String?, text: String?)

    /// What someone did.
    package enum Kind: String, CaseIterable, Sendable {
        /// Replied to the viewer.
        case reply
        /// Liked the viewer's post.
        case like
        /// Followed the viewer.
        case follow
        /// Mentioned the viewer.
        case mention
    }

    /// The fields a payload may have.
    package static let fields = ["kind", "from", "text", "message"]

    /// Reads a payload.
    ///
    /// - Throws: `PushPayloadError` when the bytes are not JSON, not an object, have neither a
    ///   known `kind` nor a `message`, a field that is not text, or a field no payload has.
    package init(parsing data: Data) throws(PushPayloadError) {
        let example = #"{"kind": "like", "from": "grace"}"#
        guard let json = try? JSONValue(parsing: data) else {
            throw PushPayloadError("not valid JSON; write an object such as \(example)")
        }
        guard let object = json.objectValue else {
            throw PushPayloadError("expected an object such as \(example)")
        }
        for key in object.keys.sorted() where !Self.fields.contains(key) {
            let hint = Suggestion.didYouMean(key, in: Self.fields)
            throw PushPayloadError(
                "unknown field '\(key)'"
                    + (hint.isEmpty ? "; the fields are \(Self.fields.joined(separator: ", "))" : hint))
        }
        func text(_ key: String) throws(PushPayloadError) -> String? {
            guard let value = object[key] else { return nil }
            guard let text = value.stringValue else {
                throw PushPayloadError(
                    "\"\(key)\" must be text, found \(String(decoding: value.serialized(), as: UTF8.self))")
            }
            return text
        }
        if let message = try text("message") {
            guard !message.isEmpty else {
                throw PushPayloadError(#""message" is empty; write the banner's text"#)
            }
            self = .message(message)
            return
        }
        let kinds = Kind.allCases.map(\.rawValue)
        guard let name = try text("kind") else {
            throw PushPayloadError(#"it needs a "kind" (\#(kinds.joined(separator: ", "))) or a "message""#)
        }
        guard let kind = Kind(rawValue: name) else {
            let hint = Suggestion.didYouMean(name, in: kinds)
            throw PushPayloadError(
                "unknown kind '\(name)'"
                    + (hint.isEmpty ? "; use one of \(kinds.joined(separator: ", "))" : hint))
        }
        self = .activity(kind, from: try text("from"), text: try text("text"))
    }

    /// The banner's text.
    package var announcement: String {
        switch self {
        case .message(let message):
            return message
        case .activity(let kind, let from, let text):
            let who = from.map { "@" + $0 } ?? "someone"
            let quote = text.map { ": \"\($0)\"" } ?? ""
            switch kind {
            case .reply: return "↩ \(who) replied\(quote)"
            case .like: return "♥ \(who) liked your post\(quote)"
            case .follow: return "☺ \(who) followed you"
            case .mention: return "@ \(who) mentioned you\(quote)"
            }
        }
    }
}

/// A push payload that cannot be read, and why.
package struct PushPayloadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, quoting the offending value.
    package var description: String

    /// Makes an error.
    package init(_ description: String) {
        self.description = description
    }
}
