import Foundation
import GRDB
import GatewayAPI
import Hummingbird
import MPOSCore
@testable import SandboxGateway
import Testing
import EMV

/// A browser's part in the dashboard tests: keeps the session cookie, reads the forms' hidden
/// tokens, posts forms.
struct DashboardBrowser {
    let harness: GatewayHarness
    var session: String?

    func get(_ path: String) async throws -> GatewayHarness.Reply {
        var headers = HTTPFields()
        if let session { headers[.cookie] = "mpos_dashboard=\(session)" }
        return try await harness.send(.get, path, headers: headers)
    }

    func post(_ path: String, _ fields: [(String, String)], cookie: String? = nil) async throws -> GatewayHarness.Reply {
        var headers = HTTPFields()
        if let cookie = cookie ?? session.map({ "mpos_dashboard=\($0)" }) { headers[.cookie] = cookie }
        let body = fields.map { "\(Self.encode($0.0))=\(Self.encode($0.1))" }.joined(separator: "&")
        return try await harness.send(.post, path, body: Data(body.utf8), headers: headers)
    }

    /// A browser with the bootstrap user logged in.
    static func signedIn(_ harness: GatewayHarness) async throws -> DashboardBrowser {
        var browser = DashboardBrowser(harness: harness)
        #expect(try await browser.logIn(user: harness.credentials.user, password: harness.credentials.password).status == 303)
        return browser
    }

    /// Logs in through the form; keeps the session cookie when it succeeds.
    mutating func logIn(user: String, password: String) async throws -> GatewayHarness.Reply {
        let form = try await get("/dashboard/login")
        let loginCookie = try #require(form.header("Set-Cookie")?.split(separator: ";").first.map(String.init))
        let reply = try await post(
            "/dashboard/login", [("csrf", Self.hidden("csrf", in: form)), ("user", user), ("password", password)],
            cookie: loginCookie)
        if reply.status == 303, let cookie = reply.header("Set-Cookie") {
            session = Self.cookieValue(cookie)
        }
        return reply
    }

    static func cookieValue(_ setCookie: String) -> String? {
        setCookie.split(separator: ";").first?.split(separator: "=", maxSplits: 1).last.map(String.init)
    }

    /// The value of the first hidden input named `name` on the page.
    static func hidden(_ name: String, in reply: GatewayHarness.Reply) -> String {
        let html = String(decoding: reply.body, as: UTF8.self)
        guard let start = html.range(of: "name=\"\(name)\" value=\"") else { return "" }
        return String(html[start.upperBound...].prefix { $0 != "\"" })
    }

    static func encode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }

    static func text(_ reply: GatewayHarness.Reply) -> String { String(decoding: reply.body, as: UTF8.self) }
}

extension GatewayHarness {
    /// A card sale of `amount` through the API; returns its id.
    func cardSale(_ amount: Int64, token: String) async throws -> String {
        let request = try PaymentHTTPTests.authorize(
            SimulatedTerminal.card("visa-credit"), amount: amount, duplicateCheck: false)
        let reply = try await PaymentHTTPTests.post(self, GatewayPaths.authorizeCard, request, token: token)
        #expect(reply.status == 200)
        return try reply.decode(Transaction.self).id.rawValue
    }

    /// The amounts of the refunds recorded against `id`, read from the ledger.
    func refunds(of id: String) throws -> [Int64] {
        try gateway.environment.store.sqliteWriter.read { db in
            try Int64.fetchAll(
                db, sql: "SELECT amount_requested FROM payment_transaction WHERE original_id = ? AND kind = 'refund'",
                arguments: [id])
        }
    }
}

