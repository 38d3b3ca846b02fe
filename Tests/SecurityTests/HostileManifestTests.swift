import CommandLineKit
import Composition
import Foundation
import ManifestLint
import ManifestLintTesting
import Testing

/// A manifest may hold anything: manifest-lint never passes its control characters to the
/// terminal, never prints a huge value in full, and refuses such ids and display names.
@Suite struct HostileManifestTests {
    /// An escape sequence that retitles the terminal, then clears the screen (JSON-escaped).
    static let escapeSequence = #"\u001b]0;pwned\u0007\u001b[2J"#

    /// The model app's manifest with its display name written `name` (JSON-escaped).
    func naming(_ manifest: String, _ name: String) throws -> String {
        let shipped = try LintRun.displayName()
        return manifest.replacingOccurrences(
            of: "\"displayName\": \"\(shipped)\"", with: "\"displayName\": \"\(name)\"")
    }

    /// Lints the package with the model app's manifest transformed (`LintRun.modelApp`).
    func lint(manifest transform: (String) throws -> String) throws -> (Int32, String) {
        let original = try LintRun.manifestText()
        let root = try LintRun.scratchPackage(replacing: LintRun.modelApp.id, with: transform(original))
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (status, output, error) = LintRun.run(["--skip-package-graph"], in: root)
        return (status, output + error)
    }

    @Test func anEscapeSequenceInASocketKey_isShownEscaped_andRefused() throws {
        // Given a socket key holding an escape sequence
        let (status, output) = try lint {
            $0.replacingOccurrences(of: "\"branding\":", with: "\"branding\(Self.escapeSequence)\":")
        }

        // Then no control character reaches the terminal, and the key is refused, escaped
        #expect(status == 1)
        #expect(
            !output.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(output.debugDescription)")
        #expect(
            output.contains(
                #"error: socket id 'branding\u001b]0;pwned\u0007\u001b[2J' contains control characters (\u001b, \u0007); remove them"#
            ), "\(output)")
    }

    @Test func aTenMegabyteSocketKey_isCut_andRefused() throws {
        // Given a socket key of 10 MB
        let huge = String(repeating: "k", count: 10_000_000)
        let (status, output) = try lint {
            $0.replacingOccurrences(
                of: "\"branding\":", with: "\"\(huge)\": \"\(LintRun.modelApp.id).branding\", \"branding\":")
        }

        // Then it is quoted cut, with its length, and refused as too long
        #expect(status == 1)
        #expect(output.utf8.count < 2_000, "printed \(output.utf8.count) bytes")
        #expect(
            output.contains(
                "error: socket id '\(String(repeating: "k", count: 60))… (10000000 characters)' is too long; it may "
                    + "have at most 128 characters"), "\(output.prefix(1_000))")
    }

    @Test func aDisplayNameWithAControlCharacter_isRefused() throws {
        // Given a display name that would clear the screen in the title bar
        let name = try LintRun.displayName()
        let (status, output) = try lint { try naming($0, name + "\\u001b[2J") }

        // Then it is refused, escaped
        #expect(status == 1)
        #expect(
            output.contains(
                "error: display name '\(name)"
                    + #"\u001b[2J' contains control characters (\u001b); remove them"#),
            "\(output)")
    }

    @Test func anOverlongDisplayName_isRefused() throws {
        let long = String(repeating: "S", count: 65)
        let (status, output) = try lint { try naming($0, long) }
        #expect(status == 1)
        #expect(output.contains("error: display name '"), "\(output)")
        #expect(output.contains("is too long; it may have at most 64 characters"), "\(output)")
    }

    @Test func anUnknownKeyOfTenMegabytes_isCutInItsDiagnostic() throws {
        // Given an unknown top-level key of 10 MB holding an escape sequence
        let huge = Self.escapeSequence + String(repeating: "x", count: 10_000_000)
        let (status, output) = try lint {
            $0.replacingOccurrences(of: "\"app\":", with: "\"\(huge)\": 1, \"app\":")
        }

        // Then the diagnostic quotes it escaped and cut
        #expect(status == 1)
        #expect(output.utf8.count < 2_000, "printed \(output.utf8.count) bytes")
        #expect(
            !output.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(output.debugDescription)")
        #expect(output.contains("… (10000014 characters)"), "\(output.prefix(1_000))")
    }
}
