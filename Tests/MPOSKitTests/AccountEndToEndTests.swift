import Foundation
import GatewayAPI
import MPOSCore
import ReaderLinkTCP
import SandboxCards
import SandboxGateway
import Testing

@testable import MPOSKit

/// Accounts, warm-up and reset, receipts and inventory through MPOSKit, against the real
/// sandbox gateway over HTTP (and the simulated reader over TCP where a sale is needed).
@Suite(.serialized, .timeLimit(.minutes(2))) struct AccountEndToEndTests {
    static func outbox(_ sandbox: Sandbox) async throws -> [OutboxMessage] {
        try await sandbox.gateway.environment.accounts.outbox(merchantID: sandbox.credentials.merchantID).messages
    }

    static func terminal(_ sandbox: Sandbox, password: String? = nil) throws -> PaymentTerminal {
        try PaymentTerminal(
            environment: sandbox.gateway.baseURL,
            credentials: .login(
                user: sandbox.credentials.user, password: password ?? sandbox.credentials.password),
            journalPath: sandbox.journalPath)
    }

    /// A terminal on the sandbox's journal that holds no device credential: its logins stand or
    /// fall with the password (another device, in effect).
    static func unregistered(_ sandbox: Sandbox, password: String? = nil) throws -> PaymentTerminal {
        try PaymentTerminal(
            environment: sandbox.gateway.baseURL,
            credentials: .login(
                user: sandbox.credentials.user, password: password ?? sandbox.credentials.password),
            journalPath: sandbox.journalPath,
            deviceCredentials: DeviceCredentialFile(path: sandbox.directory.appendingPathComponent("unregistered-\(UUID().uuidString)").path))
    }

    static let fullPANs = SandboxCards.all.map(\.pan.unmaskedDigits)

    // MARK: - Account

    @Test func merchantInfoDescribesTheLoggedInMerchant() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await sandbox.terminal(connect: false)
        let info = try await terminal.accounts.merchantInfo()
        #expect(info.id == sandbox.credentials.merchantID)
        #expect(info.userID == sandbox.credentials.user)
        #expect(!info.name.isEmpty)
        let fresh = try Self.terminal(sandbox)
        await #expect(throws: MPOSError.notLoggedIn) { try await fresh.accounts.merchantInfo() }
        try await sandbox.close(terminal)
    }

    @Test func forgotUserIDMailsTheUserID() async throws {
        let sandbox = try await Sandbox()
        let terminal = try Self.terminal(sandbox)
        await #expect(throws: MPOSError.invalidEmailAddress) {
            try await terminal.accounts.forgotUserID(email: "not-an-address")
        }
        try await terminal.accounts.forgotUserID(email: "nobody@example.com")
        #expect(try await Self.outbox(sandbox).isEmpty)
        try await terminal.accounts.forgotUserID(email: sandbox.credentials.email)
        let mail = try #require(try await Self.outbox(sandbox).first)
        #expect(mail.channel == .email && mail.recipient == sandbox.credentials.email)
        #expect(mail.body.contains(sandbox.credentials.user))
        try await sandbox.close()
    }

    @Test func resetPasswordMailsACodeThatSetsANewPassword() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await sandbox.terminal(connect: false)
        try await terminal.accounts.resetPassword(user: sandbox.credentials.user)
        let mail = try #require(try await Self.outbox(sandbox).first)
        #expect(mail.recipient == sandbox.credentials.email)
        let code = try #require(
            mail.body.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.first { $0.hasPrefix("pr_") })
        // Asking changed nothing: the session and the password still work.
        #expect(try await terminal.accounts.merchantInfo().id == sandbox.credentials.merchantID)
        try await Self.terminal(sandbox).login()

        await #expect(throws: MPOSError.passwordPolicy) {
            try await terminal.accounts.confirmPasswordReset(code: code, newPassword: "fresh-pass-42", confirmation: "other-42")
        }
        try await terminal.accounts.confirmPasswordReset(code: code, newPassword: "fresh-pass-42", confirmation: "fresh-pass-42")
        await #expect(throws: MPOSError.gatewayUnauthorized) {
            try await terminal.accounts.confirmPasswordReset(code: code, newPassword: "fresh-pass-43", confirmation: "fresh-pass-43")
        }
        // The old password logs no one in; the registered terminal still logs in with its own
        // device credential.
        await #expect(throws: MPOSError.gatewayUnauthorized) { try await Self.unregistered(sandbox).login() }
        try await Self.terminal(sandbox).login()
        let renewed = try Self.unregistered(sandbox, password: "fresh-pass-42")
        try await renewed.login()
        #expect(await renewed.status.isLoggedIn)
        await #expect(throws: MPOSError.invalidArgument) { try await renewed.accounts.resetPassword(user: "  ") }
        try await sandbox.close()
    }

    @Test func changePasswordReplacesTheOldOne() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await sandbox.terminal(connect: false)
        let old = sandbox.credentials.password
        await #expect(throws: MPOSError.passwordPolicy) {
            try await terminal.accounts.changePassword(
                oldPassword: old, newPassword: "Newpass123", confirmation: "Newpass124")
        }
        // The gateway's policy: at least 8 characters with a letter and a digit.
        do {
            try await terminal.accounts.changePassword(oldPassword: old, newPassword: "abc1", confirmation: "abc1")
            Issue.record("A 4-character password was accepted.")
        } catch {
            #expect(error == MPOSError.passwordPolicy)
            #expect(error.message.contains("8 characters") && !error.message.contains("abc1"))
        }
        await #expect(throws: MPOSError.passwordPolicy) {
            try await terminal.accounts.changePassword(
                oldPassword: old, newPassword: "onlyletters", confirmation: "onlyletters")
        }
        await #expect(throws: MPOSError.gatewayUnauthorized) {
            try await terminal.accounts.changePassword(
                oldPassword: "wrong-password-1", newPassword: "Newpass123", confirmation: "Newpass123")
        }
        try await terminal.accounts.changePassword(
            oldPassword: old, newPassword: "Newpass123", confirmation: "Newpass123")
        await #expect(throws: MPOSError.gatewayUnauthorized) { try await Self.unregistered(sandbox).login() }
        let withNew = try Self.unregistered(sandbox, password: "Newpass123")
        try await withNew.login()
        #expect(await withNew.status.isLoggedIn)
        // The terminal that changed it logs in with the new password from then on.
        try await terminal.reset()
        #expect(try await terminal.warmUp().loggedIn)
        try await sandbox.close()
    }

    // MARK: - Lifecycle

    @Test func warmUpLogsInReadsTheMerchantAndPingsTheReader() async throws {
        let sandbox = try await Sandbox()
        let terminal = try Self.terminal(sandbox)
        #expect(await terminal.status.isLoggedIn == false)
        let first = try await terminal.warmUp()
        #expect(first.loggedIn && first.reader == nil)
        #expect(first.merchant.id == sandbox.credentials.merchantID)
        #expect(await terminal.status.isLoggedIn)

        let link = try await TCPTransport.connect(host: "127.0.0.1", port: sandbox.server.port)
        try await terminal.reader.connect(transport: link, secret: Sandbox.secret)
        let second = try await terminal.warmUp()
        #expect(second.loggedIn == false)
        #expect(second.reader?.serialNumber.isEmpty == false)
        #expect(await terminal.status.device == .cardReader(second.reader))

        // The gateway ends the session on its side: warm-up notices and logs in again.
        let token = try #require(await terminal.client.token)
        try await sandbox.gateway.environment.accounts.logout(token: token)
        let third = try await terminal.warmUp()
        #expect(third.loggedIn)
        #expect(try await terminal.reports.searchTransactions().totalCount == 0)
        try await sandbox.close(terminal)
    }

    @Test func resetEndsTheSessionAndTheReaderButKeepsTheJournal() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await sandbox.terminal()
        let events = terminal.events.subscribe([.connection])
        let sale = try await terminal.sale(PaymentParameters(amount: 5_00, currency: .eur))
        #expect(sale.status == .approved)
        let token = try #require(await terminal.client.token)

        try await terminal.reset()
        #expect(await terminal.status.isLoggedIn == false)
        await #expect(throws: MPOSError.readerNotConnected) { try await terminal.reader.info() }
        await #expect(throws: MPOSError.notLoggedIn) {
            try await terminal.sale(PaymentParameters(amount: 5_00, currency: .eur))
        }
        // The gateway was told: the old token no longer opens anything.
        let resolved = try await sandbox.gateway.environment.accounts.resolveBearer(token)
        #expect((try? resolved.get()) == nil)
        // The subscription ended, after reporting the disconnection.
        var seen: [TerminalEvent] = []
        for await event in events { seen.append(event) }
        #expect(seen.contains(.readerConnection(connected: false, info: nil)))
        // The journal is kept.
        let entries = try PaymentJournal(path: sandbox.journalPath).all()
        #expect(entries.count == 1 && entries[0].gatewayTransactionID == sale.transactionID)

        #expect(try await terminal.warmUp().loggedIn)
        #expect(await terminal.status.isLoggedIn)
        try await sandbox.close(terminal)
    }

    @Test func resetWaitsForTheRunningSaleAndWarmUpLeavesItsReaderAlone() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await sandbox.terminal()
        let (asked, signal) = AsyncStream.makeStream(of: Void.self)
        let (decided, decide) = AsyncStream.makeStream(of: SignatureDecision.self)
        await terminal.setSignatureHandler { _ in
            signal.yield()
            for await decision in decided { return decision }
            return .decline
        }
        // 30.00 asks for a signature: the sale waits on the handler while the test acts.
        let sale = Task { try await terminal.sale(PaymentParameters(amount: 30_00, currency: .eur)) }
        for await _ in asked { break }
        await #expect(throws: MPOSError.terminalBusy) { try await terminal.reset() }
        let report = try await terminal.warmUp()
        #expect(report.loggedIn == false && report.reader == nil)
        decide.yield(.accept)
        #expect(try await sale.value.status == .approved)
        #expect(try await terminal.warmUp().reader != nil)
        try await terminal.reset()
        #expect(await terminal.status.isLoggedIn == false)
        try await sandbox.close(terminal)
    }

    // MARK: - Receipts

    @Test func aRealSalesReceiptsShowTheMaskedPANOnly() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await sandbox.terminal()
        let result = try await terminal.sale(PaymentParameters(amount: 12_34, currency: .eur))
        #expect(result.status == .approved)
        let id = try #require(result.transactionID)
        let merchant = try await terminal.accounts.merchantInfo()

        let local = await terminal.receipts.receipt(for: result)
        let remote = try await terminal.receipts.receipt(transactionID: id)
        #expect(remote.batchID != nil && remote.receiptNumber != nil)
        #expect(remote.maskedPAN == "411111******1111" && remote.aid == local.aid)
        // The card's TVR and TSI reach the receipt.
        #expect(local.tvr?.count == 10 && local.tsi?.count == 4)
        #expect(local.cryptogram?.count == 16 && local.merchantAddress == merchant.address)
        for receipt in [local, remote] {
            for copy in ReceiptCopy.allCases {
                for rendered in [receipt.text(copy), receipt.html(copy)] {
                    #expect(rendered.contains("411111******1111"))
                    #expect(rendered.contains("12.34 EUR") && rendered.contains("PIN VERIFIED"))
                    #expect(rendered.contains(merchant.id) && rendered.contains(id.rawValue))
                    #expect(rendered.contains(result.authorizationCode ?? "no code"))
                    #expect(Self.fullPANs.allSatisfy { !rendered.contains($0) })
                }
            }
        }
        let data = try await terminal.receipts.data(transactionID: id)
        #expect(data.totalAmount == 12_34 && data.card?.maskedPAN == "411111******1111")
        await #expect(throws: MPOSError.notFound) {
            try await terminal.receipts.receipt(transactionID: TransactionID(rawValue: "txn_does_not_exist")!)
        }
        try await sandbox.close(terminal)
    }

    @Test func aReceiptIsSentByEmailAndSMSToTheOutbox() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await sandbox.terminal()
        let result = try await terminal.sale(PaymentParameters(amount: 7_50, currency: .eur))
        let id = try #require(result.transactionID)

        try await terminal.receipts.send(transactionID: id, to: .email("anna@example.com"))
        try await terminal.receipts.send(transactionID: id, to: .phone("+49 151 1234 5678"))
        let messages = try await Self.outbox(sandbox)
        let mail = try #require(messages.first { $0.channel == .email })
        let sms = try #require(messages.first { $0.channel == .sms })
        #expect(mail.recipient == "anna@example.com" && sms.recipient == "+49 151 1234 5678")
        for message in [mail, sms] {
            #expect(message.body.contains("411111******1111") && message.body.contains(id.rawValue))
            #expect(Self.fullPANs.allSatisfy { !message.body.contains($0) })
        }
        await #expect(throws: MPOSError.invalidEmailAddress) {
            try await terminal.receipts.send(transactionID: id, to: .email("anna@example"))
        }
        await #expect(throws: MPOSError.notFound) {
            try await terminal.receipts.send(
                transactionID: TransactionID(rawValue: "txn_does_not_exist")!, to: .email("anna@example.com"))
        }
        #expect(try await Self.outbox(sandbox).count == 2)
        try await sandbox.close(terminal)
    }

    // MARK: - Inventory

    @Test func anInventoryIsUploadedVersionedAndDownloaded() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await sandbox.terminal(connect: false)
        #expect(try await terminal.inventory.currentVersion() == nil)
        await #expect(throws: MPOSError.notFound) { try await terminal.inventory.download() }

        let first = "sku,name,price\nA1,Coffee,250\nA2,\"Tea, green\",220\n"
        let stored = try await terminal.inventory.upload(csv: first, version: 1)
        #expect(stored.version == 1 && stored.itemCount == 2 && stored.sha256.count == 64)
        #expect(try await terminal.inventory.currentVersion()?.version == 1)
        let document = try await terminal.inventory.download()
        #expect(document.csv == first && document.version.version == 1)

        await #expect(throws: MPOSError.invalidInventory) {
            try await terminal.inventory.upload(csv: first, version: 1)
        }
        await #expect(throws: MPOSError.invalidInventory) {
            try await terminal.inventory.upload(csv: "sku,name\nA1\n", version: 2)
        }
        await #expect(throws: MPOSError.invalidInventory) {
            try await terminal.inventory.upload(csv: "", version: 2)
        }
        await #expect(throws: MPOSError.invalidInventory) {
            try await terminal.inventory.upload(csv: first, version: 0)
        }

        let second = "sku,name,price\nA1,Coffee,260\n"
        #expect(try await terminal.inventory.upload(csv: second, version: 2).itemCount == 1)
        #expect(try await terminal.inventory.download().csv == second)
        #expect(try await terminal.inventory.currentVersion()?.version == 2)
        try await sandbox.close(terminal)
    }
}