@Suite(.timeLimit(.minutes(2))) struct DashboardSessionTests {
    @Test func loginSetsAnHttpOnlySameSiteCookieAndOpensTheTransactions() async throws {
        try await GatewayHarness.with { harness in
            var browser = DashboardBrowser(harness: harness)
            #expect(try await browser.get("/dashboard/transactions").header("Location") == "/dashboard/login")
            let reply = try await browser.logIn(user: harness.credentials.user, password: harness.credentials.password)
            #expect(reply.status == 303)
            #expect(reply.header("Location") == "/dashboard/transactions")
            let cookie = try #require(reply.header("Set-Cookie"))
            #expect(cookie.contains("; HttpOnly") && cookie.contains("; SameSite=Strict") && cookie.contains("Path=/dashboard"))
            #expect(!cookie.contains("Secure"))
            let page = try await browser.get("/dashboard/transactions")
            #expect(page.status == 200)
            #expect(page.header("Content-Security-Policy")?.hasPrefix("default-src 'self'") == true)
            #expect(DashboardBrowser.text(page).contains("0 transactions"))
        }
    }

    @Test func aWrongPasswordIsRefusedWithNoSession() async throws {
        try await GatewayHarness.with { harness in
            var browser = DashboardBrowser(harness: harness)
            let reply = try await browser.logIn(user: harness.credentials.user, password: "wrong-password-1")
            #expect(reply.status == 401)
            #expect(DashboardBrowser.text(reply).contains("Invalid user or password."))
            #expect(browser.session == nil)
        }
    }

    @Test func aLoginWithoutTheFormsTokenIsRefused() async throws {
        try await GatewayHarness.with { harness in
            let browser = DashboardBrowser(harness: harness)
            let reply = try await browser.post(
                "/dashboard/login", [("user", harness.credentials.user), ("password", harness.credentials.password)])
            #expect(reply.status == 403)
        }
    }

    @Test func aPostWithoutTheCSRFTokenIsRefusedAndMovesNoMoney() async throws {
        try await GatewayHarness.with { harness in
            let token = try await harness.login()
            let id = try await harness.cardSale(12_00, token: token)
            let browser = try await DashboardBrowser.signedIn(harness)
            let page = try await browser.get("/dashboard/transactions/\(id)")
            let key = DashboardBrowser.hidden("idempotencyKey", in: page)
            let missing = try await browser.post("/dashboard/transactions/\(id)/refund", [("idempotencyKey", key)])
            #expect(missing.status == 403)
            let wrong = try await browser.post(
                "/dashboard/transactions/\(id)/refund", [("csrf", "csrf_0"), ("idempotencyKey", key)])
            #expect(wrong.status == 403)
            let logout = try await browser.post("/dashboard/logout", [])
            #expect(logout.status == 403)
            let after = try await harness.send(.get, GatewayPaths.transaction(id: id), token: token)
            #expect(try after.decode(Transaction.self).status == .approved)
            #expect(try harness.refunds(of: id).isEmpty)
        }
    }

    @Test func logoutEndsTheSessionInTheDatabase() async throws {
        try await GatewayHarness.with { harness in
            let browser = try await DashboardBrowser.signedIn(harness)
            let page = try await browser.get("/dashboard/transactions")
            let out = try await browser.post("/dashboard/logout", [("csrf", DashboardBrowser.hidden("csrf", in: page))])
            #expect(out.status == 303)
            #expect(out.header("Set-Cookie")?.contains("Max-Age=0") == true)
            #expect(try await browser.get("/dashboard/transactions").status == 303)
        }
    }

    @Test func aOneTimeLinkLogsInOnceAndNeedsAUsersToken() async throws {
        try await GatewayHarness.with { harness in
            #expect(try await harness.send(.post, "/dashboard/login-links").status == 401)
            let token = try await harness.login()
            let reply = try await harness.send(.post, "/dashboard/login-links", token: token)
            #expect(reply.status == 201)
            let link = try reply.decode(DashboardLoginLink.self)
            #expect(link.path.hasPrefix("/dashboard/login/link?token=dl_"))
            let first = try await harness.send(.get, link.path)
            #expect(first.status == 303)
            let session = try #require(first.header("Set-Cookie").flatMap(DashboardBrowser.cookieValue))
            let browser = DashboardBrowser(harness: harness, session: session)
            #expect(try await browser.get("/dashboard/transactions").status == 200)
            #expect(try await harness.send(.get, link.path).status == 401)
        }
    }

    @Test func aOneTimeLinkExpires() async throws {
        try await GatewayHarness.with { harness in
            let token = try await harness.login()
            let link = try await harness.send(.post, "/dashboard/login-links", token: token).decode(DashboardLoginLink.self)
            harness.clock.advance(by: DashboardSessions.linkLifetime + 1)
            #expect(try await harness.send(.get, link.path).status == 401)
        }
    }
}

