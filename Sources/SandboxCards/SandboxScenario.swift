/// A behaviour the sandbox triggers from the transaction amount, so that an app can rehearse
/// every outcome with any test card.
///
/// Reader-side triggers follow the Handpoint simulator (amounts in minor units; `1000` is
/// 10.00); issuer refusals follow Adyen's test acquirer responses, keyed on the last three
/// digits of the amount:
///
/// | Amount (minor units)         | Scenario                                               |
/// |------------------------------|--------------------------------------------------------|
/// | `1000` (10.00)               | ``declined``: the issuer declines, response code `05`   |
/// | `2000` (20.00)               | ``userCancelled``: the cardholder cancels on the reader |
/// | `3000` (30.00)               | ``signatureRequested``: the reader asks for a signature |
/// | `8000`…`8099` (80.00–80.99)  | ``timeout(seconds:)`` after the cents in seconds        |
/// | `9001`…`9005` (90.01–90.05)  | ``linkError(_:)``, one ``LinkError`` each              |
/// | otherwise, ending `124`      | ``refusal(_:)`` not enough balance (`51`)              |
/// | ending `125`                 | card blocked (`62`)                                     |
/// | ending `126`                 | card expired (`54`)                                     |
/// | ending `127`                 | invalid amount (`13`)                                   |
/// | ending `128`                 | invalid card number (`14`)                              |
/// | ending `134`                 | wrong PIN (`55`)                                        |
///
/// Any other amount has no scenario: the card and its balance decide.
public enum SandboxScenario: Sendable, Hashable {
    /// The issuer declines (`05`).
    case declined
    /// The cardholder cancels on the reader before the card is read.
    case userCancelled
    /// The reader asks for a signature whatever the card's CVM.
    case signatureRequested
    /// The reader waits for `seconds` (0–99) and then reports a timeout.
    case timeout(seconds: Int)
    /// The link between the SDK and the reader fails in a particular way.
    case linkError(LinkError)
    /// The issuer refuses for a particular reason.
    case refusal(SandboxRefusal)

    /// How the link fails for the 90.01–90.05 amounts.
    public enum LinkError: Int, Sendable, Hashable, CaseIterable {
        /// 90.01: the link drops before the reader sends its authorization request.
        case dropBeforeAuthorization = 1
        /// 90.02: the link drops after the host answered, before the reader gets the answer
        /// (the outcome must be recovered, never guessed).
        case dropAfterAuthorization = 2
        /// 90.03: one frame from the reader arrives corrupted.
        case corruptFrame = 3
        /// 90.04: the reader reboots in the middle of the transaction.
        case readerReboot = 4
        /// 90.05: the reader stops answering without closing the link.
        case readerUnresponsive = 5
    }

    /// The scenario an amount in minor units triggers, or `nil` for an ordinary amount.
    public static func forAmount(minor amount: Int64) -> SandboxScenario? {
        switch amount {
        case 1000: return .declined
        case 2000: return .userCancelled
        case 3000: return .signatureRequested
        case 8000...8099: return .timeout(seconds: Int(amount - 8000))
        case 9001...9005: return LinkError(rawValue: Int(amount - 9000)).map { .linkError($0) }
        default:
            guard amount > 0 else { return nil }
            return SandboxRefusal(rawValue: Int(amount % 1000)).map { .refusal($0) }
        }
    }

    /// The ISO 8583 response code the sandbox issuer answers for this scenario, or `nil` when
    /// the scenario plays out on the reader or the link and the issuer decides as usual.
    public var issuerResponseCode: String? {
        switch self {
        case .declined: "05"
        case .refusal(let refusal): refusal.responseCode
        case .userCancelled, .signatureRequested, .timeout, .linkError: nil
        }
    }
}

/// An issuer refusal triggered by the last three digits of the amount (Adyen's test acquirer
/// responses), with the ISO 8583 response code the sandbox issuer answers.
public enum SandboxRefusal: Int, Sendable, Hashable, CaseIterable {
    /// `…124`: not enough balance, `51`.
    case notEnoughBalance = 124
    /// `…125`: card blocked, `62`.
    case cardBlocked = 125
    /// `…126`: card expired, `54`.
    case cardExpired = 126
    /// `…127`: invalid amount, `13`.
    case invalidAmount = 127
    /// `…128`: invalid card number, `14`.
    case invalidCard = 128
    /// `…134`: wrong PIN, `55`.
    case wrongPIN = 134

    /// The ISO 8583 response code (field 39 / EMV tag 8A).
    public var responseCode: String {
        switch self {
        case .notEnoughBalance: "51"
        case .cardBlocked: "62"
        case .cardExpired: "54"
        case .invalidAmount: "13"
        case .invalidCard: "14"
        case .wrongPIN: "55"
        }
    }
}
