/// Editable text and a cursor, in grapheme clusters: the model behind `TextField`.
///
/// The cursor is an index between graphemes (0...count). Editing never splits a grapheme:
/// backspace removes a whole cluster ("é" as e + U+0301, a ZWJ family, a flag). Inserting a
/// combining mark after a letter joins it to that letter. A value type, usable on any task.
///
/// ```swift
/// var text = TextEditBuffer("helo")
/// text.moveLeft()
/// text.insert("l")          // "hello", cursor before "o"
/// text.characterCount       // 5
/// ```
public struct TextEditBuffer: Hashable, Sendable {
    /// The graphemes.
    public private(set) var characters: [Character]
    /// The cursor: the number of graphemes before it.
    public private(set) var cursor: Int
    /// The most graphemes the text may hold (nil: no limit); inserts are cut to fit.
    public var limit: Int?

    /// Makes a buffer holding `text`, the cursor at its end.
    public init(_ text: String = "", limit: Int? = nil) {
        var characters = Array(text)
        if let limit, characters.count > limit { characters = Array(characters.prefix(max(limit, 0))) }
        self.characters = characters
        self.cursor = characters.count
        self.limit = limit
    }

    /// The text.
    public var text: String { String(characters) }

    /// The number of graphemes (what a user calls characters).
    public var characterCount: Int { characters.count }

    /// Whether the text is empty.
    public var isEmpty: Bool { characters.isEmpty }

    /// The cursor's column in the unwrapped text: the display width before it.
    public var cursorColumn: Int { DisplayWidth.of(String(characters[0..<cursor])) }

    /// Replaces the text; the cursor goes to its end.
    public mutating func setText(_ text: String) {
        self = TextEditBuffer(text, limit: limit)
    }

    /// Inserts `text` at the cursor and moves the cursor after it. O(length).
    public mutating func insert(_ text: String) {
        guard !text.isEmpty else { return }
        var inserted = text
        if let limit {
            let room = max(limit - characters.count, 0)
            let merged = Array(String(characters[..<cursor]) + text).count - cursor
            if merged > room { inserted = String(Array(text).prefix(room)) }
            guard !inserted.isEmpty else { return }
        }
        let before = String(characters[..<cursor]) + inserted
        let after = String(characters[cursor...])
        let beforeCount = before.count
        characters = Array(before + after)
        cursor = min(beforeCount, characters.count)
    }

    /// Removes the grapheme before the cursor.
    public mutating func backspace() {
        guard cursor > 0 else { return }
        characters.remove(at: cursor - 1)
        cursor -= 1
    }

    /// Removes the grapheme after the cursor.
    public mutating func deleteForward() {
        guard cursor < characters.count else { return }
        characters.remove(at: cursor)
    }

    /// Moves the cursor one grapheme left.
    public mutating func moveLeft() { cursor = max(cursor - 1, 0) }
    /// Moves the cursor one grapheme right.
    public mutating func moveRight() { cursor = min(cursor + 1, characters.count) }
    /// Moves the cursor to the start.
    public mutating func moveToStart() { cursor = 0 }
    /// Moves the cursor to the end.
    public mutating func moveToEnd() { cursor = characters.count }

    /// Moves the cursor `lines` wrapped lines down (negative: up) at `width`, to the same column
    /// or the end of a shorter line. Returns false, moving nothing, when there is no such line.
    /// O(length).
    @discardableResult
    public mutating func moveVertically(by lines: Int, width: Int) -> Bool {
        let ranges = wrappedLineRanges(width: max(width, 2))
        let current = ranges.lastIndex { $0.lowerBound <= cursor } ?? 0
        let target = current + lines
        guard ranges.indices.contains(target), lines != 0 else { return false }
        let column = DisplayWidth.of(String(characters[ranges[current].lowerBound..<cursor]))
        var position = ranges[target].lowerBound
        var width = 0
        while position < ranges[target].upperBound {
            let next = DisplayWidth.of(characters[position])
            guard width + next <= column else { break }
            width += next
            position += 1
        }
        cursor = position
        return true
    }

    /// Applies an editing key: printable characters, backspace, delete, left, right, home,
    /// end, Ctrl-A/E (start/end), Ctrl-U (clear). Returns false for keys that do not edit.
    @discardableResult
    public mutating func handle(_ key: Key) -> Bool {
        switch key {
        case .character(let character): insert(String(character))
        case .backspace: backspace()
        case .delete: deleteForward()
        case .left: moveLeft()
        case .right: moveRight()
        case .home, .control("a"): moveToStart()
        case .end, .control("e"): moveToEnd()
        case .control("u"): setText("")
        default: return false
        }
        return true
    }
}
