import MPOSCore

// Account, receipt and inventory errors, in MPOSKit's block (x100...x199 of each category).
extension MPOSError.Code {
    /// 2102: a new password breaks the gateway's policy (length, letter and digit, not the
    /// user id, not the old one) or differs from its confirmation.
    public static let passwordPolicy = 2102
    /// 2103: an e-mail address is malformed.
    public static let invalidEmailAddress = 2103
    /// 2104: a phone number is malformed.
    public static let invalidPhoneNumber = 2104
    /// 2105: an inventory file or its version was refused (empty, too large, malformed CSV,
    /// version not above the current one).
    public static let invalidInventory = 2105
    /// 4103: the gateway has no such record (transaction, inventory).
    public static let notFound = 4103
}

extension MPOSError {
    /// A new password breaks the policy or differs from its confirmation.
    public static let passwordPolicy = MPOSError(
        code: Code.passwordPolicy, message: "The new password does not meet the password policy.",
        customerMessage: "Choose a password of at least 8 characters with a letter and a digit.")
    /// A malformed e-mail address.
    public static let invalidEmailAddress = MPOSError(
        code: Code.invalidEmailAddress, message: "The e-mail address is malformed.",
        customerMessage: "Check the e-mail address.")
    /// A malformed phone number.
    public static let invalidPhoneNumber = MPOSError(
        code: Code.invalidPhoneNumber, message: "The phone number is malformed.",
        customerMessage: "Check the phone number.")
    /// An inventory file or version was refused.
    public static let invalidInventory = MPOSError(
        code: Code.invalidInventory, message: "The inventory file or its version was refused.")
    /// The gateway has no such record.
    public static let notFound = MPOSError(code: Code.notFound, message: "The gateway has no such record.")
}
