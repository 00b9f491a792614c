import CardCrypto
import EMV
import Foundation
import MPOSCore
import ReaderSimulator
import SandboxCards
import Testing

/// Drives a kernel to the end the way the device layer and the gateway would.
struct KernelDriver {
    var kernel: EMVKernel
    let issuer = SandboxIssuer()
    static let now = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18 UTC

    init(_ id: String, terminal: TerminalConfiguration = TerminalConfiguration()) throws {
        let card = try #require(SandboxCards.card(id: id))
        kernel = EMVKernel(
            card: try SimulatedCard(card: card), reader: try EMVKernel.sandboxReader(), terminal: terminal)
    }

    struct Run {
        var outcome: KernelOutcome?
        var failure: KernelFailure?
        var decision: IssuerDecision?
        var verified: VerifiedAuthorization?
        var request: AuthorizationData?
        var prompts: [KernelStep] = []
    }

    static func transaction(_ amount: Int64, _ entry: CardEntryMode = .chip) -> KernelTransaction {
        KernelTransaction(
            amount: amount, currency: .eur, date: now, entryMode: entry, unpredictableNumber: [1, 2, 3, 4])
    }

    /// Answers every prompt (first application, `pins` in turn), sends the request to the sandbox
    /// issuer and the answer back to the card.
    mutating func run(
        _ amount: Int64, _ entry: CardEntryMode = .chip, pins: [String?] = ["1234"], application: Int = 0
    ) throws -> Run {
        try Self.drive(&kernel, issuer: issuer, amount, entry, pins: pins, application: application)
    }

    /// Runs `kernel`, whatever its card, to the end as ``run(_:_:pins:application:)`` does.
    static func drive<Card: EMVCard>(
        _ kernel: inout EMVCardKernel<Card>, issuer: SandboxIssuer, _ amount: Int64, _ entry: CardEntryMode = .chip,
        pins: [String?] = ["1234"], application: Int = 0, kind: TransactionKind = .sale
    ) throws -> Run {
        var run = Run()
        var pins = pins
        var transaction = Self.transaction(amount, entry)
        transaction.kind = kind
        var step = kernel.start(transaction)
        while true {
            switch step {
            case .selectApplication:
                run.prompts.append(step)
                step = kernel.selectApplication(at: application)
            case .enterPIN:
                run.prompts.append(step)
                step = kernel.enterPIN(pins.isEmpty ? "1234" : pins.removeFirst())
            case .goOnline(let request):
                run.request = request
                let verified = try issuer.verify(
                    emvData: request.emvData, encryptedCardData: request.encryptedCardData, ksn: request.ksn,
                    maskedPAN: request.maskedPAN)
                run.verified = verified
                let decision = issuer.decide(
                    verified, amount: amount, currency: .eur, now: Self.now, allowPartial: false,
                    spentSoFar: 0)
                run.decision = decision
                step = kernel.complete(
                    hostApproved: decision.isApproved, responseCode: decision.responseCode,
                    issuerAuthenticationData: decision.issuerAuthenticationData)
            case .completed(let outcome):
                run.outcome = outcome
                run.request = run.request ?? outcome.authorization
                return run
            case .failed(let failure):
                run.failure = failure
                return run
            }
        }
    }
}
