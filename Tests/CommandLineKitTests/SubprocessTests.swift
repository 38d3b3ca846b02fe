import CommandLineKit
import Foundation
import Testing

@Suite struct SubprocessTests {
    @Test func aProgramsOutputsAndStatus_areCollected() throws {
        // Given a program writing to both outputs, more than a pipe holds, and exiting 3
        let result = try Subprocess.run(
            "/bin/sh", ["-c", "head -c 200000 /dev/zero | tr '\\0' o; echo oops >&2; exit 3"])
        #expect(result.status == 3)
        #expect(result.output.count == 200_000)
        #expect(result.output.allSatisfy { $0 == UInt8(ascii: "o") })
        #expect(result.errorText == "oops\n")
    }

    @Test func aLargeStandardError_doesNotBlockTheProgram() throws {
        // Standard error filling its pipe before standard output is read must not deadlock.
        let result = try Subprocess.run("/bin/sh", ["-c", "head -c 300000 /dev/zero >&2; echo done"])
        #expect(result.status == 0)
        #expect(result.errors.count == 300_000)
        #expect(String(decoding: result.output, as: UTF8.self) == "done\n")
    }

    @Test func aSignal_isReportedAs128PlusItsNumber() throws {
        let result = try Subprocess.run("/bin/sh", ["-c", "kill -TERM $$"])
        #expect(result.status == 128 + 15)
    }

    @Test func aMissingProgram_isAClearError() {
        #expect {
            _ = try Subprocess.run("/no/such/program", [])
        } throws: { error in
            (error as? Subprocess.SpawnError)?.description
                == "cannot start /no/such/program: No such file or directory"
        }
    }

    @Test func theChild_getsNoOtherDescriptorOfOurs() throws {
        // Given a descriptor of this process that is not close-on-exec
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        defer { for end in ends { close(end) } }

        // Then the child's descriptors are its three standard ones only (closefrom, where glibc
        // has it)
        let result = try Subprocess.run("/bin/sh", ["-c", "ls /proc/self/fd"])
        let listed = String(decoding: result.output, as: UTF8.self).split(separator: "\n")
        #expect(!listed.contains(Substring(String(ends[0]))) || ends[0] <= 3)
    }
}
