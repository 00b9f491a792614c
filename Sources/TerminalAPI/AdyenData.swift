/// A JSON string that packs name-value pairs in either `KeyValueForm`, as Adyen's
/// `SaleToAcquirerData` and `AdditionalResponse` do. Decoding keeps the text as sent. `Kind`
/// only tells the two apart, so that each has its own typed accessors.
public struct KeyValueData<Kind: KeyValueKind>: Codable, Sendable, Hashable {
    private let storage: KeyValueText

    /// Reads a string in either form.
    public init(text: String) { storage = KeyValueText(text: text) }
    /// Writes fields in the given form (URL-encoded unless told).
    public init(fields: [KeyValueField], form: KeyValueForm = .urlEncoded) {
        storage = KeyValueText(fields: fields, form: form)
    }

    /// The string as it travels in JSON.
    public var text: String { storage.text }
    /// Which form the string has.
    public var form: KeyValueForm { storage.form }
    /// The fields, decoded, in order.
    public var fields: [KeyValueField] { storage.fields }
    /// The value of a field, decoded; the first when a name repeats.
    public subscript(name: String) -> String? { storage.value(name) }

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

/// What a `KeyValueData` string is for.
public protocol KeyValueKind: Sendable {}

/// Marks `SaleToAcquirerData`.
public enum SaleToAcquirerKind: KeyValueKind {}

/// Marks `AdditionalResponse`.
public enum AdditionalResponseKind: KeyValueKind {}

/// Adyen's `SaleToAcquirerData`: extra request data for the acquirer
/// (`tenderOption=ReceiptHandler&shopperReference=42`, or base64 of `{"shopperEmail": "…"}`).
public typealias SaleToAcquirerData = KeyValueData<SaleToAcquirerKind>

/// Adyen's `AdditionalResponse`: extra response data
/// (`message=NOT_ENOUGH_BALANCE&refusalReason=210%20Not%20enough%20balance`, or base64 of
/// `{"additionalData": {…}}`).
public typealias AdditionalResponse = KeyValueData<AdditionalResponseKind>

extension KeyValueData where Kind == SaleToAcquirerKind {
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
}

extension KeyValueData where Kind == AdditionalResponseKind {
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
}
