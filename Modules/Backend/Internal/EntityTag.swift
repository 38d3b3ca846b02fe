import Basics
import Foundation
import Wire

/// The backend's entity tags (HTTP's `ETag` and `If-None-Match`): a GET answered 200 with JSON
/// carries a tag of what it shows this viewer, and a request sending that tag back gets a 304
/// with no body while it still holds.
///
/// The feed's tag is made from what its query returns before the page is written (each entry's
/// rank key, its post's and parent's ids and revisions, the reposter's stored JSON), so a
/// refresh that finds nothing new costs the ranking walk and no facts, JSON or body. Every
/// other JSON answer's tag is a hash of its body. A post's revision moves with every change a
/// page shows of it (likes, replies, reposts, its author's name), and `version` with any change
/// to how pages are written, so a tag never outlives what it names.
enum EntityTag {
    /// Bumped when the form of the documents changes, so tags from an older build miss.
    static let version = 1

    /// A tag hashing `parts` (and the version), quoted as HTTP writes it: `"f3a9…"`.
    static func make(_ kind: Character, _ hash: UInt64) -> String {
        let hex = String(hash, radix: 16)
        return "\"\(kind)" + String(repeating: "0", count: max(0, 16 - hex.count)) + hex + "\""
    }

    /// The tag of a body: FNV-1a of its bytes.
    static func ofBody(_ body: Data) -> String {
        var hash = FNV1a()
        hash.combine(CollectionOfOne(UInt8(version)))
        hash.combine(body)
        return make("b", hash.value)
    }

    /// Whether an `If-None-Match` header names `tag` (a list of tags, `*`, weak tags compared
    /// weakly as RFC 9110 says for this header).
    static func matches(_ header: String?, _ tag: String) -> Bool {
        guard let header else { return false }
        let bare = tag.hasPrefix("W/") ? String(tag.dropFirst(2)) : tag
        for candidate in header.split(separator: ",") {
            let trimmed = candidate.trimmingOptionalWhitespace()
            if trimmed == "*" { return true }
            let value = trimmed.hasPrefix("W/") ? String(trimmed.dropFirst(2)) : trimmed
            if value == bare { return true }
        }
        return false
    }

    /// `response` with its tag, or a 304 when the request already holds it: GETs answered 200
    /// with JSON only (not the event stream's long poll, whose answer is never the same twice).
    static func conditional(_ request: Request, _ response: Response) -> Response {
        guard request.method == .get, response.status == 200, request.path != "/v1/events",
            response.headers["Content-Type"]?.hasPrefix("application/json") == true
        else { return response }
        var response = response
        let tag = response.headers["ETag"] ?? ofBody(response.body)
        response.headers["ETag"] = tag
        return matches(request.headers["If-None-Match"], tag) ? notModified(tag) : response
    }

    /// A 304 for `tag`: no body.
    static func notModified(_ tag: String) -> Response {
        Response(status: 304, headers: ["ETag": tag])
    }
}
