import Foundation
import Storage
import Testing

/// What a person reads when the app's data directory cannot be made: what could not be done,
/// with which path, why in words, and what to do (never Foundation's "error 512").
@Suite struct DirectoryErrorTests {
    @Test func appDataDirectoryUnderAFile_saysWhichPathIsAFile() throws {
        // Given a data directory asked for inside a plain file
        let temporary = try TemporaryDirectory()
        let file = temporary.path("notes.txt")
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))

        // When the app database opens there
        #expect {
            _ = try AppDatabaseService.open(directory: file + "/data", fileName: "app.sqlite", migrations: [])
        } throws: { error in
            // Then the message names the path, the file in the way, and what to do
            (error as? AppDatabaseError)?.message
                == "cannot create the app data directory '\(file)/data': '\(file)' is a file, not a "
                + "directory; pass a --data-dir you can write to"
        }
    }
}

/// The words for each file-system failure, from the POSIX error beneath Foundation's (failures a
/// test running as root cannot cause on disk are built as Foundation reports them).
@Suite struct FileSystemReasonTests {
    /// Foundation's error for a failed write on Linux: Cocoa's 512 with the POSIX error under it.
    static func cocoa512(_ code: POSIXErrorCode, path: String) -> any Error {
        CocoaError(
            .fileWriteUnknown, userInfo: [NSUnderlyingErrorKey: POSIXError(code), NSFilePathErrorKey: path])
    }

    @Test func permissionDenied_namesTheDirectoryThatCannotBeWritten() throws {
        let temporary = try TemporaryDirectory()
        let path = temporary.path("locked") + "/data"
        try FileManager.default.createDirectory(
            atPath: temporary.path("locked"), withIntermediateDirectories: true)

        #expect(
            FileSystemReason.describe(Self.cocoa512(.EACCES, path: path), at: path)
                == "permission denied: you cannot write in '\(temporary.path("locked"))'")
        #expect(
            FileSystemReason.describe(CocoaError(.fileWriteNoPermission), at: path)
                == "permission denied: you cannot write in '\(temporary.path("locked"))'")
    }

    @Test func fullDiskReadOnlyAndQuota_sayWhatIsFull() {
        #expect(
            FileSystemReason.describe(Self.cocoa512(.ENOSPC, path: "/d"), at: "/d")
                == "no space left on the device")
        #expect(
            FileSystemReason.describe(CocoaError(.fileWriteOutOfSpace), at: "/d")
                == "no space left on the device")
        #expect(
            FileSystemReason.describe(Self.cocoa512(.EROFS, path: "/d"), at: "/d")
                == "the file system is read-only")
        #expect(
            FileSystemReason.describe(Self.cocoa512(.EDQUOT, path: "/d"), at: "/d")
                == "your disk quota is used up")
    }

    @Test func aFileInThePath_isNamed_fromTheRealError() throws {
        let temporary = try TemporaryDirectory()
        let file = temporary.path("notes.txt")
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        let path = file + "/a/b"

        let error = #expect(throws: (any Error).self) {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }

        #expect("\(String(describing: error))".contains("512"), "Foundation's own words are the bare 512")
        #expect(
            FileSystemReason.describe(try #require(error), at: path) == "'\(file)' is a file, not a directory"
        )
    }

    @Test func anErrorWithoutAPOSIXCause_saysSoInsteadOfAnErrorNumber() {
        struct Odd: Error {}
        #expect(FileSystemReason.describe(Odd(), at: "/d") == "the system refused without saying why")
    }
}
