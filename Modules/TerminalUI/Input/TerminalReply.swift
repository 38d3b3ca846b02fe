/// An answer the terminal sent to a query, read from its input like keys but never delivered
/// as one: ``KeyParser`` sets replies apart, and ``Terminal/replies`` carries them.
public enum TerminalReply: Hashable, Sendable, CustomStringConvertible {
    /// A kitty graphics protocol response, `ESC _ G i=<id>;<message> ESC \`: the id it is
    /// about (nil when it names none) and its message (`OK`, or an error such as `ENOENT:…`).
    case graphics(id: UInt32?, message: String)
    /// The primary device attributes, `ESC [ ? <attributes> c` (the answer to `ESC [ c`).
    case primaryDeviceAttributes([Int])

    /// `graphics(31, "OK")`, `primaryDeviceAttributes(62;22)`.
    public var description: String {
        switch self {
        case .graphics(let id, let message):
            "graphics(\(id.map(String.init) ?? "-"), \(message.debugDescription))"
        case .primaryDeviceAttributes(let attributes):
            "primaryDeviceAttributes(\(attributes.map(String.init).joined(separator: ";")))"
        }
    }

    /// The reply an APC body (the bytes between `ESC _` and `ESC \`) stands for; nil when it is
    /// not a graphics response.
    static func graphics(apcBody body: [UInt8]) -> TerminalReply? {
        guard body.first == UInt8(ascii: "G") else { return nil }
        let text = String(decoding: body.dropFirst(), as: UTF8.self)
        let control: Substring
        let message: Substring
        if let semicolon = text.firstIndex(of: ";") {
            control = text[..<semicolon]
            message = text[text.index(after: semicolon)...]
        } else {
            control = Substring(text)
            message = ""
        }
        var id: UInt32?
        for pair in control.split(separator: ",") where pair.hasPrefix("i=") {
            id = UInt32(pair.dropFirst(2))
        }
        return .graphics(id: id, message: String(message))
    }
}
