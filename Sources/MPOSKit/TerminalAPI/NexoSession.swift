import Crypto
import EMV
import Foundation
import MPOSCore
import TerminalAPI

/// What `terminal.perform(terminalAPIRequest:)` remembers between requests: the
/// payment running, whether the sale system aborted it, and the answers already given, so
/// that a repeated request is answered rather than charged again.
struct NexoSession: Sendable {
    /// A payment request's identity in nexo: its `SaleID` and `ServiceID`.
    struct Reference: Hashable, Sendable {
        var saleID: String
        var serviceID: String
    }

    /// A payment request being performed, and what the sale system's aborts did to it.
    struct RunningPayment: Sendable, Hashable {
        let reference: Reference
        /// Aborts waiting for the reader's answer to their cancel (the payment may end first).
        fileprivate(set) var abortsInFlight = 0
        /// Whether the reader accepted a cancel that an `AbortRequest` asked for.
        fileprivate(set) var abortAccepted = false
    }

    /// The payment request being performed; nil between requests, so that no abort is counted
    /// against a payment that is not running.
    private(set) var running: RunningPayment?

    /// Whether the running payment, if cancelled, was cancelled by the sale system.
    var aborted: Bool { running.map { $0.abortAccepted || $0.abortsInFlight > 0 } ?? false }

    /// A payment request starts: no abort yet.
    mutating func started(_ reference: Reference) { running = RunningPayment(reference: reference) }

    /// The payment request has its answer.
    mutating func ended() { running = nil }

    /// An abort of the running payment goes to the reader.
    mutating func abortSent() { running?.abortsInFlight += 1 }

    /// The reader answered an abort sent to `reference`'s payment; nothing when that payment
    /// ended meanwhile.
    mutating func abortAnswered(accepted: Bool, for reference: Reference) {
        guard running?.reference == reference else { return }
        running?.abortsInFlight -= 1
        if accepted { running?.abortAccepted = true }
    }
    /// The payment responses given, by request: the most recent ``answersKept`` of them. An
    /// older repeated request is answered from the journal and the gateway, so a terminal that
    /// runs for weeks keeps its memory flat.
    private(set) var answered: [Reference: PaymentResponse] = [:]
    /// The order `answered` was filled in, oldest first.
    private var answeredOrder: [Reference] = []
    /// How many answers stay in memory.
    static let answersKept = 256
    /// The last payment request seen (a TransactionStatus without a reference asks for it).
    var last: Reference?
    /// The installation id kept in the journal, the default POIID, once read.
    var journalInstallationID: String?
    /// The POIID set with ``TerminalAPIAdapter/setInstallationID(_:)``, before the reader's serial.
    var installationID: String?
    /// Whether payment requests may be stored and forwarded when the gateway is out of reach
    /// (``TerminalAPIAdapter/setStoreAndForward(_:)``); off until the app turns it on.
    var storeAndForward = false

    /// Keeps `response` as the answer to `reference`, forgetting the oldest beyond ``answersKept``.
    mutating func remember(_ response: PaymentResponse, for reference: Reference) {
        if answered.updateValue(response, forKey: reference) == nil { answeredOrder.append(reference) }
        while answeredOrder.count > Self.answersKept {
            answered[answeredOrder.removeFirst()] = nil
        }
    }

    /// The idempotency key of a payment request: derived from its SaleID and ServiceID, so a
    /// repeated request (even after the app restarted) finds the attempt it made.
    static func key(for reference: Reference) -> IdempotencyKey {
        let digest = SHA256.hash(data: Data((reference.saleID + "\u{0}" + reference.serviceID).utf8))
        let hex = Hex.encode(Array(digest)).lowercased()
        // "nexo-" and 40 hex digits: within the 64 characters of A-Z a-z 0-9 - _ a key allows.
        return IdempotencyKey(rawValue: "nexo-" + hex.prefix(40))!
    }
}