@Suite(.timeLimit(.minutes(2))) struct DashboardMerchantIsolationTests {
    @Test func anotherMerchantsTransactionAnswersLikeAnUnknownOneOnEveryPageAndForm() async throws {
        try await GatewayHarness.with { harness in
            let token = try await harness.login()
            let theirs = try await harness.cardSale(31_00, token: token)
            let other = try await harness.gateway.environment.accounts.createMerchant(
                name: "Other Shop", user: "other", email: "other@example.org")
            var browser = DashboardBrowser(harness: harness)
            _ = try await browser.logIn(user: other.user, password: other.password)
            let list = try await browser.get("/dashboard/transactions?q=\(theirs)")
            #expect(list.status == 200)
            #expect(!DashboardBrowser.text(list).contains("/dashboard/transactions/\(theirs)"))
            #expect(DashboardBrowser.text(list).contains("0 transactions"))
            let stats = try await browser.get("/dashboard/statistics")
            #expect(!DashboardBrowser.text(stats).contains("31.00"))
            let unknown = String(theirs.dropLast(4)) + (theirs.hasSuffix("0000") ? "1111" : "0000")
            for id in [theirs, unknown] {
                let page = try await browser.get("/dashboard/transactions/\(id)")
                #expect(page.status == 404)
                #expect(DashboardBrowser.text(page).contains("No transaction \(id) for this merchant."))
            }
            let csrf = DashboardBrowser.hidden("csrf", in: list)
            for action in ["refund", "void"] {
                let reply = try await browser.post(
                    "/dashboard/transactions/\(theirs)/\(action)", [("csrf", csrf), ("idempotencyKey", IdempotencyKey().rawValue)])
                #expect(reply.status == 404)
            }
            let after = try await harness.send(
                .get, GatewayPaths.transaction(id: theirs), token: token)
            #expect(try after.decode(Transaction.self).status == .approved)
        }
    }
}

