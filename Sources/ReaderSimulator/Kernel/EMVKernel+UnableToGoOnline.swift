import CardCrypto
import EMV

/// The card's own decision when the terminal cannot reach the host: the terminal sends the
/// EMV "unable to go online" response code and the card answers the second GENERATE AC by
/// its default action.
extension EMVKernel {
    /// The authorisation response code (8A) a terminal sets when it could not go online.
    public static let unableToGoOnlineResponseCode = "Z3"

    /// Runs the second GENERATE AC without a host answer: TC when the card's default action
    /// approves (not blocked, cardholder verification not failed, the card's behaviour allows
    /// it), AAC otherwise. No issuer authentication takes place.
    mutating func completeUnableToGoOnline() -> KernelStep {
        guard var session, let authorization = session.authorization else { return .failed(.invalidState) }
        let behaviours = card.card.behaviours
        let verificationFailed = session.tvr.count > 2 && session.tvr[2] & 0x80 != 0
        let approve =
            !behaviours.declinesWhenUnableToGoOnline && !behaviours.blocked
            && !behaviours.declinesAtSecondGenerateAC && !verificationFailed
        session.cvr.secondGenerateAC = approve ? .tc : .aac
        session.phase = .done
        self.session = session
        return finish(
            type: approve ? .tc : .aac,
            reason: approve ? .approvedUnableToGoOnline : .declinedUnableToGoOnline,
            hostApproved: false, authorization: authorization,
            extra: [TLV(0x8A, value: Array(Self.unableToGoOnlineResponseCode.utf8))])
    }
}
