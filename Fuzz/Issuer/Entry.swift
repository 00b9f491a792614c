// libFuzzer entry point for the sandbox issuer's verification of an authorization request,
// which the sandbox gateway runs on whatever a client posts. Built and run by
// Scripts/fuzz.sh issuer.
//
// Input layout (lengths are cut to what is left, so every input means something):
//
// | bytes | field                                                                        |
// |-------|------------------------------------------------------------------------------|
// | 1     | flags: bit 0 seal the card data here, bit 1 send the rest as the masked PAN, |
// |       | bit 2 allow a partial approval when deciding                                 |
// | 2     | length of the EMV data (big-endian)                                          |
// | 1     | length of the card data                                                      |
// | 1     | length of the KSN                                                            |
// | …     | EMV data, card data, KSN, then the masked PAN                                |
//
// With bit 0 set the card data is plaintext, and the entry point seals it under the sandbox
// BDK at the given KSN before the issuer sees it: the fuzzer cannot forge the envelope's MAC,
// so this is how it reaches the card data decoder and everything after it. The ARQC it cannot
// forge either; the committed seeds carry valid ones for it to mutate around.
//
// Beyond "never crash", each input checks:
// - a KSN that parses gives back its own bytes and hex;
// - sealing and opening under one transaction key gives back the plaintext;
// - decoded card data encodes to bytes that decode to the same card data;
// - no error the issuer throws mentions the full card number;
// - a verified request names the card the card data names, and can be decided on.
import CardCrypto
import EMV
import Foundation
import MPOSCore
import SandboxCards

struct IssuerInput {
    var sealHere = false
    var allowPartial = false
    var emvData: [UInt8] = []
    var cardData: [UInt8] = []
    var ksn: [UInt8] = []
    var maskedPAN: String?

    init(_ bytes: [UInt8]) {
        guard bytes.count >= 5 else { return }
        sealHere = bytes[0] & 0x01 != 0
        allowPartial = bytes[0] & 0x04 != 0
        var rest = bytes[5...]
        func take(_ count: Int) -> [UInt8] {
            let taken = rest.prefix(count)
            rest = rest.dropFirst(taken.count)
            return Array(taken)
        }
        emvData = take(Int(bytes[1]) << 8 | Int(bytes[2]))
        cardData = take(Int(bytes[3]))
        ksn = take(Int(bytes[4]))
        if bytes[0] & 0x02 != 0 { maskedPAN = String(decoding: rest, as: UTF8.self) }
    }
}

/// KSN parsing on its own: whatever parses must print and encode back to itself.
func checkKSN(_ bytes: [UInt8]) -> KSN? {
    _ = try? KSN(hex: String(decoding: bytes, as: UTF8.self))
    guard let ksn = try? KSN(bytes: bytes) else { return nil }
    precondition(ksn.bytes == bytes, "a KSN does not encode back to its bytes")
    precondition((try? KSN(hex: ksn.hex)) == ksn, "a KSN does not parse back from its hex")
    precondition(ksn.bdkID + ksn.derivationID == ksn.initialKeyID)
    return ksn
}

/// Card data decoding on its own: decoded data must survive a round trip through its encoding.
func checkPlaintext(_ bytes: [UInt8]) -> CardDataPlaintext? {
    guard let plaintext = try? CardDataPlaintext(decoding: bytes) else { return nil }
    let again = try? CardDataPlaintext(decoding: plaintext.encoded())
    precondition(again == plaintext, "card data decodes differently after re-encoding")
    precondition(!plaintext.description.contains(plaintext.pan.unmaskedDigits), "card data prints its PAN")
    return plaintext
}

/// Runs one fuzz input through KSN parsing, the envelope, the card data decoder and the issuer.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzIssuer(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = IssuerInput(Array(UnsafeBufferPointer(start: data, count: size)))
    let ksn = checkKSN(input.ksn)
    var sealed = input.cardData
    var plaintext = checkPlaintext(input.cardData)
    if let ksn, let key = try? DUKPT.transactionKey(bdk: SandboxKeys.bdk, ksn: ksn) {
        if input.sealHere, let sealedHere = try? CardDataEnvelope.seal(input.cardData, transactionKey: key) {
            let opened = try? CardDataEnvelope.open(ciphertext: sealedHere, ksn: ksn, bdk: SandboxKeys.bdk)
            precondition(opened == input.cardData, "the envelope does not give back what was sealed")
            sealed = sealedHere
        } else if let opened = try? CardDataEnvelope.open(ciphertext: input.cardData, transactionKey: key) {
            plaintext = checkPlaintext(opened)
        }
    }
    let issuer = SandboxIssuer()
    do {
        let verified = try issuer.verify(
            emvData: input.emvData, encryptedCardData: sealed, ksn: input.ksn, maskedPAN: input.maskedPAN)
        precondition(verified.cardData == plaintext, "the issuer read other card data than the decoder")
        precondition(verified.card.pan == verified.cardData.pan, "the issuer matched another card")
        let decision = issuer.decide(
            verified, amount: verified.amount ?? 1, currency: .eur, year: 2026, month: 11,
            allowPartial: input.allowPartial, spentSoFar: 0)
        precondition(decision.responseCode.count == 2)
    } catch {
        if let plaintext {
            precondition(
                !error.description.contains(plaintext.pan.unmaskedDigits), "an issuer error shows the PAN")
        }
    }
    return 0
}