@Suite(.timeLimit(.minutes(2))) struct DashboardRefundTests {
    @Test func aDoubleSubmittedRefundFormRefundsOnce() async throws {
        try await GatewayHarness.with { harness in
            let token = try await harness.login()
            let id = try await harness.cardSale(21_00, token: token)
            let browser = try await DashboardBrowser.signedIn(harness)
            let page = try await browser.get("/dashboard/transactions/\(id)")
            let fields = [
                ("csrf", DashboardBrowser.hidden("csrf", in: page)),
                ("idempotencyKey", DashboardBrowser.hidden("idempotencyKey", in: page)), ("amount", "500"),
            ]
            let first = try await browser.post("/dashboard/transactions/\(id)/refund", fields)
            let second = try await browser.post("/dashboard/transactions/\(id)/refund", fields)
            #expect(first.status == 303 && second.status == 303)
            #expect(first.header("Location") == "/dashboard/transactions/\(id)?done=refund")
            #expect(try harness.refunds(of: id) == [5_00])
            let detail = DashboardBrowser.text(try await browser.get("/dashboard/transactions/\(id)?done=refund"))
            #expect(detail.contains("Refunded."))
        }
    }

    /// With asynchronous refunds on, the form's refund is accepted as pending in the same
    /// transaction as the form key's answer: the key is completed, never left in progress, and
    /// a second submit adds nothing.
    @Test func aRefundFormOfAMerchantWithAsynchronousRefundsIsAcceptedOnceWithItsKey() async throws {
        try await GatewayHarness.with { harness in
            try await harness.gateway.setAsynchronousRefunds(merchantID: harness.credentials.merchantID, true)
            let token = try await harness.login()
            let id = try await harness.cardSale(22_00, token: token)
            let browser = try await DashboardBrowser.signedIn(harness)
            let page = try await browser.get("/dashboard/transactions/\(id)")
            let key = DashboardBrowser.hidden("idempotencyKey", in: page)
            let fields = [("csrf", DashboardBrowser.hidden("csrf", in: page)), ("idempotencyKey", key), ("amount", "700")]
            let first = try await browser.post("/dashboard/transactions/\(id)/refund", fields)
            let second = try await browser.post("/dashboard/transactions/\(id)/refund", fields)
            #expect(first.status == 303 && second.status == 303)
            let (refunds, keyState) = try await harness.gateway.environment.store.sqliteWriter.read { db in
                let refunds = try Row.fetchAll(
                    db, sql: "SELECT amount_requested, status FROM payment_transaction WHERE original_id = ? AND kind = 'refund'",
                    arguments: [id]
                ).map { "\($0["amount_requested"] as Int64) \($0["status"] as String)" }
                let state = try String.fetchOne(db, sql: "SELECT state FROM idempotencyKey WHERE key = ?", arguments: [key])
                return (refunds, state)
            }
            #expect(refunds == ["700 pending"])
            #expect(keyState == "completed")
        }
    }

    @Test func theStatisticsChartFollowsARefund() async throws {
        try await GatewayHarness.with { harness in
            let token = try await harness.login()
            let id = try await harness.cardSale(40_00, token: token)
            let browser = try await DashboardBrowser.signedIn(harness)
            let before = DashboardBrowser.text(try await browser.get("/dashboard/statistics"))
            #expect(before.contains("data-value=\"4000\""))
            let page = try await browser.get("/dashboard/transactions/\(id)")
            _ = try await browser.post(
                "/dashboard/transactions/\(id)/refund",
                [("csrf", DashboardBrowser.hidden("csrf", in: page)), ("idempotencyKey", DashboardBrowser.hidden("idempotencyKey", in: page)), ("amount", "1500")])
            let after = DashboardBrowser.text(try await browser.get("/dashboard/statistics?period=month"))
            #expect(after.contains("data-value=\"2500\""))
            #expect(after.contains("25.00 EUR"))
        }
    }

    @Test func searchFindsASaleByItsAmount() async throws {
        try await GatewayHarness.with { harness in
            let token = try await harness.login()
            let wanted = try await harness.cardSale(77_00, token: token)
            let other = try await harness.cardSale(12_00, token: token)
            let browser = try await DashboardBrowser.signedIn(harness)
            let page = DashboardBrowser.text(try await browser.get("/dashboard/transactions?q=77"))
            #expect(page.contains(wanted) && !page.contains(other))
            #expect(page.contains("1 transactions"))
        }
    }
}

@Suite(.timeLimit(.minutes(2))) struct DashboardWebhookPageTests {
    @Test func theWebhookPageShowsOnlyTheMerchantsDeliveriesWithTheirOutcome() async throws {
        try await GatewayHarness.with { harness in
            let other = try await harness.gateway.environment.accounts.createMerchant(
                name: "Other Shop", user: "other", email: "other@example.org")
            let now = harness.clock.now()
            // (merchant, transaction, attempt, succeeded, next attempt planned)
            let rows: [(String, String, Int, Bool, Bool)] = [
                (harness.credentials.merchantID, "tx_delivered", 1, true, false),
                (harness.credentials.merchantID, "tx_retried", 1, false, true),
                (harness.credentials.merchantID, "tx_failed", 5, false, false),
                (other.merchantID, "tx_someone_else", 1, true, false),
            ]
            try await harness.gateway.environment.store.sqliteWriter.write { db in
                for (merchant, transaction, attempt, succeeded, retrying) in rows {
                    try db.execute(
                        sql: """
                            INSERT INTO payment_webhook_delivery
                              (merchant_id, event_id, transaction_id, url, attempt, status_code, succeeded, attempted_at, next_attempt_at)
                            VALUES (?, ?, ?, 'http://127.0.0.1:9/hook', ?, ?, ?, ?, ?)
                            """,
                        arguments: [
                            merchant, "ev_" + transaction, transaction, attempt, succeeded ? 200 : 500, succeeded, now,
                            retrying ? now.addingTimeInterval(60) : nil,
                        ])
                }
            }
            let browser = try await DashboardBrowser.signedIn(harness)
            let page = DashboardBrowser.text(try await browser.get("/dashboard/webhooks"))
            #expect(page.contains("tx_delivered</a></td><td>1</td><td class=\"delivered\">"))
            #expect(page.contains("tx_retried</a></td><td>1</td><td class=\"retried\">"))
            #expect(page.contains("tx_failed</a></td><td>5</td><td class=\"failed\">"))
            #expect(!page.contains("tx_someone_else"))
        }
    }
}

