/// Reads the answers to ``KittyGraphics/supportQuery(id:)``: the graphics reply for the query's
/// id before the device attributes means the terminal speaks the kitty graphics protocol; the
/// device attributes first (a terminal that ignored the query) means it does not.
///
/// ```swift
/// var probe = KittyGraphicsProbe(id: 31)
/// probe.receive(.graphics(id: 31, message: "OK"))      // true
/// probe.receive(.primaryDeviceAttributes([62, 22]))    // true (decided already)
/// ```
public struct KittyGraphicsProbe: Hashable, Sendable {
    /// The id the query was sent with.
    public let id: UInt32
    /// The answer, once one is known.
    public private(set) var verdict: Bool?

    /// A probe for a query sent with `id`, with no answer yet.
    public init(id: UInt32) {
        self.id = id
    }

    /// Takes one reply; returns the verdict once known. A graphics reply for another id is
    /// ignored; one for this id is true when its message is `OK` (an error means the images
    /// would not show either).
    @discardableResult
    public mutating func receive(_ reply: TerminalReply) -> Bool? {
        guard verdict == nil else { return verdict }
        switch reply {
        case .graphics(let replyID, let message) where replyID == id:
            verdict = message == "OK"
        case .graphics:
            break
        case .primaryDeviceAttributes:
            verdict = false
        }
        return verdict
    }

    /// The verdict from `replies`, or false when none comes within `timeout`.
    public static func answer(in replies: AsyncStream<TerminalReply>, id: UInt32, timeout: Duration) async
        -> Bool
    {
        await withTaskGroup(of: Bool?.self) { group in
            group.addTask {
                var probe = KittyGraphicsProbe(id: id)
                for await reply in replies {
                    if let verdict = probe.receive(reply) { return verdict }
                }
                return false
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first ?? false
        }
    }
}
