/// The specification that defines a tag, so that proprietary numbers can be read in context.
///
/// Tags in the `9F50`–`9F7F` range and the private class are reused by payment systems with
/// different meanings; ``TagInfo/name`` gives the meaning in the specification named here and
/// ``TagInfo/otherNames`` lists the others.
public enum TagSpecification: String, Sendable, Hashable, CaseIterable {
    /// EMV Books 1–4 (contact), including ISO/IEC 7816 tags EMV adopts.
    case emv
    /// EMV Contactless Books A and B (Entry Point) and the common contactless data.
    case emvContactless
    /// Mastercard: M/Chip and the contactless Kernel 2 (EMV Book C-2).
    case mastercard
    /// Visa: VSDC and payWave (VCPS, Kernel 3, EMV Book C-3).
    case visa
    /// American Express: AEIPS and ExpressPay (Kernel 4, EMV Book C-4).
    case amex
    /// JCB: J/Smart and J/Speedy (Kernel 5, EMV Book C-5).
    case jcb
    /// Discover: D-PAS (Kernel 6, EMV Book C-6).
    case discover
    /// UnionPay: PBOC debit/credit and QuickPass (Kernel 7, EMV Book C-7).
    case unionPay
}
