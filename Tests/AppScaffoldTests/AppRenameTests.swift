import Testing

@testable import AppScaffold

@Suite struct AppRenameTests {
    @Test func rename_replacesEachSpellingInsideIdentifiersAndStrings() {
        let rename = AppRename(from: AppName("Strand"), to: AppName("Quill"))
        #expect(
            rename.apply("struct StrandTabs {} // \"strand.tabs\", STRAND_DIR, Strand's")
                == "struct QuillTabs {} // \"quill.tabs\", QUILL_DIR, Quill's")
    }

    @Test func rename_leavesOtherSpellingsAndOtherBytesAlone() {
        let rename = AppRename(from: AppName("Strand"), to: AppName("Quill"))
        #expect(rename.apply("sTrand strands — ⌂ Strand") == "sTrand quills — ⌂ Quill")
        #expect(rename.apply([0xFF, 0x00] + Array("Strand".utf8)) == [0xFF, 0x00] + Array("Quill".utf8))
    }

    @Test func rename_toANameHoldingTheOldOne_renamesOnce() {
        let longer = AppRename(from: AppName("Strand"), to: AppName("Strandline"))
        #expect(longer.apply("Strand strand STRAND") == "Strandline strandline STRANDLINE")
        // The lowercase pass must not read what the first wrote: "Ab" -> "Xab" stays "Xab".
        let overlapping = AppRename(from: AppName("Ab"), to: AppName("Xab"))
        #expect(overlapping.apply("Ab ab AB") == "Xab xab XAB")
    }
}
