import CardCrypto
import EMV
import Foundation
import MPOSCore
import ReaderSimulator
import SandboxCards
import Testing

/// The card's own decision when the terminal cannot go online (8A `Z3`): its default action
/// at the second GENERATE AC, and a TC the issuer verifies later like an ARQC.
@Suite(.timeLimit(.minutes(2))) struct KernelUnableToGoOnlineTests {
    /// Drives `id` to the host request, then answers "unable to go online".
    static func offline(_ id: String, amount: Int64 = 12_345, entry: CardEntryMode = .chip) throws
        -> (KernelOutcome, AuthorizationData)
    {
        var driver = try KernelDriver(id)
        var step = driver.kernel.start(KernelDriver.transaction(amount, entry))
        while true {
            switch step {
            case .selectApplication: step = driver.kernel.selectApplication(at: 0)
            case .enterPIN: step = driver.kernel.enterPIN("1234")
            case .goOnline(let request):
                step = driver.kernel.complete(
                    hostApproved: false, responseCode: EMVKernel.unableToGoOnlineResponseCode,
                    issuerAuthenticationData: nil)
                if case .completed(let outcome) = step { return (outcome, request) }
            case .completed(let outcome): return (outcome, outcome.authorization)
            case .failed(let failure): throw failure
            }
        }
    }

    @Test(arguments: ["visa-credit", "mastercard-2series", "contactless", "signature"])
    func anOrdinaryCardApprovesOfflineWithATCTheIssuerVerifies(id: String) throws {
        let (outcome, request) = try Self.offline(id)
        #expect(outcome.reason == .approvedUnableToGoOnline)
        #expect(outcome.cryptogramType == .tc && outcome.approved && !outcome.hostApproved)
        let tree = try TLVTree(decoding: outcome.emvData)
        #expect(tree[0x8A].map(Array.init) == Array("Z3".utf8))
        #expect(tree[0x9F27].map(Array.init) == [CryptogramType.tc.rawValue])
        // The TC of the second GENERATE AC differs from the ARQC and verifies on its own.
        #expect(outcome.cryptogram != nil && tree[0x9F26].map(Array.init) == outcome.cryptogram)
        let verified = try SandboxIssuer().verify(
            emvData: outcome.emvData, encryptedCardData: request.encryptedCardData, ksn: request.ksn)
        #expect(verified.cardVerificationResults?.secondGenerateAC == .tc)
    }

    @Test(arguments: ["blocked", "declines-second-gen-ac", "expired"])
    func aCardWhoseDefaultActionDeclinesGivesAnAAC(id: String) throws {
        let (outcome, _) = try Self.offline(id)
        #expect(outcome.reason == .declinedUnableToGoOnline)
        #expect(outcome.cryptogramType == .aac && !outcome.approved)
    }

    @Test func anEmptyResponseCodeStillDeclinesAsBefore() throws {
        var driver = try KernelDriver("visa-credit")
        var step = driver.kernel.start(KernelDriver.transaction(12_345))
        if case .enterPIN = step { step = driver.kernel.enterPIN("1234") }
        let done = driver.kernel.complete(
            hostApproved: false, responseCode: "", issuerAuthenticationData: nil)
        guard case .completed(let outcome) = done else {
            Issue.record("not completed: \(done)")
            return
        }
        #expect(outcome.cryptogramType == .aac && outcome.reason == .declinedByIssuer)
    }
}
