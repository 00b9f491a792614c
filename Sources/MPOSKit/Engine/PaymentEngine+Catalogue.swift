import EMV
import Foundation
import GatewayAPI
import MPOSCore
import ReaderLink

// The terminal catalogue's blacklist, applied as soon as the reader identifies the card.
extension PaymentEngine {
    /// The blacklist entry the identified card matches, if any.
    func blacklistEntry(for card: AuthorizationRequest) -> TerminalCatalogue.BlacklistedCard? {
        // The digits the masked number shows (5 of a 15-digit card, 6 of most others).
        let scheme = CardScheme(iin: String(card.maskedPAN.prefix { $0.isASCII && $0.isNumber })).rawValue
        let aid = card.aid.map { Hex.encode($0) }
        return blacklist.first { $0.matches(scheme: scheme, maskedPAN: card.maskedPAN, aid: aid) }
    }

    /// Declines a card the reader's model must not take, as soon as the reader identified it:
    /// the card is told the host declined (57, not permitted), and nothing reaches the gateway.
    mutating func refuseBlacklisted(_ card: AuthorizationRequest, _ entry: TerminalCatalogue.BlacklistedCard) -> [Effect] {
        let what: String =
            switch entry {
            case .scheme(let scheme): "\(scheme) cards"
            case .bin(let prefix): "cards starting \(prefix)"
            case .aid(let aid): "the application \(aid)"
            }
        blacklisted = MPOSError.cardNotAccepted.withMessage(
            "The terminal catalogue bars \(what) on this reader's model; nothing was sent to the gateway.")
        phase = .completing
        self.entry.maskedPAN = card.maskedPAN
        return [
            .journal(self.entry),
            .sendToReader(
                .hostResponse(
                    HostResponse(
                        transactionID: readerTransactionID, approved: false, authorizationResponseCode: "57",
                        authorizationCode: nil, issuerAuthenticationData: [], issuerScripts: []))),
        ]
    }
}
