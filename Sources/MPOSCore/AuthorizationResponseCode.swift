/// What an authorisation response code means: the two characters an issuer answers with
/// (EMV tag 8A, ISO 8583 field 39), such as `"00"` or `"51"`.
///
/// ```swift
/// AuthorizationResponseCode.message(for: "51")  // "INSUFFICIENT FUNDS"
/// ```
public enum AuthorizationResponseCode {
    /// The meaning of `code` as receipts and sale results show it (upper case), or `nil` for a
    /// code the sandbox issuer and the common schemes do not use.
    public static func message(for code: String) -> String? { meanings[code] }

    private static let meanings: [String: String] = [
        "00": "APPROVED", "01": "REFER TO ISSUER", "04": "PICK UP CARD", "05": "DO NOT HONOUR",
        "10": "PARTIAL APPROVAL", "12": "INVALID TRANSACTION", "13": "INVALID AMOUNT", "14": "INVALID CARD",
        "51": "INSUFFICIENT FUNDS", "54": "EXPIRED CARD", "55": "INCORRECT PIN", "57": "NOT PERMITTED",
        "61": "EXCEEDS LIMIT", "62": "RESTRICTED CARD", "63": "SECURITY VIOLATION",
        "65": "EXCEEDS FREQUENCY LIMIT", "75": "PIN TRIES EXCEEDED", "91": "ISSUER UNAVAILABLE",
        "96": "SYSTEM ERROR", "Y1": "OFFLINE APPROVED", "Z1": "OFFLINE DECLINED", "Z3": "OFFLINE DECLINED",
    ]
}
