import Basics
import Testing

@Suite struct FNV1aTests {
    @Test(arguments: [
        ("", 0xCBF2_9CE4_8422_2325 as UInt64),
        ("a", 0xAF63_DC4C_8601_EC8C),
        ("foobar", 0x8594_4171_F739_67E8),
    ])
    func hash_isTheSpecsValue(text: String, expected: UInt64) {
        #expect(FNV1a.hash(text.utf8) == expected)
    }

    @Test func combiningInPieces_equalsHashingAtOnce() {
        var hash = FNV1a()
        hash.combine("foo".utf8)
        hash.combine("bar".utf8)
        #expect(hash.value == FNV1a.hash("foobar".utf8))
    }

    @Test func endingParts_keepsTheirBoundaries() {
        func hash(_ parts: [String]) -> UInt64 {
            var hash = FNV1a()
            for part in parts {
                hash.combine(part.utf8)
                hash.endPart()
            }
            return hash.value
        }
        #expect(hash(["ab", "c"]) != hash(["a", "bc"]))
        #expect(hash(["ab", "c"]) == hash(["ab", "c"]))
        // A part's end is the byte 0xFF.
        #expect(hash(["ab"]) == FNV1a.hash(Array("ab".utf8) + [0xFF]))
    }
}
