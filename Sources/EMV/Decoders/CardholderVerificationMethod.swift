/// A cardholder verification method: bits 6-1 of the first byte of a CV Rule or of the CVM
/// Results, coded as in EMV Book 3 Annex C3.
public enum CardholderVerificationMethod: Sendable, Hashable, CustomStringConvertible {
    /// `00 0000`: fail CVM processing.
    case failCVMProcessing
    /// `00 0001`: plaintext PIN verification performed by ICC.
    case plaintextPINByICC
    /// `00 0010`: enciphered PIN verified online.
    case encipheredPINOnline
    /// `00 0011`: plaintext PIN verification performed by ICC and signature (paper).
    case plaintextPINByICCAndSignature
    /// `00 0100`: enciphered PIN verification performed by ICC.
    case encipheredPINByICC
    /// `00 0101`: enciphered PIN verification performed by ICC and signature (paper).
    case encipheredPINByICCAndSignature
    /// `01 1110`: signature (paper).
    case signature
    /// `01 1111`: no CVM required.
    case noCVMRequired
    /// `11 1111`: in CVM Results, no CVM was performed.
    case noCVMPerformed
    /// `10 0000`-`10 1111`: a value reserved for individual payment systems.
    case paymentSystem(UInt8)
    /// `11 0000`-`11 1110`: a value reserved for the issuer.
    case issuer(UInt8)
    /// Any other value: reserved for future use.
    case reserved(UInt8)

    /// Reads the method from bits 6-1 of `byte` (bits 8-7 are ignored).
    public init(code byte: UInt8) {
        let code = byte & 0x3F
        switch code {
        case 0x00: self = .failCVMProcessing
        case 0x01: self = .plaintextPINByICC
        case 0x02: self = .encipheredPINOnline
        case 0x03: self = .plaintextPINByICCAndSignature
        case 0x04: self = .encipheredPINByICC
        case 0x05: self = .encipheredPINByICCAndSignature
        case 0x1E: self = .signature
        case 0x1F: self = .noCVMRequired
        case 0x3F: self = .noCVMPerformed
        case 0x20...0x2F: self = .paymentSystem(code)
        case 0x30...0x3E: self = .issuer(code)
        default: self = .reserved(code)
        }
    }

    /// The method in words, capitalised ("Enciphered PIN verified online").
    public var description: String {
        switch self {
        case .failCVMProcessing: "Fail CVM processing"
        case .plaintextPINByICC: "Plaintext PIN verification performed by ICC"
        case .encipheredPINOnline: "Enciphered PIN verified online"
        case .plaintextPINByICCAndSignature: "Plaintext PIN verification performed by ICC and signature (paper)"
        case .encipheredPINByICC: "Enciphered PIN verification performed by ICC"
        case .encipheredPINByICCAndSignature: "Enciphered PIN verification performed by ICC and signature (paper)"
        case .signature: "Signature (paper)"
        case .noCVMRequired: "No CVM required"
        case .noCVMPerformed: "No CVM performed"
        case .paymentSystem(let code): "Payment system-specific CVM \(Hex.encode([code]))"
        case .issuer(let code): "Issuer-specific CVM \(Hex.encode([code]))"
        case .reserved(let code): "CVM \(Hex.encode([code])), which is reserved for future use"
        }
    }
}
