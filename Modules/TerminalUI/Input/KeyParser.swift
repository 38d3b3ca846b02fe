/// Turns the bytes a terminal sends into input events; stateful, so a sequence split across
/// reads is still recognized.
///
/// Understands: printable text in UTF-8 (one `.character` per grapheme cluster of a read;
/// invalid bytes become U+FFFD); Enter (CR, LF, or CR LF as one), Tab, Backspace (0x7F and
/// 0x08), Ctrl-letter (`.control`); CSI and SS3 sequences for arrows, Home/End, Page Up/Down,
/// Insert/Delete, Shift-Tab and F1–F12 (modifier parameters are accepted and ignored); focus
/// in/out (`CSI I`, `CSI O`); bracketed paste (`CSI 200~` … `CSI 201~`) as one `.paste`.
/// Unknown sequences are dropped whole.
///
/// Terminal replies are never keys: a kitty graphics response (the APC `ESC _ G … ESC \`) and
/// the primary device attributes (`ESC [ ? … c`) are set aside in ``takeReplies()``. Once
/// `ESC _ G` has arrived, everything up to the string terminator is the reply's, however the
/// reads split it (like a paste, it does not time out into keys; past 64 KiB it is dropped).
///
/// Escape alone versus the start of a sequence: ESC followed by `[` or `O` starts a sequence;
/// followed by anything else it is an Escape key and the next byte is read on its own. An
/// ESC (or an unfinished sequence) at the very end of the bytes so far is held back:
/// `isAwaitingMore` turns true, and the reader calls `flush()` when no byte follows within
/// a short timeout, which reports it as Escape (and the rest as text).
///
/// O(n) in the bytes given.
///
/// ```swift
/// var parser = KeyParser()
/// parser.parse(Array("\u{1B}[".utf8))   // []  (waiting for the rest)
/// parser.parse(Array("A".utf8))         // [.key(.up)]
/// ```
public struct KeyParser: Sendable {
    /// Bytes held back: an unfinished escape sequence or UTF-8 character, or a possible
    /// partial paste terminator.
    private var pending: [UInt8] = []
    /// Whether bytes are pasted text until the paste terminator.
    private var isPasting = false
    /// The pasted bytes so far.
    private var pasteBytes: [UInt8] = []
    /// Whether the last byte seen was CR (so a following LF is part of the same Enter).
    private var lastWasCarriageReturn = false
    /// Replies read so far, for `takeReplies()`.
    private var replies: [TerminalReply] = []

    /// The longest APC reply kept whole; a longer one is dropped (its bytes never become keys).
    static let maximumReplyLength = 65_536

    private static let pasteTerminator: [UInt8] = [0x1B, 0x5B, 0x32, 0x30, 0x31, 0x7E]

    /// Makes a parser with nothing pending.
    public init() {}

    /// Whether an Escape or an unfinished sequence is held back, waiting for more bytes or
    /// for `flush()` after a timeout.
    public var isAwaitingMore: Bool { !isPasting && pending.first == 0x1B && !isInReply }

    /// Whether an APC reply (`ESC _ G`) has started and its terminator has not arrived yet.
    var isInReply: Bool {
        pending.count >= 3 && pending[0] == 0x1B && pending[1] == 0x5F && pending[2] == 0x47
    }

    /// The terminal replies read since the last call, in order; they never appear as events.
    public mutating func takeReplies() -> [TerminalReply] {
        defer { replies = [] }
        return replies
    }

    /// Whether a bracketed paste has started and not ended yet.
    public var isInPaste: Bool { isPasting }

    /// The events `bytes` complete, in order. Bytes of an unfinished sequence are kept for the
    /// next call.
    public mutating func parse<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> [InputEvent] {
        var input = pending
        pending = []
        input.append(contentsOf: bytes)
        var events: [InputEvent] = []
        process(input, from: 0, into: &events)
        return events
    }

    /// Gives up waiting: a held-back ESC is an Escape key, and the bytes after it are read
    /// as ordinary input. Nothing happens when `isAwaitingMore` is false.
    public mutating func flush() -> [InputEvent] {
        guard isAwaitingMore else { return [] }
        let input = pending
        pending = []
        var events: [InputEvent] = [.key(.escape)]
        process(input, from: 1, into: &events)
        return events
    }

    // MARK: - Bytes to events

