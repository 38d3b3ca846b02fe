import CommandLineKit
import Foundation
import Testing

/// `backend-server`'s own command line, run as the built executable (it is built next to this
/// test bundle): what a person sees when they ask it what it is.
@Suite struct BackendServerCommandTests {
    /// The path of `backend-server`, built next to the test bundle.
    static var executable: String {
        let bundle =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        var directory = (bundle as NSString).deletingLastPathComponent
        // On some platforms the bundle's executable sits inside <name>.xctest/Contents/MacOS.
        while directory.contains(".xctest") { directory = (directory as NSString).deletingLastPathComponent }
        return (directory as NSString).appendingPathComponent("backend-server")
    }

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
