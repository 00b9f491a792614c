import MPOSCore
import ReaderLink

/// The reader's screen for the customer, as Stripe's `setReaderDisplay` and `collectInputs`
/// and Square's cart display offer it: the cart while the merchant rings up, and questions
/// the customer answers on the reader.
extension CardReaderLink {
    /// Shows `cart` on the reader's screen until a payment's prompts take it or another cart
    /// replaces it; an empty cart clears the screen.
    ///
    /// ```swift
    /// let cart = ReaderCart(lines: [.init(name: "Espresso", quantity: 2, unitAmount: 250)], tax: 95, currency: "EUR")
    /// try await terminal.reader.showCart(cart)
    /// ```
    ///
    /// - Throws: ``MPOSError/invalidArgument`` for a cart that does not add up (see
    ///   ``ReaderLink/ReaderCart/problem``); ``MPOSError/terminalBusy`` while a payment or a
    ///   question holds the terminal; ``MPOSError/readerNotConnected``,
    ///   ``MPOSError/readerLinkFailed``, ``MPOSError/readerRefused``.
    public func showCart(_ cart: ReaderCart) async throws(MPOSError) {
        if let problem = cart.problem { throw MPOSError.invalidArgument.withMessage("The cart: \(problem).") }
        guard !gate.isBusy else { throw MPOSError.terminalBusy }
        try await askForAck(.showCart(cart), "the cart")
    }

    /// Asks the customer `question` on the reader's screen and waits for the answer, for up
    /// to the question's timeout. `terminal.cancel()` meanwhile withdraws it (the answer is
    /// then ``ReaderLink/CustomerInput/skipped``). No payment starts while it is asked.
    ///
    /// ```swift
    /// let answer = try await terminal.reader.collectInput(
    ///     CustomerInputRequest(prompt: "Join our loyalty programme?", kind: .yesNo, timeoutSeconds: 30))
    /// if answer == .yesNo(true) { /* ask for the e-mail address next */ }
    /// ```
    ///
    /// - Returns: the answer, ``ReaderLink/CustomerInput/skipped`` when the customer
    ///   cancelled, ``ReaderLink/CustomerInput/timedOut`` when none came in time.
    /// - Throws: ``MPOSError/invalidArgument`` for a question the reader cannot ask (see
    ///   ``ReaderLink/CustomerInputRequest/problem``); ``MPOSError/terminalBusy`` while
    ///   another operation holds the terminal; ``MPOSError/readerNotConnected``,
    ///   ``MPOSError/readerLinkFailed``, ``MPOSError/readerRefused``.
    public func collectInput(_ question: CustomerInputRequest) async throws(MPOSError) -> CustomerInput {
        if let problem = question.problem { throw MPOSError.invalidArgument.withMessage("The question: \(problem).") }
        let hold = try gate.begin(.customerQuestion)
        defer { gate.end(hold) }
        // The reader answers once the customer does: the link waits past the question's own timeout.
        let timeout = Duration.seconds(Int(question.timeoutSeconds)) + .seconds(15)
        switch try await askReader(.collectInput(question), "the question", timeout: timeout) {
        case .answer(.customerInput(let input)): return input
        case .refused(let status, let detail): throw Self.refusal("the question", status, detail)
        case .answer: throw MPOSError.readerLinkFailed.withMessage("The reader answered the question with another message.")
        }
    }
}
