import GatewayAPI
import MPOSCore

/// The merchant user's account, reached as ``PaymentTerminal/accounts``: who the merchant
/// is, a forgotten user id, a forgotten or changed password.
///
/// ```swift
/// try await terminal.accounts.changePassword(oldPassword: old, newPassword: new, confirmation: new)
/// ```
public struct Accounts: Sendable {
    let client: GatewayClient

    /// The merchant the session belongs to, read from the gateway (and kept for receipts).
    ///
    /// - Throws: ``MPOSError/notLoggedIn``, ``MPOSError/gatewayUnauthorized`` when the
    ///   session lapsed, ``MPOSError/gatewayUnreachable``.
    public func merchantInfo() async throws(MPOSError) -> MerchantInfo {
        guard await client.isLoggedIn else { throw MPOSError.notLoggedIn }
        return try await client.refreshMerchant()
    }

    /// Asks the gateway to e-mail the user id(s) registered for `email`. Needs no session.
    ///
    /// The gateway answers the same whether or not the address has an account, so the
    /// call cannot tell which addresses are known.
    ///
    /// - Throws: ``MPOSError/invalidEmailAddress`` before any request,
    ///   ``MPOSError/gatewayUnreachable``, ``MPOSError/gatewayRefused``.
    public func forgotUserID(email: String) async throws(MPOSError) {
        let recipient = try ReceiptRecipient.email(email)
        let response = try await client.call(
            GatewayRoutes.forgotUserID, body: ForgotUserIDRequest(email: recipient.address))
        try client.check(response) { status, body -> MPOSError? in
            status == 400
                ? MPOSError.invalidEmailAddress.withMessage(
                    body?.message ?? "The gateway refused the address.") : nil
        }
    }

    /// Asks the gateway to mail a one-time reset code to `user`'s address. Nothing changes
    /// until the code is redeemed with ``confirmPasswordReset(code:newPassword:confirmation:)``,
    /// so a stranger who asks cannot lock anyone out. Needs no session, and answers the same
    /// for unknown users.
    ///
    /// - Throws: ``MPOSError/invalidArgument`` for an empty user id,
    ///   ``MPOSError/gatewayUnreachable``, ``MPOSError/gatewayRefused``.
    public func resetPassword(user: String) async throws(MPOSError) {
        let user = user.trimmingSpaces
        guard !user.isEmpty, user.count <= 128 else {
            throw MPOSError.invalidArgument.withMessage("The user id must have 1 to 128 characters.")
        }
        let response = try await client.call(
            GatewayRoutes.resetPassword, body: ResetPasswordRequest(user: user))
        try client.check(response)
    }

    /// Sets a new password with the one-time code that ``resetPassword(user:)`` mailed (single
    /// use, valid for 30 minutes). The gateway ends the user's sessions and lifts a lockout;
    /// log in again with the new password. Needs no session.
    ///
    /// - Throws: ``MPOSError/passwordPolicy`` when the confirmation differs (before any request)
    ///   or the gateway's policy refuses the new password; ``MPOSError/gatewayUnauthorized``
    ///   for a code that is unknown, used or expired; ``MPOSError/gatewayUnreachable``.
    public func confirmPasswordReset(code: String, newPassword: String, confirmation: String)
        async throws(MPOSError)
    {
        guard newPassword == confirmation else {
            throw MPOSError.passwordPolicy.withMessage("The confirmation differs from the new password.")
        }
        let code = code.trimmingSpaces
        guard !code.isEmpty, code.count <= 128 else {
            throw MPOSError.invalidArgument.withMessage("The reset code must have 1 to 128 characters.")
        }
        let response = try await client.call(
            GatewayRoutes.confirmPasswordReset,
            body: ConfirmPasswordResetRequest(code: code, newPassword: newPassword, confirmation: confirmation))
        try client.check(response) { status, body -> MPOSError? in
            if body?.code == GatewayErrorCode.passwordPolicy {
                return MPOSError.passwordPolicy.withMessage(body?.message ?? MPOSError.passwordPolicy.message)
            }
            guard status == 401 else { return nil }
            return MPOSError.gatewayUnauthorized.withMessage("The reset code is unknown, used or expired.")
        }
    }

    /// Replaces the logged-in user's password. The terminal logs in with the new password
    /// from then on.
    ///
    /// - Parameters:
    ///   - oldPassword: the current password.
    ///   - newPassword: at least 8 characters with a letter and a digit, not the user id.
    ///   - confirmation: `newPassword` typed again.
    /// - Throws: ``MPOSError/passwordPolicy`` when the confirmation differs (before any
    ///   request) or the gateway's policy refuses the new password (its reason in the
    ///   message, never the password); ``MPOSError/gatewayUnauthorized`` for a wrong old
    ///   password or a lapsed session; ``MPOSError/notLoggedIn``;
    ///   ``MPOSError/gatewayUnreachable``.
    public func changePassword(oldPassword: String, newPassword: String, confirmation: String)
        async throws(MPOSError)
    {
        guard newPassword == confirmation else {
            throw MPOSError.passwordPolicy.withMessage("The confirmation differs from the new password.")
        }
        guard await client.isLoggedIn else { throw MPOSError.notLoggedIn }
        let response = try await client.call(
            GatewayRoutes.changePassword,
            body: ChangePasswordRequest(
                oldPassword: oldPassword, newPassword: newPassword, confirmation: confirmation))
        try client.check(response) { status, body -> MPOSError? in
            if body?.code == GatewayErrorCode.passwordPolicy {
                // The gateway's reason names the rule, never the password.
                return MPOSError.passwordPolicy.withMessage(body?.message ?? MPOSError.passwordPolicy.message)
            }
            guard status == 401 else { return nil }
            if body?.code == GatewayErrorCode.tokenExpired {
                return MPOSError.gatewayUnauthorized.withMessage("The session has lapsed; log in again.")
            }
            return MPOSError.gatewayUnauthorized.withMessage("The gateway refused the current password.")
        }
        await client.passwordChanged(to: newPassword)
    }
}
