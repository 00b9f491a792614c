import EMV
import Foundation
import GatewayAPI
import MPOSCore
import SandboxGateway
import Testing

/// What merchant B does on each route of ``GatewayRoutes``, and what it must see: a 404 for
/// A's ids, empty lists, its own data only, and nothing of A's changed.
extension MerchantIsolationTests {
    static let walks: [String: RouteWalk] = {
        var table: [String: RouteWalk] = [:]
        func walk(_ route: GatewayRoute, _ body: @escaping RouteWalk) {
            precondition(table[route.description] == nil, "\(route) walked twice")
            table[route.description] = body
        }
        let none: Int? = nil

        walk(GatewayRoutes.health.route) { w async throws in
            #expect(try await w.send(.get, GatewayPaths.health, json: none).status == 200)
        }
        walk(GatewayRoutes.openAPI.route) { w async throws in
            #expect(try await w.send(.get, GatewayPaths.openAPI, json: none).status == 200)
        }

        // Accounts: B acts on its own account only.
        walk(GatewayRoutes.login.route) { w async throws in
            let session = try await w.send(
                .post, GatewayPaths.login, json: LoginRequest(user: w.b.user, password: w.b.password)
            ).decode(Session.self)
            #expect(session.merchant.id == w.b.merchantID)
        }
        walk(GatewayRoutes.logout.route) { w async throws in
            #expect(try await w.send(.post, GatewayPaths.logout, json: none).status == 204)
            let aMerchant = try await w.harness.send(.get, GatewayPaths.merchant, token: w.a.token)
            #expect(try aMerchant.decode(MerchantInfo.self).id == w.a.credentials.merchantID)
        }
        walk(GatewayRoutes.forgotUserID.route) { w async throws in
            let reply = try await w.send(
                .post, GatewayPaths.forgotUserID, json: ForgotUserIDRequest(email: w.a.credentials.email))
            #expect(reply.status == 202)
            #expect(try await w.outbox().messages.isEmpty)
        }
        walk(GatewayRoutes.resetPassword.route) { w async throws in
            // B's own reset mail lands in B's outbox, and only there.
            let aBefore = try await w.harness.send(.get, GatewayPaths.outbox, token: w.a.token)
                .decode(OutboxList.self).messages
            let reply = try await w.send(
                .post, GatewayPaths.resetPassword, json: ResetPasswordRequest(user: w.b.user))
            #expect(reply.status == 202)
            #expect(try await w.outbox().messages.map(\.recipient) == [w.b.email])
            let aAfter = try await w.harness.send(.get, GatewayPaths.outbox, token: w.a.token)
                .decode(OutboxList.self).messages
            #expect(aAfter == aBefore)
        }
        walk(GatewayRoutes.confirmPasswordReset.route) { w async throws in
            // B's code sets B's password, and A's still logs A in.
            _ = try await w.send(.post, GatewayPaths.resetPassword, json: ResetPasswordRequest(user: w.b.user))
            let mail = try #require(try await w.outbox().messages.first)
            let code = try #require(
                mail.body.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.first { $0.hasPrefix("pr_") })
            let new = "Walker-\(w.b.user)-Pw2!"
            let reply = try await w.send(
                .post, GatewayPaths.confirmPasswordReset,
                json: ConfirmPasswordResetRequest(code: code, newPassword: new, confirmation: new))
            #expect(reply.status == 200)
            _ = try await w.harness.login(user: w.b.user, password: new)
            _ = try await w.harness.login()
        }
        walk(GatewayRoutes.securityEvents.route) { w async throws in
            // A's failed login is in A's log, not in B's.
            _ = try await w.harness.send(
                .post, GatewayPaths.login, json: LoginRequest(user: w.a.credentials.user, password: "wrong-pass-1"))
            let events = try await w.send(.get, GatewayPaths.securityEvents, json: none).decode(SecurityEventList.self)
            #expect(events.events.allSatisfy { $0.userID == nil || $0.userID == w.b.user })
            let mine = try await w.harness.send(.get, GatewayPaths.securityEvents, token: w.a.token)
                .decode(SecurityEventList.self)
            #expect(mine.events.contains { $0.kind == .loginFailed && $0.userID == w.a.credentials.user })
        }
        walk(GatewayRoutes.deviceSession.route) { w async throws in
            let registered = try await w.send(
                .post, GatewayPaths.login,
                json: LoginRequest(user: w.b.user, password: w.b.password, device: DeviceRegistration(name: "B's till"))
            ).decode(Session.self)
            let credential = try #require(registered.deviceCredential)
            let renewed = try await w.send(
                .post, GatewayPaths.deviceSession,
                json: DeviceSessionRequest(deviceID: credential.deviceID, secret: credential.secret)
            ).decode(Session.self)
            #expect(renewed.merchant.id == w.b.merchantID)
        }
        walk(GatewayRoutes.registerDevice.route) { w async throws in
            let reply = try await w.send(.post, GatewayPaths.devices, json: DeviceRegistration(name: "B's tablet"))
            #expect(reply.status == 201)
            let credential = try reply.decode(DeviceCredential.self)
            let aDevices = try await w.harness.send(.get, GatewayPaths.devices, token: w.a.token).decode(DeviceList.self)
            #expect(!aDevices.devices.map(\.id).contains(credential.deviceID))
        }
        walk(GatewayRoutes.devices.route) { w async throws in
            let aDevice = try await w.harness.send(
                .post, GatewayPaths.login,
                json: LoginRequest(
                    user: w.a.credentials.user, password: w.a.credentials.password,
                    device: DeviceRegistration(name: "A's till")))
            #expect(aDevice.status == 200)
            let list = try await w.send(.get, GatewayPaths.devices, json: none).decode(DeviceList.self)
            #expect(list.devices.isEmpty)
        }
        walk(GatewayRoutes.revokeDevice.route) { w async throws in
            let aDevice = try await w.harness.send(
                .post, GatewayPaths.login,
                json: LoginRequest(
                    user: w.a.credentials.user, password: w.a.credentials.password,
                    device: DeviceRegistration(name: "A's till"))
            ).decode(Session.self)
            let credential = try #require(aDevice.deviceCredential)
            let reply = try await w.send(.delete, GatewayRoutes.revokeDevice.path(id: credential.deviceID), json: none)
            #expect(reply.status == 404)
            let renewed = try await w.harness.send(
                .post, GatewayPaths.deviceSession,
                json: DeviceSessionRequest(deviceID: credential.deviceID, secret: credential.secret))
            #expect(renewed.status == 200)
        }
        walk(GatewayRoutes.changePassword.route) { w async throws in
            let new = "Walker-\(w.b.user)-Pw1!"
            let reply = try await w.send(
                .post, GatewayPaths.changePassword,
                json: ChangePasswordRequest(oldPassword: w.b.password, newPassword: new, confirmation: new))
            #expect(reply.status == 200)
            _ = try await w.harness.login()
        }
        walk(GatewayRoutes.merchant.route) { w async throws in
            let info = try await w.send(.get, GatewayPaths.merchant, json: none).decode(MerchantInfo.self)
            #expect(info.id == w.b.merchantID)
        }
        walk(GatewayRoutes.outbox.route) { w async throws in
            #expect(try await w.outbox().messages.isEmpty)
        }
        walk(GatewayRoutes.mintClientToken.route) { w async throws in
            let token = try await w.send(
                .post, GatewayPaths.clientTokens, json: ClientTokenRequest(), apiKey: true
            ).decode(ClientToken.self)
            #expect(token.merchantID == w.b.merchantID)
        }
        walk(GatewayRoutes.createMerchant.route) { w async throws in
            // Only the sandbox's first merchant adds merchants.
            let reply = try await w.send(
                .post, GatewayPaths.merchants, json: CreateMerchantRequest(name: "Not mine"), apiKey: true)
            #expect(reply.status == 403)
        }
        walk(GatewayRoutes.attempt.route) { w async throws in
            let reply = try await w.send(.get, GatewayPaths.attempt(key: w.a.idempotencyKey), json: none)
            #expect(reply.status == 404)
        }