@Suite(.timeLimit(.minutes(2))) struct DashboardReadersPageTests {
    @Test func theReadersPageListsOnlyTheMerchantsReadersWithPendingUpdatesAndDeadline() async throws {
        try await GatewayHarness.with { harness in
            let deadline = harness.clock.now().addingTimeInterval(10 * 24 * 3600)
            _ = try await UpdateTestSupport.published(harness, version: "2.0", deadline: GatewayJSONDate.string(deadline))
            _ = try await UpdateTestSupport.initialize(harness, serial: "SN-OURS")
            let other = try await harness.gateway.environment.accounts.createMerchant(
                name: "Other Shop", user: "other", email: "other@example.org")
            let otherToken = try await harness.login(user: other.user, password: other.password)
            _ = try await UpdateTestSupport.initialize(harness, token: otherToken, serial: "SN-THEIRS")
            let browser = try await DashboardBrowser.signedIn(harness)
            let page = DashboardBrowser.text(try await browser.get("/dashboard/readers"))
            #expect(page.contains("<td>SN-OURS</td><td>MPOS-1</td>"))
            #expect(page.contains("<td>1.0.0</td><td>1</td>"))
            #expect(page.contains("<li>firmware 2.0</li>"))
            #expect(page.contains(String(GatewayJSONDate.string(deadline).prefix(10))))
            #expect(!page.contains("SN-THEIRS"))
        }
    }

    /// A browser's multipart body for the publish form.
    static func multipart(_ fields: [(String, String)], image: [UInt8]?, boundary: String) -> Data {
        var body = Data()
        for (name, value) in fields {
            body.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8))
        }
        if let image {
            body.append(
                Data(
                    "--\(boundary)\r\nContent-Disposition: form-data; name=\"image\"; filename=\"cfg.bin\"\r\nContent-Type: application/octet-stream\r\n\r\n".utf8))
            body.append(Data(image))
            body.append(Data("\r\n".utf8))
        }
        body.append(Data("--\(boundary)--\r\n".utf8))
        return body
    }

    static func publish(
        _ browser: DashboardBrowser, csrf: String?, version: String, deadline: String
    ) async throws -> GatewayHarness.Reply {
        let boundary = "----mposkit\(version)"
        var fields = [("model", "MPOS-1"), ("kind", "configuration"), ("version", version), ("channel", "production"),
            ("deadline", deadline)]
        if let csrf { fields.insert(("csrf", csrf), at: 0) }
        // Bytes that hold CR LF and dashes, as binary images do.
        let image = (0..<5_000).map { UInt8(truncatingIfNeeded: $0 &* 31) } + Array("\r\n--".utf8)
        var headers = HTTPFields()
        headers[.cookie] = "mpos_dashboard=\(browser.session ?? "")"
        headers[.contentType] = "multipart/form-data; boundary=\(boundary)"
        return try await browser.harness.send(
            .post, "/dashboard/readers/publish", body: Self.multipart(fields, image: image, boundary: boundary),
            headers: headers)
    }

    @Test func theSandboxsOwnerPublishesAnUpdateWithADeadlineFromThePage() async throws {
        try await GatewayHarness.with { harness in
            _ = try await UpdateTestSupport.initialize(harness, serial: "SN-OURS")
            let browser = try await DashboardBrowser.signedIn(harness)
            let before = try await browser.get("/dashboard/readers")
            #expect(DashboardBrowser.text(before).contains("enctype=\"multipart/form-data\""))
            let csrf = DashboardBrowser.hidden("csrf", in: before)

            // Without the form's token nothing is published.
            #expect(try await Self.publish(browser, csrf: nil, version: "EMV-9", deadline: "2030-01-15").status == 403)
            let published = try await Self.publish(browser, csrf: csrf, version: "EMV-9", deadline: "2030-01-15")
            #expect(published.status == 303, "\(DashboardBrowser.text(published))")
            #expect(published.header("Location") == "/dashboard/readers?published=EMV-9")
            let images = try await UpdateCatalogueService(
                database: harness.gateway.environment.store.database, now: { harness.clock.now() }
            ).images()
            let image = try #require(images.first { $0.version == "EMV-9" })
            #expect(image.kind == .configuration && image.model == "MPOS-1" && image.size == 5_004)
            #expect(image.deadline == ISO8601DateFormatter().date(from: "2030-01-15T00:00:00Z"))
            // The reader now has it pending, with its deadline.
            let after = DashboardBrowser.text(try await browser.get("/dashboard/readers?published=EMV-9"))
            #expect(after.contains("Published EMV-9.") && after.contains("<li>configuration EMV-9</li>"))
            #expect(after.contains("2030-01-15"))
            // A malformed field is refused with its reason.
            let bad = try await Self.publish(browser, csrf: csrf, version: "EMV-10", deadline: "15.01.2030")
            #expect(bad.status == 400 && DashboardBrowser.text(bad).contains("yyyy-MM-dd"))
        }
    }

    @Test func anotherMerchantNeitherSeesThePublishFormNorPublishes() async throws {
        try await GatewayHarness.with { harness in
            let other = try await harness.gateway.environment.accounts.createMerchant(
                name: "Other Shop", user: "other", email: "other@example.org", password: "Other2026pass")
            var browser = DashboardBrowser(harness: harness)
            #expect(try await browser.logIn(user: other.user, password: "Other2026pass").status == 303)
            let page = try await browser.get("/dashboard/readers")
            #expect(!DashboardBrowser.text(page).contains("/dashboard/readers/publish"))
            let reply = try await Self.publish(
                browser, csrf: DashboardBrowser.hidden("csrf", in: page), version: "EMV-9", deadline: "")
            #expect(reply.status == 403)
            let images = try await UpdateCatalogueService(
                database: harness.gateway.environment.store.database, now: { harness.clock.now() }
            ).images()
            #expect(images.isEmpty)
        }
    }
}

