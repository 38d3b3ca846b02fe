import CommandLineKit
import Foundation
import ServerTesting
import Testing

/// `backend-server`'s own command line, run as the built executable (it is built next to this
/// test bundle): what a person sees when they ask it what it is.
@Suite struct BackendServerCommandTests {
    /// The path of `backend-server`, built next to the test bundle.
    static var executable: String { PipedServerProcess.backendServerPath }

    @Test func version_printsTheToolsNameAndVersion_andExitsZero() throws {
        let result = try Subprocess.run(Self.executable, ["--version"])
        #expect(result.status == 0)
        #expect(String(decoding: result.output, as: UTF8.self) == "backend-server \(ToolVersion.current)\n")
        #expect(result.errorText.isEmpty)
    }

    @Test func help_listsVersion() throws {
        let result = try Subprocess.run(Self.executable, ["--help"])
        #expect(result.status == 0)
        #expect(String(decoding: result.output, as: UTF8.self).contains("\n  --version  "))
    }
}
