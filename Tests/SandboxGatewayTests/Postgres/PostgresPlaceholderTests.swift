import Testing

@testable import SandboxGateway

/// The seam's `?` placeholders become `$1 … $n`, except where a `?` is text.
@Suite(.timeLimit(.minutes(1))) struct PostgresPlaceholderTests {
    @Test func numbersPlaceholdersInOrder() {
        let statement = PostgresPlaceholders("INSERT INTO t (a, b, c) VALUES (?, ?, ?)")
        #expect(statement.sql == "INSERT INTO t (a, b, c) VALUES ($1, $2, $3)")
        #expect(statement.count == 3)
    }

    @Test func questionMarksInLiteralsIdentifiersAndCommentsStay() {
        let statement = PostgresPlaceholders(
            """
            SELECT 'what? it''s ?' AS "odd?name", ? -- really?
            FROM t /* outer ? /* inner ? */ still ? */ WHERE a = ?
            """)
        #expect(
            statement.sql == """
                SELECT 'what? it''s ?' AS "odd?name", $1 -- really?
                FROM t /* outer ? /* inner ? */ still ? */ WHERE a = $2
                """)
        #expect(statement.count == 2)
    }

    @Test func dollarQuotedBodiesStayAndNumberedParametersAreNotTags() {
        let statement = PostgresPlaceholders("SELECT $body$ a ? b $body$, ?, $$?$$, x$y FROM t")
        #expect(statement.sql == "SELECT $body$ a ? b $body$, $1, $$?$$, x$y FROM t")
        #expect(statement.count == 1)
    }

    @Test func quotedIdentifiersAreFoldedToLowerCaseLikeUnquotedOnes() {
        let statement = PostgresPlaceholders(#"SELECT "merchantId", 'Keep Case' FROM "gatewayInstance" WHERE "ID" = ?"#)
        #expect(statement.sql == #"SELECT "merchantid", 'Keep Case' FROM "gatewayinstance" WHERE "id" = $1"#)
    }

    @Test func statementWithoutPlaceholdersIsUnchanged() {
        let sql = "SELECT COUNT(*) FROM payment_transaction"
        #expect(PostgresPlaceholders(sql) == PostgresPlaceholders(sql))
        #expect(PostgresPlaceholders(sql).sql == sql)
        #expect(PostgresPlaceholders(sql).count == 0)
    }
}
