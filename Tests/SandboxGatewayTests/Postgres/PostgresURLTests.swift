import Testing

@testable import SandboxGateway

/// `PostgresURL` reads `postgres://USER[:PASSWORD]@HOST[:PORT]/DB` and refuses anything else
/// with a typed error.
@Suite(.timeLimit(.minutes(1))) struct PostgresURLTests {
    @Test func readsEveryPartOfAFullURL() throws {
        let url = try PostgresURL("postgres://gateway:s3cret@db.internal:6543/sandbox", environment: [:])
        #expect(url == PostgresURL(user: "gateway", password: "s3cret", host: "db.internal", port: 6543, database: "sandbox"))
    }

    @Test func portDefaultsTo5432AndPostgresqlSchemeIsAccepted() throws {
        let url = try PostgresURL("postgresql://gateway@localhost/sandbox", environment: [:])
        #expect(url.port == 5432)
        #expect(url.password == nil)
    }

    @Test func percentEncodedPasswordIsDecoded() throws {
        let url = try PostgresURL("postgres://gateway:p%40ss%3Aw%2Fo%25rd@127.0.0.1:5432/db", environment: [:])
        #expect(url.password == "p@ss:w/o%rd")
    }

    @Test func passwordComesFromTheEnvironmentWhenTheURLHasNone() throws {
        let url = try PostgresURL(
            "postgres://gateway@127.0.0.1:5432/db", environment: [PostgresURL.passwordVariable: "from-env"])
        #expect(url.password == "from-env")
        let explicit = try PostgresURL(
            "postgres://gateway:in-url@127.0.0.1:5432/db", environment: [PostgresURL.passwordVariable: "from-env"])
        #expect(explicit.password == "in-url")
    }

    @Test func ipv6HostInBracketsKeepsItsPort() throws {
        let url = try PostgresURL("postgres://gateway@[::1]:6000/db", environment: [:])
        #expect(url.host == "::1")
        #expect(url.port == 6000)
    }

    @Test func descriptionNeverShowsThePassword() throws {
        let url = try PostgresURL("postgres://gateway:topsecret@127.0.0.1:5432/db", environment: [:])
        #expect(!url.description.contains("topsecret"))
        #expect(url.description == "postgres://gateway:***@127.0.0.1:5432/db")
    }

    @Test(arguments: [
        ("mysql://gateway@127.0.0.1:5432/db", PostgresURLError.badScheme),
        ("127.0.0.1:5432/db", PostgresURLError.badScheme),
        ("postgres://gateway@127.0.0.1:5432", PostgresURLError.missingDatabase),
        ("postgres://gateway@127.0.0.1:5432/", PostgresURLError.missingDatabase),
        ("postgres://gateway@127.0.0.1:5432/a/b", PostgresURLError.missingDatabase),
        ("postgres://gateway@127.0.0.1:port/db", PostgresURLError.badPort),
        ("postgres://gateway@127.0.0.1:70000/db", PostgresURLError.badPort),
        ("postgres://gateway@127.0.0.1:0/db", PostgresURLError.badPort),
        ("postgres://gateway@127.0.0.1:/db", PostgresURLError.badPort),
        ("postgres://127.0.0.1:5432/db", PostgresURLError.missingUser),
        ("postgres://gateway@:5432/db", PostgresURLError.missingHost),
        ("postgres://gateway:%zz@127.0.0.1:5432/db", PostgresURLError.badEncoding),
        ("postgres://gateway@127.0.0.1:5432/db?sslmode=require", PostgresURLError.unsupportedOptions),
    ])
    func refusesAMalformedURLWithItsReason(text: String, expected: PostgresURLError) {
        #expect(throws: expected) { try PostgresURL(text, environment: [:]) }
    }

    @Test func errorDescriptionDoesNotRepeatTheURL() {
        do {
            _ = try PostgresURL("postgres://gateway:hunter22@127.0.0.1:99999/db", environment: [:])
            Issue.record("a port above 65535 was accepted")
        } catch {
            #expect(!error.description.contains("hunter22"))
        }
    }
}
