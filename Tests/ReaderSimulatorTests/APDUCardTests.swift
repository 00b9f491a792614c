import CardCrypto
import EMV
import MPOSCore
import SandboxCards
import Testing

@testable import ReaderSimulator

/// The kernel against a sandbox card that answers APDUs (``APDUResponder`` behind an
/// in-memory transport) gives what it gives against the same card answering Swift calls.
@Suite(.timeLimit(.minutes(2))) struct APDUCardTests {
    static let issuer = SandboxIssuer()

    static func simulated(_ id: String) throws -> EMVKernel {
        let card = try #require(SandboxCards.card(id: id))
        return EMVKernel(card: try SimulatedCard(card: card), reader: try EMVKernel.sandboxReader())
    }

    static func overAPDUs(_ id: String, _ options: APDUResponder.Options = .init())
        throws -> (EMVCardKernel<APDUCard>, RecordingTransport)
    {
        let card = try #require(SandboxCards.card(id: id))
        let transport = RecordingTransport(
            InMemoryAPDUTransport(APDUResponder(card: try SimulatedCard(card: card), options: options)))
        return (
            EMVCardKernel(card: APDUCard(transport: transport), reader: try EMVKernel.sandboxReader()),
            transport
        )
    }

    @Test(arguments: [
        "visa-credit", "visa-debit", "maestro-mastercard", "amex", "pin-required", "signature",
        "approves-offline",
        "declines-second-gen-ac", "expired", "blocked",
    ])
    func apduCardGivesTheSimulatedCardsCryptogramsAndOutcome(id: String) throws {
        for amount: Int64 in [2_500, 12_345, 1_000] {
            var simulated = try Self.simulated(id)
            var (apdu, _) = try Self.overAPDUs(id)
            let expected = try KernelDriver.drive(&simulated, issuer: Self.issuer, amount)
            let run = try KernelDriver.drive(&apdu, issuer: Self.issuer, amount)
            let outcome = try #require(expected.outcome, "\(id): \(String(describing: expected.failure))")
            #expect(run.outcome?.emvData == outcome.emvData, "\(id) \(amount)")
            #expect(run.outcome?.reason == outcome.reason)
            #expect(run.outcome?.cryptogram == outcome.cryptogram)
            #expect(run.request?.emvData == expected.request?.emvData)
            #expect(run.decision?.responseCode == expected.decision?.responseCode)
            #expect(run.prompts == expected.prompts)
        }
    }

    @Test func theIssuerVerifiesAnAPDUCardsARQC() throws {
        var (kernel, _) = try Self.overAPDUs("visa-debit")
        let run = try KernelDriver.drive(&kernel, issuer: Self.issuer, 4_200)
        #expect(run.verified?.atc == 1)
        #expect(run.decision?.responseCode == "00")
        #expect(run.outcome?.reason == .approvedOnline)
        #expect(run.request?.maskedPAN == "400005******5556")
    }

    @Test func wrongOfflinePINsCountDownOnTheCardAsOnTheSimulatedCard() throws {
        var simulated = try Self.simulated("pin-required")
        var (apdu, transport) = try Self.overAPDUs("pin-required")
        let pins: [String?] = ["0000", "1111", "2222"]
        let expected = try KernelDriver.drive(&simulated, issuer: Self.issuer, 2_500, pins: pins)
        let run = try KernelDriver.drive(&apdu, issuer: Self.issuer, 2_500, pins: pins)
        #expect(run.prompts == expected.prompts)
        #expect(run.decision?.responseCode == "75")
        #expect(run.outcome?.emvData == expected.outcome?.emvData)
        #expect(transport.card.card.pinTriesRemaining == 0)
    }

    @Test func aRefundRunsOverAPDUs() throws {
        var simulated = try Self.simulated("visa-credit")
        var (apdu, _) = try Self.overAPDUs("visa-credit")
        let expected = try KernelDriver.drive(&simulated, issuer: Self.issuer, 3_000, kind: .refund)
        let run = try KernelDriver.drive(&apdu, issuer: Self.issuer, 3_000, kind: .refund)
        #expect(run.outcome?.emvData == expected.outcome?.emvData)
        #expect(run.outcome?.approved == true)
    }

    @Test func aT0CardIsReadThroughGetResponseAndWrongLengthResends() throws {
        var simulated = try Self.simulated("visa-debit")
        var (apdu, transport) = try Self.overAPDUs("visa-debit", .init(t0: true))
        let expected = try KernelDriver.drive(&simulated, issuer: Self.issuer, 12_345)
        let run = try KernelDriver.drive(&apdu, issuer: Self.issuer, 12_345)
        #expect(run.outcome?.emvData == expected.outcome?.emvData)
        #expect(run.outcome?.reason == .approvedOnline)
        #expect(transport.statusBytes.contains(0x61))
        #expect(transport.statusBytes.contains(0x6C))
        #expect(transport.instructions.contains(0xC0))
    }

    @Test func aCardPulledOutBeforeTheFirstGenerateACEndsWithCardRemoved() throws {
        var (kernel, _) = try Self.overAPDUs("visa-credit", .init(pullAfter: 3))
        let run = try KernelDriver.drive(&kernel, issuer: Self.issuer, 4_000)
        #expect(run.failure == .cardRemoved)
        #expect(run.request == nil)
    }

    @Test func aCardPulledOutWhileTheHostAnswersEndsWithCardRemoved() throws {
        // SELECT PPSE, SELECT AID, GPO, two READ RECORDs, GENERATE AC: then the card is gone.
        var (kernel, _) = try Self.overAPDUs("signature", .init(pullAfter: 6))
        let run = try KernelDriver.drive(&kernel, issuer: Self.issuer, 4_000)
        #expect(run.decision?.responseCode == "00")
        #expect(run.failure == .cardRemoved)
        #expect(run.outcome == nil)
    }

    @Test func aChipThatDoesNotAnswerAsAPaymentCardIsUnreadable() throws {
        var (kernel, _) = try Self.overAPDUs("chip-fallback")
        let run = try KernelDriver.drive(&kernel, issuer: Self.issuer, 4_000)
        #expect(run.failure == .chipUnreadable)
    }

    @Test func theBlockedApplicationFailsAtSelectionAfterTheCSUBlockedIt() throws {
        let card = try #require(SandboxCards.card(id: "blocked"))
        let transport = InMemoryAPDUTransport(APDUResponder(card: try SimulatedCard(card: card)))
        var kernel = EMVCardKernel(
            card: APDUCard(transport: transport), reader: try EMVKernel.sandboxReader())
        let first = try KernelDriver.drive(&kernel, issuer: Self.issuer, 4_000)
        #expect(first.decision?.responseCode == "62")
        #expect(transport.card.card.isApplicationBlocked)
        let second = try KernelDriver.drive(&kernel, issuer: Self.issuer, 4_000)
        #expect(second.failure == .cardBlocked)
    }
}

/// Passes commands to an in-memory card and keeps the instruction and SW1 of each exchange
/// (never the data).
final class RecordingTransport: APDUTransport, @unchecked Sendable {
    let inner: InMemoryAPDUTransport
    private(set) var instructions: [UInt8] = []
    private(set) var statusBytes: [UInt8] = []

    init(_ inner: InMemoryAPDUTransport) { self.inner = inner }

    var card: APDUResponder { inner.card }

    func transmit(_ command: [UInt8]) throws(CardError) -> [UInt8] {
        instructions.append(command[1])
        let answer = try inner.transmit(command)
        statusBytes.append(answer[answer.count - 2])
        return answer
    }
}
