/// The EMV tags whose values are card data that must never be shown or stored in clear,
/// and how tools show them instead.
///
/// - `5A` Application PAN: first 6 / last 4.
/// - `57` Track 2 Equivalent Data and `9F6B` Track 2 Data: PAN masked, expiry and service
///   code shown, discretionary data hidden.
/// - `56` Track 1 Equivalent Data, `9F1F` Track 1 and `9F20` Track 2 Discretionary Data,
///   `99` Transaction PIN Data: fully hidden.
public enum SensitiveData {
    /// Tags whose values are card data.
    public static let tags: Set<EMVTag> = [0x5A, 0x57, 0x9F6B, 0x56, 0x9F1F, 0x9F20, 0x99]

    /// Whether a tag's value must be masked before display.
    public static func isSensitive(_ tag: EMVTag) -> Bool { tags.contains(tag) }

    /// The value as a tool may show it: hex for ordinary tags, masked text for the tags in
    /// ``tags``. A sensitive value that cannot be parsed is hidden entirely.
    public static func displayValue(_ tag: EMVTag, _ value: some Collection<UInt8>) -> String {
        switch tag {
        case 0x5A:
            return PAN(bcd: value)?.masked ?? hidden(value.count)
        case 0x57, 0x9F6B:
            return (try? Track2(bytes: value))?.masked ?? hidden(value.count)
        case _ where tags.contains(tag):
            return hidden(value.count)
        default:
            return Hex.encode(value)
        }
    }

    /// What can be said about a sensitive value without revealing it: the card scheme, the
    /// Luhn check, the expiry and the service code. Empty for tags outside ``tags`` or values
    /// that cannot be parsed.
    public static func maskedMeaning(_ tag: EMVTag, _ value: some Collection<UInt8>) -> [String] {
        switch tag {
        case 0x5A:
            guard let pan = PAN(bcd: value) else { return ["malformed: not 12 to 19 BCD digits"] }
            return describe(pan)
        case 0x57, 0x9F6B:
            do {
                let track = try Track2(bytes: value)
                return describe(track.pan) + ["Expires \(track.expiry.display)"]
                    + ["Service code \(track.serviceCode.code): "
                        + track.serviceCode.statements.joined(separator: "; ")]
            } catch {
                return ["malformed: \(error.description)"]
            }
        default:
            return []
        }
    }

    private static func describe(_ pan: PAN) -> [String] {
        ["\(pan.scheme.displayName) card, \(pan.count) digits",
         pan.isLuhnValid ? "Luhn check digit valid" : "Luhn check digit invalid"]
    }

    private static func hidden(_ count: Int) -> String { String(repeating: "*", count: count * 2) }
}