        // New payments under A's idempotency key are B's own, never A's stored answer.
        walk(GatewayRoutes.authorizeCard.route) { w async throws in
            let request = try PaymentHTTPTests.authorize(SimulatedTerminal.card("visa-credit"), amount: 3_00)
            let reply = try await w.send(
                .post, GatewayPaths.authorizeCard, json: request, idempotencyKey: w.a.idempotencyKey)
            #expect(reply.status == 200)
            #expect(try reply.decode(Transaction.self).id.rawValue != w.a.transactionID)
        }
        walk(GatewayRoutes.cashPayment.route) { w async throws in
            let reply = try await w.send(
                .post, GatewayPaths.cashPayment, json: CashPaymentRequest(amount: 1_00, currency: .eur),
                idempotencyKey: w.a.idempotencyKey)
            #expect(reply.status == 200)
            #expect(try reply.decode(Transaction.self).id.rawValue != w.a.transactionID)
        }
        walk(GatewayRoutes.sepaPayment.route) { w async throws in
            let card = try SimulatedTerminal.authorization(
                card: SimulatedTerminal.card("visa-credit"), amount: 2_00)
            let request = SEPAPaymentRequest(
                amount: 2_00, currency: .eur, encryptedCardData: Hex.encode(card.encryptedCardData),
                ksn: Hex.encode(card.ksn), emvData: Hex.encode(card.emvData), maskedPAN: card.maskedPAN,
                entryMode: card.entryMode)
            let reply = try await w.send(
                .post, GatewayPaths.sepaPayment, json: request, idempotencyKey: w.a.idempotencyKey)
            #expect(reply.status == 200)
            #expect(try reply.decode(Transaction.self).id.rawValue != w.a.transactionID)
        }

