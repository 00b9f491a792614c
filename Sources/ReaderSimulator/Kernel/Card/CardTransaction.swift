import CardCrypto
import SandboxCards

/// What a simulated chip remembers between the commands of one transaction.
struct CardTransaction: Sendable {
    /// The Application Interchange Profile GET PROCESSING OPTIONS answered.
    var aip: [UInt8] = [0x1C, 0x00]
    /// The last VERIFY's result, if the terminal sent one.
    var lastVerification: PINVerification?
    /// The ATC of the first GENERATE AC.
    var atc: UInt16?
    /// The first GENERATE AC's cryptogram, which the ARPC answers.
    var firstCryptogram: [UInt8] = []
    /// The CVR as the first GENERATE AC set it; the second changes only its own field.
    var cvr: CardVerificationResults?
    /// Whether EXTERNAL AUTHENTICATE found the ARPC right.
    var issuerAuthenticated = false
    /// Whether the second GENERATE AC ran.
    var completed = false
}