    private mutating func process(_ input: [UInt8], from start: Int, into events: inout [InputEvent]) {
        var text: [UInt8] = []
        func flushText() {
            guard !text.isEmpty else { return }
            for character in String(decoding: text, as: UTF8.self) {
                events.append(.key(.character(character)))
            }
            text.removeAll()
        }

        var index = start
        while index < input.count {
            if isPasting {
                flushText()
                index = consumePaste(input, from: index, into: &events)
                continue
            }
            let byte = input[index]
            let afterCarriageReturn = lastWasCarriageReturn
            lastWasCarriageReturn = byte == 0x0D
            switch byte {
            case 0x1B:
                flushText()
                switch parseEscape(input, at: index) {
                case .incomplete:
                    pending = Array(input[index...])
                    if isInReply && pending.count > Self.maximumReplyLength {
                        // No terminal sends a reply this long: drop its body, still wait for its end.
                        pending = [0x1B, 0x5F, 0x47] + (pending.last == 0x1B ? [0x1B] : [])
                    }
                    return
                case .sequence(let event, let length):
                    if let event { events.append(event) }
                    index += length
                }
                continue
            case 0x0D:
                flushText()
                events.append(.key(.enter))
            case 0x0A:
                flushText()
                if !afterCarriageReturn { events.append(.key(.enter)) }
            case 0x09:
                flushText()
                events.append(.key(.tab))
            case 0x7F, 0x08:
                flushText()
                events.append(.key(.backspace))
            case 0x00:
                flushText()
                events.append(.key(.control("@")))
            case 0x01...0x1A:
                flushText()
                events.append(.key(.control(Character(Unicode.Scalar(byte + 0x60)))))
            case 0x1C...0x1F:
                flushText()
                let names: [Character] = ["\\", "]", "^", "_"]
                events.append(.key(.control(names[Int(byte - 0x1C)])))
            case 0x20...0x7E:
                text.append(byte)
            default:
                let length = Self.utf8Length(lead: byte)
                if length == 0 {
                    text += [0xEF, 0xBF, 0xBD]
                    break
                }
                let available = min(length, input.count - index)
                let continuationsValid = (1..<available).allSatisfy {
                    (0x80...0xBF).contains(input[index + $0])
                }
                if !continuationsValid {
                    text += [0xEF, 0xBF, 0xBD]
                    break
                }
                if available < length {
                    // The rest of the character is in a later read.
                    flushText()
                    pending = Array(input[index...])
                    return
                }
                text += input[index..<(index + length)]
                index += length
                continue
            }
            index += 1
        }
        flushText()
    }

    /// Collects pasted bytes up to the terminator; returns where to continue.
    private mutating func consumePaste(_ input: [UInt8], from start: Int, into events: inout [InputEvent])
        -> Int
    {
        let terminator = Self.pasteTerminator
        var index = start
        while index + terminator.count <= input.count {
            if input[index] == 0x1B && Array(input[index..<(index + terminator.count)]) == terminator {
                pasteBytes += input[start..<index]
                events.append(.paste(Self.normalizedPaste(pasteBytes)))
                pasteBytes = []
                isPasting = false
                return index + terminator.count
            }
            index += 1
        }
        // No terminator yet: keep a tail that may be its beginning.
        var keep = min(terminator.count - 1, input.count - start)
        while keep > 0 && Array(input[(input.count - keep)...]) != Array(terminator[0..<keep]) {
            keep -= 1
        }
        pasteBytes += input[start..<(input.count - keep)]
        pending = Array(input[(input.count - keep)...])
        return input.count
    }

    private static func normalizedPaste(_ bytes: [UInt8]) -> String {
        var text = String(decoding: bytes, as: UTF8.self)
        text = text.replacingAll("\r\n", with: "\n")
        return text.replacingAll("\r", with: "\n")
    }

    /// The length of the UTF-8 sequence `lead` starts, or 0 when it cannot start one.
    private static func utf8Length(lead: UInt8) -> Int {
        switch lead {
        case 0xC2...0xDF: 2
        case 0xE0...0xEF: 3
        case 0xF0...0xF4: 4
        default: 0
        }
    }

    // MARK: - Escape sequences

    private enum EscapeParse {
        /// More bytes are needed to tell.
        case incomplete
        /// `length` bytes make one event (nil: a sequence that reports nothing).
        case sequence(InputEvent?, length: Int)
    }