@Suite(.timeLimit(.minutes(1))) struct MultipartFormTests {
    @Test func aBrowsersFormReadsAsItsFieldsAndFile() throws {
        let body = DashboardReadersPageTests.multipart(
            [("csrf", "t0k"), ("version", "2.0")], image: [0, 13, 10, 45, 45, 255], boundary: "XyZ")
        let form = try MultipartForm(body: Array(body), boundary: "XyZ")
        #expect(form["csrf"]?.text == "t0k" && form["version"]?.text == "2.0")
        #expect(form["image"]?.filename == "cfg.bin" && form["image"]?.data == [0, 13, 10, 45, 45, 255])
        #expect(form["missing"] == nil)
    }

    @Test func theBoundaryComesFromTheContentType() {
        #expect(MultipartForm.boundary(contentType: "multipart/form-data; boundary=abc") == "abc")
        #expect(MultipartForm.boundary(contentType: "multipart/form-data; charset=utf-8; boundary=\"a b\"") == "a b")
        #expect(MultipartForm.boundary(contentType: "application/x-www-form-urlencoded") == nil)
        #expect(MultipartForm.boundary(contentType: "multipart/form-data") == nil)
        #expect(MultipartForm.boundary(contentType: nil) == nil)
    }

    @Test func aBodyThatIsNotSuchAFormIsRefused() {
        let good = Array(DashboardReadersPageTests.multipart([("a", "1")], image: nil, boundary: "B"))
        for body in [
            Array("hello".utf8), Array(good.dropLast(8)), Array("--B\r\nNo-Disposition: x\r\n\r\nv\r\n--B--".utf8),
            Array("--B\r\nContent-Disposition: form-data; name=\"a\"\r\nv\r\n--B--".utf8),
        ] {
            #expect(throws: GatewayError.self) { try MultipartForm(body: body, boundary: "B") }
        }
    }
}

