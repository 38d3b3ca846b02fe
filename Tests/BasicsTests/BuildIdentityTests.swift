import Basics
import Testing

/// The running executable's build id, and the reading of ELF notes it comes from.
@Suite struct BuildIdentityTests {
    /// The linker writes a build id into the test executable as into the apps: 20 bytes, the
    /// same every time it is asked.
    @Test func theTestExecutable_hasABuildID() throws {
        let id = try #require(BuildIdentity.current)
        #expect(id.count == 20)
        #expect(BuildIdentity.current == id)
        #expect(id.contains { $0 != 0 })
    }
}

/// The note reader on notes laid out as a linker writes them.
@Suite struct BuildIDNoteTests {
    /// One note: name size, description size, type, then the name and the description, each
    /// padded to 4 bytes.
    private func note(type: UInt32, name: [UInt8], description: [UInt8]) -> [UInt8] {
        func word(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) } }
        func padded(_ bytes: [UInt8]) -> [UInt8] {
            bytes + [UInt8](repeating: 0, count: (4 - bytes.count % 4) % 4)
        }
        return word(UInt32(name.count)) + word(UInt32(description.count)) + word(type) + padded(name)
            + padded(description)
    }

    private let gnu: [UInt8] = [0x47, 0x4E, 0x55, 0]

    @Test func theBuildID_isFoundAfterAnotherNote() {
        let id: [UInt8] = Array(1...20)
        let notes =
            note(type: 1, name: gnu, description: [0, 0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0])
            + note(type: 3, name: gnu, description: id)
        #expect(notes.withUnsafeBytes { buildIDNote(in: $0) } == id)
    }

    @Test func aNoteOfAnotherOwner_orAnotherType_orCutShort_isNoBuildID() {
        let id: [UInt8] = Array(1...20)
        let otherOwner = note(type: 3, name: [0x58, 0x59, 0x5A, 0], description: id)
        let otherType = note(type: 4, name: gnu, description: id)
        let cut = Array(note(type: 3, name: gnu, description: id).dropLast(4))
        #expect(otherOwner.withUnsafeBytes { buildIDNote(in: $0) } == nil)
        #expect(otherType.withUnsafeBytes { buildIDNote(in: $0) } == nil)
        #expect(cut.withUnsafeBytes { buildIDNote(in: $0) } == nil)
    }
}
