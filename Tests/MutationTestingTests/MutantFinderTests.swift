import MutationTesting
import Testing

@Suite struct MutantFinderTests {
    private func changes(_ source: String, _ mutationOperator: MutationOperator? = nil) -> [String] {
        MutantFinder.mutants(in: source, file: "Modules/M/F.swift")
            .filter { mutationOperator == nil || $0.mutationOperator == mutationOperator }
            .map { "\($0.line):\($0.column) \($0.original)->\($0.replacement)" }
    }

    @Test func comparisons_flipWhenSpacedAsBinaryOperators() {
        let source = "let a = b < c\nlet d = e >= f\nlet g = h == i\nlet j: Array<Int> = k\nlet l = m != n"
        #expect(
            changes(source, .comparison) == [
                "1:11 <-><=", "1:11 <->>", "2:11 >=->>", "3:11 ==->!=", "5:11 !=->==",
            ])
    }

    @Test func offByOne_movesIntegersAndFlipsPlusOne() {
        #expect(
            changes("let a = b + 1\nlet c = d[0]\nlet e = 1.5 + t.0", .offByOne) == [
                "1:11 +->-", "1:13 1->0", "1:13 1->2", "2:11 0->1",
            ])
    }

    @Test func constants_becomeZeroOrOne_onceAcrossOperators() {
        let source = "let a = 0\nlet b = 1_000\nlet c = 1"
        // 0 -> 1 and 1 -> 0 are already off-by-one mutants: each change is planted once.
        #expect(changes(source, .constant) == ["2:9 1_000->0"])
        #expect(
            changes(source) == [
                "1:9 0->1", "2:9 1_000->0", "2:9 1_000->1001", "2:9 1_000->999", "3:9 1->0", "3:9 1->2",
            ])
    }

    @Test func booleans_swapOperatorsLiteralsAndDropNegation() {
        let source = "let a = b && !c\nlet d = e || f(!g)\nlet h = true\nlet i = j! == false"
        #expect(
            changes(source, .boolean) == [
                "1:11 &&->||", "1:14 !->", "2:11 ||->&&", "2:16 !->", "3:9 true->false", "4:15 false->true",
            ])
    }

    @Test func droppedStatements_areWholeCallsAndAssignmentsThatLeaveABody() {
        let source = """
            func f() {
                values.append(1)
                count += 1
                let x = g()
                try await store.save(x)
                return
            }
            func only() {
                values.append(2)
            }
            """
        #expect(
            changes(source, .droppedStatement) == [
                "2:5 values.append(1)->", "3:5 count += 1->", "5:5 try await store.save(x)->",
            ])
    }

    @Test func droppedStatements_skipStoredPropertiesInAnInitializer() {
        let source = """
            init(a: Int) {
                self.a = a
                if a > 0 {
                    self.b = a
                    log(a)
                }
                setUp()
            }
            func reset() {
                self.a = 0
                other()
            }
            """
        #expect(
            changes(source, .droppedStatement) == [
                "5:9 log(a)->", "7:5 setUp()->", "10:5 self.a = 0->", "11:5 other()->",
            ])
    }

    @Test func droppedStatements_skipMultilineExpressions() {
        let source = """
            func f() {
                let total = values
                    .map(g)
                call(a,
                     b)
                x = y
                    + z
                done()
            }
            """
        #expect(changes(source, .droppedStatement) == ["8:5 done()->"])
    }

    @Test func commentsAndStrings_areNeverMutated() {
        let source = """
            /// Returns a < b when 1 == 1 && true.
            // x += 1
            /* y < 2 /* nested 0 */ z > 3 */
            let s = "a < b \\(c == 1) \\("d") 0"
            let r = #"1 < 2 \\#(true)"#
            let m = \"\"\"
                count + 1 != 0
                \"\"\"
            """
        #expect(changes(source) == [])
    }

    @Test func debugBlocksDirectivesAndAttributes_areSkipped() {
        let source = """
            #if DEBUG
            let a = 1 < 2
            #else
            let b = 3
            #endif
            #if canImport(Darwin)
            let c = true
            #elseif canImport(Glibc)
            let d = false
            #else
            let e = false
            #endif
            @available(macOS 13, *)
            import Foo
            let f = 4
            """
        #expect(changes(source) == ["9:9 false->true", "15:9 4->0", "15:9 4->3", "15:9 4->5"])
    }

    @Test func applyingAMutant_replacesItsBytesOnly() throws {
        let source = "let a = b < c // ✓ < d\n"
        let mutant = try #require(MutantFinder.mutants(in: source, file: "F.swift").first)
        #expect(try mutant.applied(to: source) == "let a = b <= c // ✓ < d\n")
        #expect(
            throws: MutationError("F.swift:1:11: the source changed since the mutant was found; expected '<'")
        ) {
            try mutant.applied(to: "let a = b + c // ✓ < d\n")
        }
    }
}
