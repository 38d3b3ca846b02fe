import Storage
import Testing

/// SQLite's `?` and `?NNN` parameters rewritten for PostgreSQL (`$1`): only in code, never in a
/// string, a quoted name or a comment.
@Suite struct SQLParametersTests {
    func dollars(_ sql: String) -> (sql: String, count: Int) { SQLParameters.rewrite(sql) { "$\($0)" } }

    @Test func bareParameters_areNumberedInOrder_andNumberedOnesKeepTheirNumber() {
        #expect(
            dollars("SELECT a FROM t WHERE b = ? AND c = ?").sql == "SELECT a FROM t WHERE b = $1 AND c = $2")
        #expect(dollars("SELECT ?3, ?1, ?").sql == "SELECT $3, $1, $4")
        #expect(dollars("SELECT ?3, ?1, ?").count == 4)
        #expect(dollars("SELECT ?12").sql == "SELECT $12")
        #expect(SQLParameters.count(in: "INSERT INTO t VALUES (?, ?, ?)") == 3)
        #expect(SQLParameters.count(in: "SELECT 1") == 0)
    }

    @Test func stringsWithDoubledQuotes_andQuotedNames_areCopiedAsTheyAre() {
        #expect(
            dollars("SELECT 'it''s ? here', \"a \"\"?\"\" name\" FROM t WHERE x = ?").sql
                == "SELECT 'it''s ? here', \"a \"\"?\"\" name\" FROM t WHERE x = $1")
        #expect(dollars("SELECT '?'''").sql == "SELECT '?'''")
        #expect(dollars("SELECT 'never closed ?").sql == "SELECT 'never closed ?")
    }

    @Test func comments_areCopiedAsTheyAre_andCodeAfterThemIsRewritten() {
        #expect(dollars("SELECT ? -- a ? here\n, ?").sql == "SELECT $1 -- a ? here\n, $2")
        #expect(dollars("SELECT ? /* a ? here */ , ?").sql == "SELECT $1 /* a ? here */ , $2")
        #expect(dollars("SELECT /*/ ? */ ?").sql == "SELECT /*/ ? */ $1")
        #expect(dollars("SELECT /**/?").sql == "SELECT /**/$1")
        #expect(
            dollars("SELECT /* all */* FROM t WHERE a = ?").sql == "SELECT /* all */* FROM t WHERE a = $1")
        #expect(dollars("SELECT ? /* never closed ?").sql == "SELECT $1 /* never closed ?")
        #expect(dollars("SELECT - ? -").sql == "SELECT - $1 -")
    }
}
