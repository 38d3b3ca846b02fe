import Foundation
import Testing

@testable import AppScaffold

@Suite struct AppsListTests {
    let text = """
        let other = 1
        let apps = [
            "Prism",
            // A comment stays where it is.
            "Strand",  // and so does this one
        ]
        let more = 2
        """

    @Test func reading_listsTheAppsInOrderWithTheirLines() throws {
        let list = try AppsList(packageText: text)
        #expect(list.names == ["Prism", "Strand"])
        #expect(list.entries.map(\.line) == [2, 4])
        #expect(list.entry(matching: "STRAND")?.name == "Strand")
        #expect(list.entry(matching: "Quill") == nil)
    }

    @Test(arguments: [
        ("Aurora", "let apps = [\n    \"Aurora\",\n    \"Prism\","),
        ("Quill", "    \"Prism\",\n    // A comment stays where it is.\n    \"Quill\",\n    \"Strand\","),
        ("Zephyr", "    \"Strand\",  // and so does this one\n    \"Zephyr\",\n]"),
        ("prismatic", "    \"Prism\",\n    // A comment stays where it is.\n    \"prismatic\",\n"),
    ])
    func inserting_addsOneLineInSortedPosition(name: String, neighbourhood: String) throws {
        let result = try AppsList(packageText: text).inserting(name)
        #expect(result.contains(neighbourhood), "\(result)")
        #expect(result.split(separator: "\n").count == text.split(separator: "\n").count + 1)
        #expect(result.replacingOccurrences(of: "    \"\(name)\",\n", with: "") == text)
    }

    @Test func inserting_afterALastLineWithoutAComma_givesItOne() throws {
        let list = try AppsList(packageText: "let apps = [\n  \"Prism\"\n]\n")
        #expect(list.inserting("Quill") == "let apps = [\n  \"Prism\",\n  \"Quill\",\n]\n")
    }

    @Test func inserting_intoAnEmptyList() throws {
        let list = try AppsList(packageText: "let apps = [\n]\n")
        #expect(list.names == [])
        #expect(list.inserting("Quill") == "let apps = [\n    \"Quill\",\n]\n")
    }

    @Test func anUnclosedList_isRefusedWithItsLine() {
        #expect(
            throws: ScaffoldRefusal(
                "Package.swift:2: the list of apps is not closed; expected \(AppsList.expectedShape)")
        ) {
            try AppsList(packageText: "// apps\nlet apps = [\n    \"Prism\",\n")
        }
    }
}
