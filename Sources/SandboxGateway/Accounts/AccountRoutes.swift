import Foundation
import GatewayAPI
import Hummingbird
import MPOSCore

/// Registers the account routes: login, logout, password flows, merchant info, outbox,
/// client tokens.
public func addAccountRoutes(to router: Router<GatewayRequestContext>, environment: GatewayEnvironment) {
    let accounts = environment.accounts

    router.on(GatewayRoutes.login) { request, context in
        let body = try await decodeBody(request, context: context, for: GatewayRoutes.login)
        return try context.respond(
            to: request,
            with: try await accounts.login(
                user: body.user, password: body.password, address: context.clientAddress, device: body.device))
    }

    router.on(GatewayRoutes.deviceSession) { request, context in
        let body = try await decodeBody(request, context: context, for: GatewayRoutes.deviceSession)
        guard (1...128).contains(body.deviceID.unicodeScalars.count), (1...128).contains(body.secret.unicodeScalars.count)
        else { throw GatewayError.invalid("'deviceID' and 'secret' must have 1 to 128 characters.") }
        return try context.respond(
            to: request, with: try await accounts.deviceSession(body, address: context.clientAddress))
    }

    router.on(GatewayRoutes.registerDevice) { request, context in
        let body = try await decodeBody(request, context: context, for: GatewayRoutes.registerDevice)
        let merchantID = try context.requireMerchant()
        // A device session has a device already; it may not make more.
        guard context.principal?.kind != .deviceSession else {
            throw GatewayError.forbidden("A device's session cannot register another device.")
        }
        return try context.respond(
            to: request,
            with: try await accounts.registerDevice(
                merchantID: merchantID, userID: context.principal?.userID, name: body.name, address: context.clientAddress),
            status: .created)
    }

    router.on(GatewayRoutes.devices) { request, context in
        let merchantID = try context.requireMerchant(allowingAPIKey: true)
        return try context.respond(to: request, with: try await accounts.devices(merchantID: merchantID))
    }

    router.on(GatewayRoutes.revokeDevice) { _, context in
        let merchantID = try context.requireMerchant(allowingAPIKey: true)
        guard let id = context.parameters.get("id") else { throw GatewayError.invalid("The device id is missing.") }
        try await accounts.revokeDevice(
            merchantID: merchantID, id: id, by: context.principal?.userID, address: context.clientAddress)
        return GatewayResponse.noContent()
    }

    router.on(GatewayRoutes.logout) { request, context in
        _ = try context.requireMerchant()
        if let value = request.headers[.authorization] {
            try await accounts.logout(token: String(value.dropFirst(GatewayHeaders.bearerPrefix.count)))
        }
        return GatewayResponse.noContent()
    }

    router.on(GatewayRoutes.forgotUserID) { request, context in
        let body = try await decodeBody(request, context: context, for: GatewayRoutes.forgotUserID)
        guard GatewayValidation.isEmailAddress(body.email) else {
            throw GatewayError.invalid("'email' is not an e-mail address.")
        }
        try await accounts.forgotUserID(email: body.email)
        return try context.respond(
            to: request,
            with:
                Acknowledgement(message: "If the address is registered, its user id was sent."),
            status: .accepted)
    }

    router.on(GatewayRoutes.resetPassword) { request, context in
        let body = try await decodeBody(request, context: context, for: GatewayRoutes.resetPassword)
        guard !body.user.isEmpty, body.user.unicodeScalars.count <= 128 else {
            throw GatewayError.invalid("'user' must have 1 to 128 characters.")
        }
        try await accounts.requestPasswordReset(user: body.user, address: context.clientAddress)
        return try context.respond(
            to: request,
            with:
                Acknowledgement(message: "If the user exists, a one-time reset code was sent to its e-mail address."),
            status: .accepted)
    }

    router.on(GatewayRoutes.confirmPasswordReset) { request, context in
        let body = try await decodeBody(request, context: context, for: GatewayRoutes.confirmPasswordReset)
        guard !body.code.isEmpty, body.code.unicodeScalars.count <= 128 else {
            throw GatewayError.invalid("'code' must have 1 to 128 characters.")
        }
        try await accounts.confirmPasswordReset(body, address: context.clientAddress)
        return try context.respond(
            to: request, with: Acknowledgement(message: "The password was set; log in with it."))
    }

    router.on(GatewayRoutes.changePassword) { request, context in
        let body = try await decodeBody(request, context: context, for: GatewayRoutes.changePassword)
        let caller = try context.requireUser()
        try await accounts.changePassword(
            merchantID: caller.merchantID, userID: caller.userID, keeping: context.principal?.tokenHash, request: body,
            address: context.clientAddress)
        return try context.respond(to: request, with: Acknowledgement(message: "The password was changed."))
    }

    router.on(GatewayRoutes.merchant) { request, context in
        let merchantID = try context.requireMerchant()
        return try context.respond(
            to: request,
            with:
                try await accounts.merchantInfo(merchantID: merchantID, userID: context.principal?.userID))
    }

    router.on(GatewayRoutes.outbox) { request, context in
        let merchantID = try context.requireMerchant(allowingAPIKey: true)
        return try context.respond(to: request, with: try await accounts.outbox(merchantID: merchantID))
    }

    router.on(GatewayRoutes.securityEvents) { request, context in
        let merchantID = try context.requireMerchant(allowingAPIKey: true)
        return try context.respond(
            to: request, with: SecurityEventList(events: try await accounts.securityLog.events(merchantID: merchantID)))
    }

    router.on(GatewayRoutes.mintClientToken) { request, context in
        guard let principal = context.principal, principal.kind == .apiKey else {
            if context.principal != nil {
                throw GatewayError.forbidden(
                    "Client tokens are minted with the \(GatewayHeaders.apiKey) header.")
            }
            throw context.authenticationFailure
                ?? .unauthorized("The \(GatewayHeaders.apiKey) header is required.")
        }
        var request = request
        let body = try await decodeBody(
            &request, context: context, for: GatewayRoutes.mintClientToken, emptyAs: "{}"
        ).value
        var lifetime: TimeInterval?
        if let seconds = body.lifetimeSeconds {
            guard seconds > 0 else { throw GatewayError.invalid("'lifetimeSeconds' must be positive.") }
            lifetime = TimeInterval(seconds)
        }
        return try context.respond(
            to: request,
            with:
                try await accounts.mintClientToken(
                    merchantID: principal.merchantID, lifetime: lifetime, address: context.clientAddress),
            status: .created)
    }
}