        // A's transaction id answers 404 on every route that takes one.
        walk(GatewayRoutes.transaction.route) { w async throws in
            #expect(
                try await w.send(.get, w.aTransaction(GatewayPaths.transaction), json: none).status == 404)
        }
        walk(GatewayRoutes.capture.route) { w async throws in
            let reply = try await w.send(.post, w.aTransaction(GatewayPaths.capture), json: CaptureRequest())
            #expect(reply.status == 404)
        }
        walk(GatewayRoutes.tipAdjust.route) { w async throws in
            let reply = try await w.send(
                .post, w.aTransaction(GatewayPaths.tipAdjust), json: TipAdjustRequest(tipAmount: 1_00))
            #expect(reply.status == 404)
        }
        walk(GatewayRoutes.void.route) { w async throws in
            let reply = try await w.send(.post, w.aTransaction(GatewayPaths.void), json: VoidRequest())
            #expect(reply.status == 404)
        }
        walk(GatewayRoutes.reverse.route) { w async throws in
            let reply = try await w.send(
                .post, w.aTransaction(GatewayPaths.reverse), json: ReverseRequest(reason: .merchantRequest))
            #expect(reply.status == 404)
        }
        walk(GatewayRoutes.refund.route) { w async throws in
            let reply = try await w.send(.post, w.aTransaction(GatewayPaths.refund), json: RefundRequest())
            #expect(reply.status == 404)
        }
        walk(GatewayRoutes.receipt.route) { w async throws in
            #expect(try await w.send(.get, w.aTransaction(GatewayPaths.receipt), json: none).status == 404)
        }
        walk(GatewayRoutes.sendReceipt.route) { w async throws in
            let reply = try await w.send(
                .post, w.aTransaction(GatewayPaths.sendReceipt),
                json: SendReceiptRequest(channel: .email, address: "b@example.org"))
            #expect(reply.status == 404)
            #expect(try await w.outbox().messages.isEmpty)
        }
        walk(GatewayRoutes.uploadSignature.route) { w async throws in
            // B cannot put a signature on A's transaction, nor learn that it exists.
            let png = Data(SignatureImage.pngSignature + [0, 0, 0, 0])
            let reply = try await w.send(
                .put, GatewayRoutes.uploadSignature.path(id: w.a.transactionID), json: SignatureImage(png: png))
            #expect(reply.status == 404)
        }
        walk(GatewayRoutes.signature.route) { w async throws in
            let reply = try await w.send(.get, GatewayRoutes.signature.path(id: w.a.transactionID), json: none)
            #expect(reply.status == 404)
        }
        walk(GatewayRoutes.closeBatch.route) { w async throws in
            // B has no open batch; A's open one must not be closed for it.
            #expect(try await w.send(.post, GatewayPaths.closeBatch, json: none).status == 409)
        }

        // Reporting: empty for B, and B's writes do not reach A.
        walk(GatewayRoutes.searchTransactions.route) { w async throws in
            for request in [TransactionSearchRequest(), TransactionSearchRequest(text: w.a.transactionID)] {
                let page = try await w.send(.post, GatewayPaths.searchTransactions, json: request)
                    .decode(TransactionPage.self)
                #expect(page.totalCount == 0 && page.items.isEmpty)
            }
        }
        walk(GatewayRoutes.statistics.route) { w async throws in
            let now = w.harness.clock.now()
            let request = StatisticsRequest(
                from: now.addingTimeInterval(-86_400), to: now.addingTimeInterval(86_400), grouping: .day)
            let stats = try await w.send(.post, GatewayPaths.statistics, json: request)
                .decode(StatisticsResponse.self)
            #expect(stats.buckets.reduce(0) { $0 + $1.count } == 0)
        }
        walk(GatewayRoutes.uploadInventory.route) { w async throws in
            // Version 1 is below A's 3: B's versions are its own.
            let reply = try await w.send(
                .put, GatewayPaths.inventory,
                json: InventoryUploadRequest(version: 1, csv: "sku,name,price\n"))
            #expect(reply.status == 200)
        }
        walk(GatewayRoutes.downloadInventory.route) { w async throws in
            #expect(try await w.send(.get, GatewayPaths.inventory, json: none).status == 404)
        }
        walk(GatewayRoutes.inventoryVersion.route) { w async throws in
            #expect(try await w.send(.get, GatewayPaths.inventoryVersion, json: none).status == 404)
        }
        walk(GatewayRoutes.getWebhookConfig.route) { w async throws in
            let config = try await w.send(.get, GatewayPaths.webhookConfig, json: none)
                .decode(WebhookConfigResponse.self)
            #expect(config.callbackURL == nil)
        }
        walk(GatewayRoutes.putWebhookConfig.route) { w async throws in
            let reply = try await w.send(
                .put, GatewayPaths.webhookConfig,
                json: WebhookConfig(callbackURL: "http://127.0.0.1:9/merchant-b-hook", secret: nil))
            #expect(
                try reply.decode(WebhookConfigResponse.self).callbackURL
                    == "http://127.0.0.1:9/merchant-b-hook")
        }
        walk(GatewayRoutes.webhookDeliveries.route) { w async throws in
            let list = try await w.send(.get, GatewayPaths.webhookDeliveries, json: none)
                .decode(WebhookDeliveryList.self)
            #expect(list.deliveries.isEmpty)
        }
        MerchantIsolationTests.addUpdateWalks(walk)
        return table
    }()
}
