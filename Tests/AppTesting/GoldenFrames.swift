import Foundation
import Testing

/// Golden frames: the exact plain-text screens each app shows for key moments, stored as text
/// files beside the tests and reviewed like code.
///
/// On a mismatch the test fails with a line diff and writes the actual frame next to the golden
/// one (`name.actual.txt`). Set `LOOM_RECORD_GOLDEN=1` to write the actual frames as the new
/// goldens instead (then review the diff in git).
package enum GoldenFrames {
    /// The environment variable that re-records goldens.
    package static let recordVariable = "LOOM_RECORD_GOLDEN"

    /// Compares `frame` with the golden `name` of `app` in `directory`; `explain` may add a line
    /// to a mismatch's message, given the golden and the actual text.
    package static func check(
        _ frame: String, app: String, name: String, directory: String,
        explain: (_ golden: String, _ actual: String) -> String? = { _, _ in nil },
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let path = "\(directory)/\(app)/\(name).txt"
        let actualPath = "\(directory)/\(app)/\(name).actual.txt"
        // A name may hold a folder (`styled/home-80x24`).
        let folder = (path as NSString).deletingLastPathComponent
        let text = frame.hasSuffix("\n") ? frame : frame + "\n"
        if ProcessInfo.processInfo.environment[recordVariable] == "1" {
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try? Data(text.utf8).write(to: URL(fileURLWithPath: path))
            try? FileManager.default.removeItem(atPath: actualPath)
            return
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            Issue.record(
                "no golden frame \(path); run the tests with \(recordVariable)=1 to record it, then review it",
                sourceLocation: sourceLocation)
            return
        }
        let golden = String(decoding: data, as: UTF8.self)
        if golden == text {
            try? FileManager.default.removeItem(atPath: actualPath)
            return
        }
        try? Data(text.utf8).write(to: URL(fileURLWithPath: actualPath))
        Issue.record(
            """
            frame '\(name)' of \(app) differs from its golden (\(path)); actual written to \(actualPath)
            \(explain(golden, text).map { $0 + "\n" } ?? "")\(lineDiff(expected: golden, actual: text))
            If the change is intended, re-record with \(recordVariable)=1 and review the diff.
            """, sourceLocation: sourceLocation)
    }

    /// A readable diff: each differing line as `-` (golden) and `+` (actual) with its number.
    package static func lineDiff(expected: String, actual: String) -> String {
        let old = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let new = actual.split(separator: "\n", omittingEmptySubsequences: false)
        var lines: [String] = []
        for index in 0..<max(old.count, new.count) {
            let a = index < old.count ? String(old[index]) : nil
            let b = index < new.count ? String(new[index]) : nil
            guard a != b else { continue }
            if let a { lines.append(String(format: "%3d - ", index + 1) + a) }
            if let b { lines.append(String(format: "%3d + ", index + 1) + b) }
        }
        return lines.joined(separator: "\n")
    }
}
