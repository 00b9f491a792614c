/// Adyen's `SaleToAcquirerData`: extra request data for the acquirer, as one JSON string in
/// either form of `KeyValueForm` (`tenderOption=ReceiptHandler&shopperReference=42`, or
/// base64 of `{"shopperEmail": "…"}`). Decoding keeps the text as sent.
public struct SaleToAcquirerData: Codable, Sendable, Hashable {
    private let storage: KeyValueText

    /// Reads a string in either form.
    public init(text: String) { storage = KeyValueText(text: text) }
    /// Writes fields in the given form.
    public init(fields: [KeyValueField], form: KeyValueForm = .urlEncoded) {
        storage = KeyValueText(fields: fields, form: form)
    }

    /// The string as it travels in JSON.
    public var text: String { storage.text }
    /// Which form the string has.
    public var form: KeyValueForm { storage.form }
    /// The fields, decoded, in order.
    public var fields: [KeyValueField] { storage.fields }
    /// The value of a field, decoded.
    public subscript(name: String) -> String? { storage.value(name) }

    /// `tenderOption`: the comma-separated tender options (`ReceiptHandler`, `AskGratuity`, …).
    public var tenderOptions: [String] {
        (self["tenderOption"] ?? "").split(separator: ",").map { String($0) }
    }
    /// `shopperReference`.
    public var shopperReference: String? { self["shopperReference"] }
    /// `shopperEmail`.
    public var shopperEmail: String? { self["shopperEmail"] }
    /// `recurringContract`.
    public var recurringContract: String? { self["recurringContract"] }

    /// Decodes the JSON string.
    public init(from decoder: any Decoder) throws {
        self.init(text: try decoder.singleValueContainer().decode(String.self))
    }
    /// Encodes the text.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}

/// Adyen's `AdditionalResponse`: extra response data, as one JSON string in either form of
/// `KeyValueForm` (`message=NOT_ENOUGH_BALANCE&refusalReason=210%20Not%20enough%20balance`, or
/// base64 of `{"additionalData": {…}}`). Decoding keeps the text as sent.
public struct AdditionalResponse: Codable, Sendable, Hashable {
    private let storage: KeyValueText

    /// Reads a string in either form.
    public init(text: String) { storage = KeyValueText(text: text) }
    /// Writes fields in the given form.
    public init(fields: [KeyValueField], form: KeyValueForm = .urlEncoded) {
        storage = KeyValueText(fields: fields, form: form)
    }

    /// The string as it travels in JSON.
    public var text: String { storage.text }
    /// Which form the string has.
    public var form: KeyValueForm { storage.form }
    /// The fields, decoded, in order.
    public var fields: [KeyValueField] { storage.fields }
    /// The value of a field, decoded.
    public subscript(name: String) -> String? { storage.value(name) }

    /// `message`: Adyen's short outcome (`NOT_ENOUGH_BALANCE`, `104 Merchant cancelled`).
    public var message: String? { self["message"] }
    /// `refusalReason`: the refusal's code and text (`210 Not enough balance`).
    public var refusalReason: String? { self["refusalReason"] }
    /// The number that starts `refusalReason` (210 for `210 Not enough balance`).
    public var refusalReasonCode: Int? {
        refusalReason.flatMap { reason in Int(reason.prefix { $0.isNumber }) }
    }
    /// `pspReference`: Adyen's reference of the payment.
    public var pspReference: String? { self["pspReference"] }
    /// `authCode`: the issuer's authorization code.
    public var authCode: String? { self["authCode"] }
    /// `posAuthAmountValue`: the authorized amount in minor units.
    public var authorizedMinorUnits: Int? { self["posAuthAmountValue"].flatMap { Int($0) } }
    /// `posAuthAmountCurrency`.
    public var authorizedCurrency: String? { self["posAuthAmountCurrency"] }
    /// `offline`: whether the payment was approved offline.
    public var offline: Bool? { self["offline"].map { $0 == "true" } }

    /// Decodes the JSON string.
    public init(from decoder: any Decoder) throws {
        self.init(text: try decoder.singleValueContainer().decode(String.self))
    }
    /// Encodes the text.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}