    private mutating func parseEscape(_ input: [UInt8], at start: Int) -> EscapeParse {
        guard start + 1 < input.count else { return .incomplete }
        switch input[start + 1] {
        case 0x5B:  // "[": CSI parameters, intermediates, final byte.
            var index = start + 2
            while index < input.count && (0x30...0x3F).contains(input[index]) { index += 1 }
            while index < input.count && (0x20...0x2F).contains(input[index]) { index += 1 }
            guard index < input.count else { return .incomplete }
            let final = input[index]
            guard (0x40...0x7E).contains(final) else {
                // Malformed: drop what was read and go on from the offending byte.
                return .sequence(nil, length: index - start)
            }
            let parameters = String(decoding: input[(start + 2)..<index], as: UTF8.self)
            if final == 0x63, parameters.hasPrefix("?") {
                // "c" after "?": the primary device attributes (the answer to `ESC [ c`).
                replies.append(
                    .primaryDeviceAttributes(
                        parameters.dropFirst().split(separator: ";").compactMap { Int($0) }))
                return .sequence(nil, length: index - start + 1)
            }
            return .sequence(csiEvent(parameters: parameters, final: final), length: index - start + 1)
        case 0x5F:  // "_": an APC; `ESC _ G` is a kitty graphics reply, up to ST (ESC \) or BEL.
            guard start + 2 < input.count else { return .incomplete }
            guard input[start + 2] == 0x47 else { return .sequence(.key(.escape), length: 1) }
            var index = start + 3
            while index < input.count {
                if input[index] == 0x07 {
                    replies +=
                        TerminalReply.graphics(apcBody: Array(input[(start + 2)..<index])).map { [$0] } ?? []
                    return .sequence(nil, length: index - start + 1)
                }
                if input[index] == 0x1B {
                    guard index + 1 < input.count else { break }
                    if input[index + 1] == 0x5C {
                        replies +=
                            TerminalReply.graphics(apcBody: Array(input[(start + 2)..<index])).map { [$0] }
                            ?? []
                        return .sequence(nil, length: index - start + 2)
                    }
                }
                index += 1
            }
            return .incomplete
        case 0x4F:  // "O": SS3 and one final byte.
            guard start + 2 < input.count else { return .incomplete }
            return .sequence(Self.ss3Event(final: input[start + 2]), length: 3)
        default:
            // ESC then something that starts no sequence: Escape, then that byte on its own.
            return .sequence(.key(.escape), length: 1)
        }
    }

    private mutating func csiEvent(parameters: String, final: UInt8) -> InputEvent? {
        let numbers = parameters.split(separator: ";").map { Int($0) }
        let first = numbers.first ?? nil
        switch final {
        case 0x41: return .key(.up)
        case 0x42: return .key(.down)
        case 0x43: return .key(.right)
        case 0x44: return .key(.left)
        case 0x48: return .key(.home)
        case 0x46: return .key(.end)
        case 0x5A: return .key(.backTab)
        case 0x49: return parameters.isEmpty ? .focusGained : nil
        case 0x4F: return parameters.isEmpty ? .focusLost : nil
        case 0x50...0x53: return .key(.function(Int(final) - 0x50 + 1))
        case 0x7E:
            switch first {
            case 1, 7: return .key(.home)
            case 2: return .key(.insert)
            case 3: return .key(.delete)
            case 4, 8: return .key(.end)
            case 5: return .key(.pageUp)
            case 6: return .key(.pageDown)
            case .some(let code) where (11...15).contains(code): return .key(.function(code - 10))
            case .some(let code) where (17...21).contains(code): return .key(.function(code - 11))
            case 23: return .key(.function(11))
            case 24: return .key(.function(12))
            case 200:
                isPasting = true
                pasteBytes = []
                return nil
            default: return nil
            }
        default: return nil
        }
    }

    private static func ss3Event(final: UInt8) -> InputEvent? {
        switch final {
        case 0x41: .key(.up)
        case 0x42: .key(.down)
        case 0x43: .key(.right)
        case 0x44: .key(.left)
        case 0x48: .key(.home)
        case 0x46: .key(.end)
        case 0x4D: .key(.enter)
        case 0x50...0x53: .key(.function(Int(final) - 0x50 + 1))
        default: nil
        }
    }
}
