import CardCrypto
import EMV
import MPOSCore
import SandboxCards

/// What the kernel needs next, or how the transaction ended.
public enum KernelStep: Sendable, Hashable {
    /// The chip holds several applications: ask the cardholder, then call
    /// ``EMVKernel/selectApplication(at:)`` with an index into this list (priority order).
    case selectApplication([SandboxApplication])
    /// Ask for the PIN, then call ``EMVKernel/enterPIN(_:)``.
    case enterPIN(PINRequest)
    /// Send the authorization to the host, then call
    /// ``EMVKernel/complete(hostApproved:responseCode:issuerAuthenticationData:)``.
    case goOnline(AuthorizationData)
    /// The transaction is over.
    case completed(KernelOutcome)
    /// The card could not be used.
    case failed(KernelFailure)
}

/// A PIN prompt.
public struct PINRequest: Sendable, Hashable {
    /// Whether the issuer verifies the PIN online (else the chip verifies it offline).
    public let online: Bool
    /// Offline tries left, for the prompt ("2 tries left"); `nil` for online PIN.
    public let triesRemaining: Int?
    /// Whether the previous offline attempt was wrong.
    public let afterWrongPIN: Bool

    /// A prompt.
    public init(online: Bool, triesRemaining: Int?, afterWrongPIN: Bool) {
        self.online = online
        self.triesRemaining = triesRemaining
        self.afterWrongPIN = afterWrongPIN
    }
}

/// How a transaction ended on the card.
public struct KernelOutcome: Sendable, Hashable {
    /// Why it ended this way.
    public enum Reason: String, Sendable, Hashable {
        /// The card approved at the first GENERATE AC (TC) without going online.
        case approvedOffline
        /// The host approved and the card agreed (TC at the second GENERATE AC).
        case approvedOnline
        /// The host declined (AAC).
        case declinedByIssuer
        /// The terminal could not go online (8A `Z3`) and the card approved by its default
        /// action (TC at the second GENERATE AC): approved offline, to be forwarded later.
        case approvedUnableToGoOnline
        /// The terminal could not go online (8A `Z3`) and the card declined by its default
        /// action (AAC at the second GENERATE AC).
        case declinedUnableToGoOnline
        /// The host approved but the card declined at the second GENERATE AC (AAC): reverse.
        case declinedByCard
        /// The host's answer did not authenticate (ARPC wrong, missing or disagreeing with the
        /// response code), so the card declined (AAC): reverse if the host approved.
        case issuerAuthenticationFailed
    }

    /// Why.
    public let reason: Reason
    /// Whether the transaction is approved: the card's TC, or for a swipe the host's approval.
    public let approved: Bool
    /// TC or AAC; `nil` for a swipe.
    public let cryptogramType: CryptogramType?
    /// The final cryptogram (9F26); `nil` for a swipe.
    public let cryptogram: [UInt8]?
    /// The ATC of the transaction; `nil` for a swipe.
    public let atc: UInt16?
    /// The final TVR (95).
    public let tvr: [UInt8]
    /// The final TSI (9B).
    public let tsi: [UInt8]
    /// CVM Results (9F34).
    public let cvmResults: [UInt8]
    /// The final EMV data for the record: the authorization data's tags updated with the final
    /// 9F26 9F27 9F10 95 9B, plus 8A and 91 when the host answered.
    public let emvData: [UInt8]
    /// What went (or, for an offline approval, would go) to the host.
    public let authorization: AuthorizationData
    /// Whether the host approved (`false` for offline outcomes).
    public let hostApproved: Bool

    /// Whether the host approved what the card declined, so the SDK must reverse it.
    public var needsReversal: Bool { hostApproved && !approved }
}

/// Why a card could not be used. Carries no card data.
public enum KernelFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The chip application is blocked.
    case cardBlocked
    /// The chip could not be read: swipe the card (``MPOSCore/CardEntryMode/magstripeFallback``).
    case chipUnreadable
    /// A chip card was swiped: insert it.
    case useChip
    /// The card has no such interface (a stripe-only card tapped, a chip-less card inserted).
    case interfaceNotSupported
    /// The cardholder cancelled (also the 20.00 scenario).
    case cancelled
    /// The call does not fit the kernel's state (complete before go-online, and so on).
    case invalidState
    /// A cryptographic step failed (the DUKPT counter is exhausted, …).
    case cryptoFailure(String)
    /// The card left the reader before the transaction ended.
    case cardRemoved
    /// The card answered something the kernel cannot use (the command and status words).
    case cardError(String)

    /// The failure a card error ends the transaction with.
    public init(_ error: CardError) {
        switch error.kind {
        case .removed: self = .cardRemoved
        case .mute: self = .chipUnreadable
        case .blocked: self = .cardBlocked
        case .unexpectedAnswer, .transport: self = .cardError(error.message)
        }
    }

    /// The HeFT status code a reader reports for this failure.
    public var statusCode: ReaderStatusCode {
        switch self {
        case .cardBlocked: .cardBlocked
        case .chipUnreadable: .cardReadingFailed
        case .useChip: .iccCardSwiped
        case .interfaceNotSupported: .invalidCard
        case .cancelled: .userCancelled
        case .invalidState: .commandNotAllowed
        case .cryptoFailure: .processingError
        case .cardRemoved: .cardReadingFailed
        case .cardError: .cardReadingFailed
        }
    }

    /// One line.
    public var description: String {
        switch self {
        case .cardBlocked: "the card's application is blocked"
        case .chipUnreadable: "the chip cannot be read; swipe the card"
        case .useChip: "chip card swiped; insert the card"
        case .interfaceNotSupported: "the card cannot be read this way"
        case .cancelled: "cancelled"
        case .invalidState: "the kernel is not in a state for this call"
        case .cryptoFailure(let kind): "cryptography failed: \(kind)"
        case .cardRemoved: "the card was removed"
        case .cardError(let message): "the card failed: \(message)"
        }
    }
}