/// Registers `POST /v1/merchants`: the first merchant's API key adds a merchant.
func addMerchantAdminRoutes(to router: Router<GatewayRequestContext>, environment: GatewayEnvironment) {
    router.on(GatewayRoutes.createMerchant) { request, context in
        // The first merchant owns the sandbox; the merchants it adds must not add more.
        _ = try await context.requireFirstMerchantAPIKey(
            environment.accounts, passive: "Merchants are added", active: "adds merchants")
        var request = request
        let body = try await decodeBody(
            &request, context: context, for: GatewayRoutes.createMerchant, emptyAs: "{}"
        ).value
        let created = try await environment.accounts.addMerchant(name: body.name)
        return try context.respond(
            to: request,
            with: MerchantCredentials(
                merchantID: created.merchantID, user: created.user, password: created.password,
                apiKey: created.apiKey, email: created.email),
            status: .created)
    }
}

/// Registers `GET /v1/attempts/{key}`: the stored answer of an idempotent request.
public func addAttemptRoutes(to router: Router<GatewayRequestContext>, environment: GatewayEnvironment) {
    router.on(GatewayRoutes.attempt) { _, context in
        let merchantID = try context.requireMerchant()
        guard let text = context.parameters.get("key"), let key = IdempotencyKey(rawValue: text) else {
            throw GatewayError.invalid("The idempotency key in the path is malformed.")
        }
        return try await environment.idempotency.attempt(key: key, merchant: merchantID)
    }
}
