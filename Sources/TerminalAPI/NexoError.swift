/// Why a Terminal API message was refused: the nexo `ErrorCondition` a terminal answers with, a
/// stable code, the field concerned (as a dotted JSON path such as
/// `SaleToPOIRequest.MessageHeader.ServiceID`) and a message for the developer.
///
/// Match on `code`: `catch let error as NexoError where error.code == .missingField`.
/// Messages never carry card data: a refused value is named, not quoted, unless it is a
/// protocol word such as an enumeration value.
public struct NexoError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stable numeric identity for each kind of refusal: 1xxx message format, 2xxx protocol
    /// rules, 3xxx encryption.
    public struct Code: RawRepresentable, Sendable, Hashable {
        /// The number.
        public let rawValue: Int
        /// Wraps a number.
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// The input is not JSON, or not a JSON object where one is needed.
        public static let notJSON = Code(rawValue: 1001)
        /// A mandatory field is absent.
        public static let missingField = Code(rawValue: 1002)
        /// A field name differs from nexo's only in upper and lower case.
        public static let wrongCase = Code(rawValue: 1003)
        /// A field has the wrong JSON type or an impossible value.
        public static let invalidValue = Code(rawValue: 1004)
        /// A closed enumeration field holds a value nexo does not define.
        public static let unknownValue = Code(rawValue: 1005)
        /// A message carries no body, or more than one.
        public static let bodyCount = Code(rawValue: 2001)
        /// The body does not match the header's `MessageCategory` or `MessageType`.
        public static let bodyMismatch = Code(rawValue: 2002)
        /// The terminal answered with a `Reject` event notification instead of a response.
        public static let rejected = Code(rawValue: 2003)
        /// An amount has more decimals than its currency allows.
        public static let amountPrecision = Code(rawValue: 2004)
        /// No key with the trailer's `KeyIdentifier` is configured.
        public static let unknownKey = Code(rawValue: 3001)
        /// The key is known but the trailer names another `KeyVersion`.
        public static let wrongKeyVersion = Code(rawValue: 3002)
        /// The HMAC of the decrypted message does not match the trailer's.
        public static let hmacMismatch = Code(rawValue: 3003)
        /// The decrypted message's PKCS#7 padding is invalid (wrong key or damaged ciphertext).
        public static let badPadding = Code(rawValue: 3004)
        /// `NexoBlob`, `Nonce` or `Hmac` is not valid base64 of the right length.
        public static let invalidEncoding = Code(rawValue: 3005)
        /// The trailer's `AdyenCryptoVersion` is not 1.
        public static let unsupportedCryptoVersion = Code(rawValue: 3006)
        /// The message is plain where an encrypted one is required, or the other way round.
        public static let encryptionExpected = Code(rawValue: 3007)
        /// The plain `MessageHeader` of an encrypted message differs from the encrypted one: the
        /// plain header is not authenticated, so it was changed on the way.
        public static let headerMismatch = Code(rawValue: 3008)
    }

    /// The refusal's kind.
    public let code: Code
    /// The nexo error condition a terminal reports for this refusal (`MessageFormat` for every
    /// format error).
    public let condition: ErrorCondition
    /// The JSON path of the field concerned, when one is.
    public let field: String?
    /// What is wrong, for the developer.
    public let message: String

    /// Creates an error.
    public init(
        _ code: Code, condition: ErrorCondition = .messageFormat, field: String? = nil, message: String
    ) {
        self.code = code
        self.condition = condition
        self.field = field
        self.message = message
    }

    /// One line: the code, the field and the message.
    public var description: String {
        "NexoError \(code.rawValue) (\(condition.rawValue))" + (field.map { " at \($0)" } ?? "")
            + ": \(message)"
    }
}
