import CardCrypto
import EMV
import Foundation
import MPOSCore
import ReaderSimulator
import SandboxCards
import Synchronization

/// Produces real authorisation data (ARQC over the EMV data, DUKPT-sealed card data) with the
/// reader simulator's EMV kernel, the way a reader would for the gateway.
enum SimulatedTerminal {
    /// DUKPT counters and ATCs must differ between requests; one process-wide sequence.
    private static let sequence = Atomic<UInt32>(1)

    enum Failure: Error { case kernel(String) }

    /// Runs the kernel for `card` until it wants to go online; enters the sandbox PIN and
    /// picks the first application when asked. `atc` and `ksnCounter` choose the chip's ATC
    /// and the DUKPT counter instead of the next of the process-wide sequence; `date` is 9A.
    static func authorization(
        card: SandboxCard, amount: Int64, currency: Currency = .eur, kind: TransactionKind = .sale,
        entryMode: CardEntryMode? = nil, atc: UInt16? = nil, ksnCounter: UInt32? = nil, date: Date = Date()
    ) throws -> AuthorizationData {
        try goOnline(
            card: card, amount: amount, currency: currency, kind: kind, entryMode: entryMode, atc: atc,
            ksnCounter: ksnCounter, date: date
        ).data
    }

    /// A sale the card approves offline, as when the terminal cannot reach the gateway: the
    /// kernel runs as in ``authorization(card:amount:currency:kind:entryMode:atc:ksnCounter:date:)``,
    /// then the card answers its second GENERATE AC for "unable to go online" (Z3) with a TC.
    /// The EMV data carries the TC; the card data is the one sealed for going online.
    static func offlineApproval(card: SandboxCard, amount: Int64, atc: UInt16, date: Date) throws
        -> (data: AuthorizationData, emvData: [UInt8])
    {
        let online = try goOnline(
            card: card, amount: amount, currency: .eur, kind: .sale, entryMode: nil, atc: atc, ksnCounter: nil,
            date: date)
        var kernel = online.kernel
        let step = kernel.complete(
            hostApproved: false, responseCode: EMVKernel.unableToGoOnlineResponseCode, issuerAuthenticationData: nil)
        guard case .completed(let outcome) = step, outcome.approved else {
            throw Failure.kernel("the card did not approve offline: \(step)")
        }
        return (online.data, outcome.emvData)
    }

    private static func goOnline(
        card: SandboxCard, amount: Int64, currency: Currency, kind: TransactionKind, entryMode: CardEntryMode?,
        atc: UInt16?, ksnCounter: UInt32?, date: Date
    ) throws -> (kernel: EMVKernel, data: AuthorizationData) {
        let next = sequence.add(1, ordering: .relaxed).newValue
        let simulated = try SimulatedCard(
            card: card, atc: atc.map { $0 - 1 } ?? UInt16(truncatingIfNeeded: next))
        let reader = try EMVKernel.sandboxReader(derivationID: 1, counter: ksnCounter ?? next)
        var kernel = EMVKernel(
            card: simulated, reader: reader,
            terminal: TerminalConfiguration(floorLimit: 0, appliesScenarios: false))
        let mode = entryMode ?? (card.interfaces.contains(.chip) ? .chip : .magstripe)
        var step = kernel.start(
            KernelTransaction(kind: kind, amount: amount, currency: currency, date: date, entryMode: mode))
        for _ in 0..<5 {
            switch step {
            case .selectApplication: step = kernel.selectApplication(at: 0)
            case .enterPIN: step = kernel.enterPIN(SandboxCards.pin)
            case .goOnline(let data): return (kernel, data)
            case .completed(let outcome): throw Failure.kernel("completed offline: \(outcome.reason)")
            case .failed(let failure): throw Failure.kernel("\(failure)")
            }
        }
        throw Failure.kernel("too many steps")
    }

    /// The catalog card with `id`.
    static func card(_ id: String) -> SandboxCard { SandboxCards.card(id: id)! }
}
