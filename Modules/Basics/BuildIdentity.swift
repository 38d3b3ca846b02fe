import Glibc

/// The running executable's GNU build id: the hash the linker writes into every binary it links
/// (`readelf -n`), so it changes whenever the code does. A value derived from the code alone
/// (how the app draws a sample post, say) can be stored under it and read back by the next
/// launch of the same build instead of derived again.
///
/// ```swift
/// if let build = BuildIdentity.current {
///     fingerprint.combine(build)   // the same bytes in every launch of this binary
/// }
/// ```
///
/// Read once a process from the executable's notes already in memory, found through
/// `/proc/self/auxv` (one small read). Linux only (the apps' platform); 64-bit ELF.
public enum BuildIdentity {
    /// The build id's bytes (20 for the usual SHA-1), or nil when the executable was linked
    /// without one: then nothing may be assumed about a later launch's code.
    public static let current: [UInt8]? = mainExecutableBuildID()
}

/// The `NT_GNU_BUILD_ID` note among the main program's note segments, found through the program
/// headers the kernel hands every process (`AT_PHDR`, `AT_PHNUM` in `/proc/self/auxv`); the
/// load address is where the headers are less where the file says they are (`PT_PHDR`).
private func mainExecutableBuildID() -> [UInt8]? {
    // The auxiliary vector: (type, value) pairs of 64-bit words, ended by type 0.
    let file = open("/proc/self/auxv", O_RDONLY | O_CLOEXEC)
    guard file >= 0 else { return nil }
    defer { close(file) }
    var words = [UInt64](repeating: 0, count: 128)
    let length = words.withUnsafeMutableBytes { read(file, $0.baseAddress, $0.count) }
    guard length > 0 else { return nil }
    var headersAt: UInt64 = 0
    var headerCount = 0
    for pair in stride(from: 0, to: length / 16 * 2, by: 2) {
        switch words[pair] {
        case 3: headersAt = words[pair + 1]  // AT_PHDR
        case 5: headerCount = Int(words[pair + 1])  // AT_PHNUM
        default: break
        }
    }
    guard headerCount > 0, let first = UnsafePointer<Elf64_Phdr>(bitPattern: UInt(headersAt)) else {
        return nil
    }
    let headers = UnsafeBufferPointer(start: first, count: headerCount)
    guard let own = headers.first(where: { $0.p_type == 6 }) else { return nil }  // PT_PHDR
    let base = UInt(bitPattern: first) &- UInt(own.p_vaddr)
    for header in headers where header.p_type == 4 {  // PT_NOTE
        guard let notes = UnsafeRawPointer(bitPattern: base &+ UInt(header.p_vaddr)) else { continue }
        if let id = buildIDNote(in: UnsafeRawBufferPointer(start: notes, count: Int(header.p_memsz))) {
            return id
        }
    }
    return nil
}

/// The description of the build-id note among `notes` (an ELF note segment: name size,
/// description size and type, then the name and the description, each padded to 4 bytes).
package func buildIDNote(in notes: UnsafeRawBufferPointer) -> [UInt8]? {
    func padded(_ size: Int) -> Int { (size + 3) & ~3 }
    var offset = 0
    while offset + 12 <= notes.count {
        let nameSize = Int(notes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
        let descriptionSize = Int(notes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self))
        let type = notes.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self)
        let name = offset + 12
        let description = name + padded(nameSize)
        guard description + descriptionSize <= notes.count else { return nil }
        // NT_GNU_BUILD_ID (3), named "GNU" with its terminating zero.
        if type == 3, nameSize == 4, Array(notes[name..<name + 4]) == [0x47, 0x4E, 0x55, 0],
            descriptionSize > 0
        {
            return Array(notes[description..<description + descriptionSize])
        }
        offset = description + padded(descriptionSize)
    }
    return nil
}
