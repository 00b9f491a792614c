import MPOSCore
import ReaderLink

/// Asking the connected reader: a request, its expected answer, and the reader's refusals
/// told apart from a failed link.
extension CardReaderLink {
    /// Asks the reader for its description (``info()``), keeps it and takes in its battery.
    func deviceInfo() async throws(MPOSError) -> DeviceInfo {
        let described: DeviceInfo = try await ask(.getDeviceInfo, "device info") { answer in
            if case .deviceInfo(let info) = answer { info } else { nil }
        }
        info = described
        noteBattery(described.battery)
        return described
    }

    /// Sends `request` to the connected reader and picks the expected answer out of its reply.
    func ask<Answer>(
        _ request: ReaderMessage, _ what: String, _ pick: (ReaderMessage) -> Answer?
    ) async throws(MPOSError) -> Answer {
        let answer: ReaderMessage
        switch try await askReader(request, what) {
        case .answer(let message): answer = message
        case .refused(let status, let detail):
            // Where an answer is expected, a refusal fails the link's request as a missing answer would.
            throw MPOSError.readerLinkFailed.withMessage("The reader refused \(what): \(status.description) (\(detail)).")
        }
        guard let picked = pick(answer) else {
            throw MPOSError.readerLinkFailed.withMessage("The reader answered \(what) with another message.")
        }
        return picked
    }

    /// A reader's answer, or its error answer told apart from a failed link.
    enum Reply {
        case answer(ReaderMessage)
        case refused(ReaderStatusCode, String)
    }

    /// Sends `request`; an error answer is a ``Reply/refused(_:_:)``, not a link failure.
    func askReader(_ request: ReaderMessage, _ what: String, timeout: Duration? = nil)
        async throws(MPOSError) -> Reply
    {
        guard let connection = link else { throw MPOSError.readerNotConnected }
        do {
            if let timeout { return .answer(try await connection.request(request, timeout: timeout)) }
            return .answer(try await connection.request(request))
        } catch .rejected(let status, let detail) {
            return .refused(status, detail)
        } catch {
            throw MPOSError.readerLinkFailed.withMessage("The reader did not answer \(what): \(error).")
        }
    }

    /// Sends a request whose answer is an acknowledgement; a reader's error answer is thrown
    /// as ``MPOSError/readerRefused`` with the reader's status.
    func askForAck(_ request: ReaderMessage, _ what: String) async throws(MPOSError) {
        switch try await askReader(request, what) {
        case .answer(.ack): return
        case .refused(let status, let detail): throw Self.refusal(what, status, detail)
        case .answer: throw MPOSError.readerLinkFailed.withMessage("The reader answered \(what) with another message.")
        }
    }

    static func refusal(_ what: String, _ status: ReaderStatusCode, _ detail: String) -> MPOSError {
        MPOSError.readerRefused.withMessage("The reader refused \(what): \(status.description) (\(detail)).")
    }
}
