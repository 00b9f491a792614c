import MPOSCore

/// What the transaction screens show at one moment: the step, its prompt, the amount and the
/// details of the step (the applications to choose from, the PIN digits typed).
public struct TransactionScreen: Sendable, Hashable {
    /// The steps of a card payment, as the customer sees them.
    public enum Step: String, Sendable, Hashable, CaseIterable {
        /// Waiting for a card to be inserted, tapped or swiped.
        case presentCard
        /// A card is being read.
        case readingCard
        /// The customer chooses the card's application.
        case chooseApplication
        /// The customer types the PIN.
        case enterPIN
        /// The merchant checks the customer's signature.
        case signature
        /// The payment is with the gateway (or being checked, or reversed).
        case processing
        /// Approved (online, or offline to be forwarded): shown for the success-screen timeout.
        case approved
        /// Declined by the card or the issuer.
        case declined
        /// Cancelled on the reader or by the app.
        case cancelled
        /// Ended by an error.
        case failed
    }

    /// The step.
    public var step: Step
    /// The sentence to show for the step.
    public var prompt: String
    /// The amount, formatted (`12.50 EUR`).
    public var amount: String
    /// The applications to choose from, in ``Step/chooseApplication``.
    public var applications: [String]
    /// How many PIN digits are typed, in ``Step/enterPIN``.
    public var pinDigits: Int

    /// Whether the payment has ended (approved, declined, cancelled or failed).
    public var isFinal: Bool { [.approved, .declined, .cancelled, .failed].contains(step) }

    /// A screen of `step` with its own prompt.
    public init(step: Step, amount: String, applications: [String] = [], pinDigits: Int = 0) {
        self.step = step
        self.prompt = Self.prompt(step)
        self.amount = amount
        self.applications = applications
        self.pinDigits = pinDigits
    }

    /// The sentence each step shows unless the reader gives its own.
    public static func prompt(_ step: Step) -> String {
        switch step {
        case .presentCard: "Insert, tap or swipe a card"
        case .readingCard: "Reading the card, keep it still"
        case .chooseApplication: "Choose how to pay"
        case .enterPIN: "Enter your PIN"
        case .signature: "Please sign"
        case .processing: "Processing, one moment"
        case .approved: "Approved"
        case .declined: "Declined"
        case .cancelled: "Cancelled"
        case .failed: "The payment did not go through"
        }
    }
}
