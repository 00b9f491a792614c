import EMV
import Foundation
import GatewayAPI
import MPOSCore
import ReaderLink

// The offline branch of the sale: when the gateway cannot be reached and the sale allows it,
// the card decides at the second GENERATE AC, and a TC is stored to be forwarded later.
extension PaymentEngine {
    /// The authorisation response code (8A) that tells the card the terminal could not go
    /// online (the EMV convention).
    static let unableToGoOnline = "Z3"

    /// Why this sale cannot be taken offline now, or nil: sales only, chip or contactless
    /// only, and the policy's limits (``offlineRefusal``).
    func offlineRefusalNow() -> MPOSError? {
        guard kind == .sale else {
            return MPOSError.onlineRequired.withMessage(
                "Only sales are taken offline, not a \(kind.rawValue).")
        }
        guard !parameters.allowPartialApproval, parameters.captureMode == .completedSale else {
            return MPOSError.onlineRequired.withMessage(
                "A sale with partial approval or a later capture is not taken offline.")
        }
        guard let entryMode = authorizationEntryMode, entryMode == .chip || entryMode == .contactless else {
            return MPOSError.onlineRequired.withMessage(
                "A swiped card is not taken offline: chip or contactless only.")
        }
        return offlineRefusal
    }

    /// The card's own decision after "unable to go online": a TC is stored (the result waits
    /// for the store), an AAC is a decline offline.
    mutating func cardDecidedOffline(_ outcome: TransactionOutcome) -> [Effect] {
        guard outcome.cryptogramType == .tc, outcome.status == .success, let request = offlineRequest(outcome)
        else {
            // Declined offline. If the online attempt may have reached the gateway, the journal
            // keeps the entry unfinished so that recovery reverses what the gateway may hold.
            return finish(.declined, error: nil)
        }
        return [.storeOffline(request, key)]
    }
}

extension PaymentEngine {
    /// How the card was read, once the reader asked for the authorisation.
    var authorizationEntryMode: CardEntryMode? { authorization?.entryMode }

    /// The forward request: the online request with the card's final EMV data (its TC), and
    /// without the duplicate check (each stored sale is one the card approved, and the key
    /// keeps it from being charged twice).
    func offlineRequest(_ outcome: TransactionOutcome) -> AuthorizeCardRequest? {
        guard var request else { return nil }
        request.emvData = Hex.encode(outcome.emvData)
        request.parameters.duplicateCheck = false
        request.cvm = outcome.cvm
        return request
    }
}
