/// The tables of the account-security domain, in SQL both engines take (dates are text, as
/// everywhere in the gateway's schema).
enum AccountSecuritySchema {
    /// A password-reset code: only its SHA-256, whose user, until when, and when it was used.
    static let passwordReset = """
        CREATE TABLE password_reset (
          codeHash TEXT NOT NULL PRIMARY KEY,
          merchantId TEXT NOT NULL,
          userId TEXT NOT NULL,
          expiresAt TEXT NOT NULL,
          createdAt TEXT NOT NULL,
          usedAt TEXT
        )
        """

    /// The append-only security log (``SecurityLog``): who did what, from where; never a
    /// password, token, code or card number.
    static let securityEvent = """
        CREATE TABLE security_event (
          id TEXT NOT NULL PRIMARY KEY,
          at TEXT NOT NULL,
          merchant_id TEXT,
          kind TEXT NOT NULL,
          user_id TEXT,
          address TEXT,
          detail TEXT NOT NULL
        )
        """

    /// A merchant's events newest first.
    static let securityEventIndex = "CREATE INDEX security_event_by_merchant ON security_event (merchant_id, at)"

    /// A registered device: its credential's secret as SHA-256 (the current one, and the one
    /// before it until the current one is first used, so a renewal whose answer was lost can
    /// be made again), and whether it was revoked.
    static let deviceCredential = """
        CREATE TABLE device_credential (
          id TEXT NOT NULL PRIMARY KEY,
          merchantId TEXT NOT NULL,
          userId TEXT,
          name TEXT NOT NULL,
          secretHash TEXT NOT NULL,
          previousSecretHash TEXT,
          createdAt TEXT NOT NULL,
          lastUsedAt TEXT,
          revokedAt TEXT
        )
        """

    /// A session opened with a device credential names its device; a password change or
    /// reset ends the user's other sessions but these.
    static let accessTokenDevice = "ALTER TABLE accessToken ADD COLUMN deviceId TEXT"

    /// A device registered with a client token has no user: its sessions are client tokens,
    /// which name the device so that revoking it ends them.
    static let clientTokenDevice = "ALTER TABLE clientToken ADD COLUMN deviceId TEXT"

    /// A merchant's devices.
    static let deviceCredentialIndex = "CREATE INDEX device_credential_by_merchant ON device_credential (merchantId)"
}
