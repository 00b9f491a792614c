import ReaderLink

/// The reader's screen for the customer: the cart it shows, and the questions it asks, each
/// answered as ``SimulatedReaderConfiguration/customerAnswers`` scripts (a default answer of
/// the question's kind otherwise) after the customer's delay, or not before its timeout.
extension SimulatedReader {
    /// Shows `cart` (an empty one clears the screen); refused during a transaction, whose
    /// prompts have the screen, or when the cart does not add up.
    func show(_ cart: ReaderCart) -> ReaderMessage {
        guard transaction == nil else {
            return .error(.commandNotAllowed, detail: "a transaction is in progress: its prompts have the screen")
        }
        if let problem = cart.problem { return .error(.invalidData, detail: problem) }
        displayedCart = cart.lines.isEmpty ? nil : cart
        record(.info, cart.lines.isEmpty ? "screen cleared" : "cart shown: \(cart.lines.count) lines, total \(cart.total) \(cart.currency)")
        return .ack
    }

    /// Starts asking the customer `question`; the answer goes out when the customer gives it
    /// (a cancel from the SDK meanwhile answers ``CustomerInput/skipped``).
    ///
    /// - Returns: an error answer at once when the question cannot be asked, else nil.
    func ask(_ question: CustomerInputRequest, id: UInt32, on device: ReaderDeviceSession) -> ReaderMessage? {
        guard transaction == nil, customerQuestion == nil else {
            return .error(.commandNotAllowed, detail: "the screen is taken by a transaction or another question")
        }
        if let problem = question.problem { return .error(.invalidData, detail: problem) }
        questionsAsked.append(question)
        record(.info, "asking the customer (\(question.kind)): \(question.prompt)")
        let answer = customerAnswers.isEmpty ? Self.defaultAnswer(to: question) : customerAnswers.removeFirst()
        let clock = self.clock
        let delay = answer == .timedOut ? Duration.seconds(Int(question.timeoutSeconds)) : configuration.humanDelay
        // Unstructured: the customer answers while the reader serves other requests (a cancel among them).
        customerQuestion = Task {
            let given: CustomerInput
            do {
                if delay > .zero { try await clock.sleep(for: delay) }
                given = answer
            } catch {
                given = .skipped
            }
            await self.answered(given, id: id, on: device)
        }
        return nil
    }

    /// Whether a question is open; a cancel answers it with ``CustomerInput/skipped``.
    func cancelQuestion() -> Bool {
        guard let customerQuestion else { return false }
        customerQuestion.cancel()
        return true
    }

    private func answered(_ answer: CustomerInput, id: UInt32, on device: ReaderDeviceSession) async {
        customerQuestion = nil
        record(.info, "the customer answered: \(Self.kind(of: answer))")
        // The SDK that asked may have gone; the answer has nobody to reach then.
        try? await device.respond(to: id, with: .customerInput(answer))
    }

    /// What a customer answers when no answer is scripted.
    static func defaultAnswer(to question: CustomerInputRequest) -> CustomerInput {
        switch question.kind {
        case .yesNo: .yesNo(true)
        case .choice: .choice(index: 0)
        case .email: .text("customer@example.com")
        case .phone: .text("+31201234567")
        case .text: .text("OK")
        // The sample drawing is built from constants; were it ever invalid, the customer declines to sign.
        case .signature: SignaturePad.sample.map { .signature($0) } ?? .skipped
        }
    }

    /// The answer's kind, for the log (what a customer typed stays out of it).
    private static func kind(of answer: CustomerInput) -> String {
        switch answer {
        case .yesNo(let yes): yes ? "yes" : "no"
        case .choice(let index): "choice \(index)"
        case .text: "text"
        case .signature: "signature"
        case .skipped: "skipped"
        case .timedOut: "timed out"
        }
    }
}
