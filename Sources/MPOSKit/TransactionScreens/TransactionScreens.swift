import MPOSCore

/// The transaction screens of one card payment as a pure state machine: the terminal's events
/// and the passing time in, the screen to show out. It holds no clock and does no I/O, so
/// every step is tested with plain durations; ``TransactionScreens/run(events:clock:)`` drives
/// it, and ``TransactionScreenView`` shows it in SwiftUI.
///
/// ```swift
/// var screens = TransactionScreens(amount: 12_50, currency: .eur, parameters: try .init(successScreenTimeout: 2))
/// screens.handle(.card(.inserted), at: .seconds(1))   // screens.screen.step == .readingCard
/// ```
public struct TransactionScreens: Sendable, Hashable {
    /// The logo and the success screen's timeout.
    public let parameters: TransactionScreenParameters
    /// What to show now.
    public private(set) var screen: TransactionScreen
    /// Whether the screens are up; false once the success screen's time has passed or the app
    /// dismissed them.
    public private(set) var isPresented = true
    /// When the success screen goes away, as time since the payment began; nil before success.
    public private(set) var dismissAt: Duration?

    /// The screens of a payment of `amount` minor units, starting at ``TransactionScreen/Step/presentCard``.
    public init(amount: Int64, currency: Currency, parameters: TransactionScreenParameters) {
        self.parameters = parameters
        self.screen = TransactionScreen(step: .presentCard, amount: Receipt.format(amount, currency))
    }

    /// Moves to the screen `event` calls for, `elapsed` after the payment began. Events after
    /// the payment ended change nothing, and neither do events that show nothing (battery,
    /// scanner, updates).
    public mutating func handle(_ event: TerminalEvent, at elapsed: Duration) {
        guard isPresented, !screen.isFinal else { return }
        switch event {
        case .readerStatus(_, let message, _):
            // The reader's own words for the step it is in, when it has any.
            if !message.isEmpty { screen.prompt = message }
        case .card(.removed):
            if screen.step == .readingCard { show(.presentCard) }
        case .card:
            show(.readingCard)
        case .applicationSelection(let candidates):
            show(.chooseApplication)
            screen.applications = candidates.map { $0.preferredName ?? $0.label }
        case .pinEntry(let digits):
            if screen.step != .enterPIN { show(.enterPIN) }
            screen.pinDigits = digits
        case .signatureRequired:
            show(.signature)
        case .authorizing, .recovering, .reversing:
            show(.processing)
        case .completed(let status):
            switch status {
            case .approved, .approvedOffline:
                show(.approved)
                dismissAt = elapsed + parameters.successScreenTimeout
            case .declined: show(.declined)
            case .cancelled: show(.cancelled)
            case .failed: show(.failed)
            // A refund received, decided later: nothing more happens on the counter.
            case .pending:
                show(.approved)
                dismissAt = elapsed + parameters.successScreenTimeout
            }
        default:
            break
        }
    }

    /// Dismisses the success screen once its timeout has passed at `elapsed`.
    public mutating func timePassed(to elapsed: Duration) {
        if let dismissAt, elapsed >= dismissAt { isPresented = false }
    }

    /// Takes the screens down (the app's close button on a final screen).
    public mutating func dismiss() { isPresented = false }

    private mutating func show(_ step: TransactionScreen.Step) {
        screen = TransactionScreen(step: step, amount: screen.amount)
    }
}
