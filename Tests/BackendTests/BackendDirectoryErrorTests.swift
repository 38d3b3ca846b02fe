import Backend
import Foundation
import Testing

/// What a person reads when the backend's directory cannot be made: the path, why in words, and
/// what to do (never Foundation's "error 512").
@Suite struct BackendDirectoryErrorTests {
    @Test func backendDirectoryUnderAFile_saysWhichPathIsAFile() throws {
        // Given a backend directory asked for inside a plain file
        let directory = try BackendFixture.temporaryDirectory("backend-directory-error")
        let file = directory + "/notes.txt"
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))

        // When the backend opens there
        #expect {
            _ = try BackendServer(directory: file + "/backend")
        } throws: { error in
            // Then the message names the path, the file in the way, and what to do
            "\(error)"
                == "cannot create the backend directory '\(file)/backend': '\(file)' is a file, not a "
                + "directory; choose a directory you can write to"
        }
    }
}
