import CardCrypto
import EMV

/// The card's own decision when the terminal cannot reach the host: the terminal sends the
/// EMV "unable to go online" response code and the card answers the second GENERATE AC by
/// its default action.
extension EMVCardKernel {
    /// The authorisation response code (8A) a terminal sets when it could not go online.
    public static var unableToGoOnlineResponseCode: String { "Z3" }

    /// Runs the second GENERATE AC without a host answer: the terminal asks for a TC unless
    /// cardholder verification failed, and the card answers by its default action (a card that
    /// declines offline, is blocked or declines at the second GENERATE AC gives an AAC). No
    /// issuer authentication takes place.
    mutating func completeUnableToGoOnline() -> KernelStep {
        guard var session, let authorization = session.authorization else { return .failed(.invalidState) }
        let verificationFailed = session.tvr.count > 2 && session.tvr[2] & 0x80 != 0
        let extra = [TLV(0x8A, value: Array(Self.unableToGoOnlineResponseCode.utf8))]
        session.phase = .done
        let response: GenerateACResponse
        do {
            response = try generate(&session, requesting: verificationFailed ? .aac : .tc, extra: extra)
        } catch {
            return fail(error)
        }
        let approve = response.type == .tc
        return outcome(
            session, type: approve ? .tc : .aac,
            reason: approve ? .approvedUnableToGoOnline : .declinedUnableToGoOnline,
            hostApproved: false, authorization: authorization, extra: extra)
    }
}