@Suite(.timeLimit(.minutes(2))) struct DashboardOfflinePageTests {
    /// A sale the card approved offline at `storedAt`, forwarded to the gateway with `token`.
    static func forward(
        _ harness: GatewayHarness, card: String, amount: Int64, atc: UInt16, storedAt: Date, token: String
    ) async throws -> Transaction {
        let (data, emvData) = try SimulatedTerminal.offlineApproval(
            card: SimulatedTerminal.card(card), amount: amount, atc: atc, date: storedAt)
        var stored = AuthorizeCardRequest(
            kind: .sale, parameters: PaymentParameters(amount: amount, currency: .eur),
            emvData: Hex.encode(emvData), encryptedCardData: Hex.encode(data.encryptedCardData),
            ksn: Hex.encode(data.ksn), maskedPAN: data.maskedPAN, entryMode: data.entryMode, cvm: data.cvm)
        stored.offlineStoredAt = storedAt
        return try await ReplayedCryptogramTests.post(harness, stored, token: token)
    }

    @Test func theOfflinePageListsTheMerchantsForwardedSalesWithHowLateTheyArrived() async throws {
        try await GatewayHarness.with { harness in
            let now = harness.clock.now()
            let token = try await harness.login()
            // Approved by the card three hours and five minutes before it reached the gateway.
            let late = try await Self.forward(
                harness, card: "visa-credit", amount: 15_00, atc: 30, storedAt: now.addingTimeInterval(-11_100),
                token: token)
            #expect(late.status == .approved)
            // A sale taken online is not an offline forward.
            let online = try await ReplayedCryptogramTests.post(
                harness, try ReplayedCryptogramTests.sale("visa-credit", amount: 16_00, atc: 31), token: token)
            // Another merchant's forward stays its own.
            let other = try await harness.gateway.environment.accounts.createMerchant(
                name: "Other Shop", user: "other", email: "other@example.org")
            let otherToken = try await harness.login(user: other.user, password: other.password)
            let theirs = try await Self.forward(
                harness, card: "mastercard-2series", amount: 9_00, atc: 12, storedAt: now.addingTimeInterval(-60),
                token: otherToken)

            let browser = try await DashboardBrowser.signedIn(harness)
            let page = DashboardBrowser.text(try await browser.get("/dashboard/offline"))
            #expect(page.contains(">\(late.id.rawValue)</a></td><td>15.00 EUR</td><td>approved</td>"))
            #expect(page.contains("<td>3 h 05 min</td>"))
            #expect(!page.contains(online.id.rawValue))
            #expect(!page.contains(theirs.id.rawValue))
            #expect(page.contains("href=\"/dashboard/offline\""))
        }
    }

    @Test func delaysReadInTheLargestUnitThatFits() {
        #expect(OfflinePage.delay(42) == "42 s")
        #expect(OfflinePage.delay(12 * 60 + 59) == "12 min")
        #expect(OfflinePage.delay(3 * 3_600 + 5 * 60) == "3 h 05 min")
        #expect(OfflinePage.delay(2 * 86_400 + 4 * 3_600 + 59) == "2 d 4 h")
        #expect(OfflinePage.delay(-5) == "0 s")
    }
}
