import GatewayAPI

/// The rules of one download-and-apply run, with no I/O: events in, actions out, as
/// ``PaymentEngine`` is for a payment. ``TerminalUpdates`` feeds it what the gateway and the
/// reader answered and carries out what it returns (ask the gateway, read the battery,
/// download, write, restart, confirm), so the order of the stages, what each failure ends as
/// and where a cancel takes effect are decided here and tested without a reader.
///
/// A run checks what is pending, installs the first image its ``Selection`` takes, checks
/// again and goes on until nothing it takes is pending; a failure ends the run with what was
/// installed before it.
struct UpdateRunMachine: Sendable {
    /// Which pending images a run installs.
    enum Selection: Sendable, Equatable {
        /// Pending images in the catalogue's order; firmware too when `includeFirmware`.
        case pending(includeFirmware: Bool)
        /// Images published with a deadline (the ECP seed's connect).
        case required

        func next(in status: TerminalUpdateStatus) -> UpdateImage? {
            switch self {
            case .pending(let includeFirmware): status.pending.first { includeFirmware || $0.kind == .configuration }
            case .required: status.required.first
            }
        }
    }

    /// Where one image's install stands.
    enum Stage: Sendable, Equatable {
        /// Reading the battery before firmware; `retried` once the link was reached again for it.
        case readingBattery(retried: Bool)
        case downloading
        case writing
        case restarting
        case confirming
    }

    enum State: Sendable, Equatable {
        /// Asked whether it may start (session, a reader reachable again, initialized, free terminal).
        case validating
        /// Asking the gateway what is pending.
        case checking(applied: [UpdateImage])
        /// Installing `image`.
        case installing(UpdateImage, Stage, applied: [UpdateImage])
        case finished(UpdateResult)
    }

    /// What the driver found before the run may start.
    enum Precondition: Sendable, Equatable {
        case met
        case notLoggedIn
        /// No reader, or one connected without a way to reach it after its restart.
        case readerNotReachableAgain
        case notInitialized
        case terminalBusy
    }

    enum Event: Sendable, Equatable {
        case started(Precondition)
        case checked(TerminalUpdateStatus)
        case checkFailed(message: String)
        case battery(percentage: Int)
        case batteryUnreadable(message: String)
        case readerReached
        case readerNotReached(message: String)
        case downloaded([UInt8])
        case downloadFailed(message: String)
        case written
        case writeFailed(UpdateResultType, message: String)
        case restarted
        case restartFailed(message: String)
        case confirmed
        case confirmFailed(message: String)
        /// The app cancelled; the driver says so in place of carrying out a check, a download
        /// or a write (never a restart: the reader must come back).
        case cancelled
    }

    enum Action: Sendable, Equatable {
        /// Tell the app's progress stream.
        case progress(UpdateProgress)
        /// Emit ``TerminalEvent/readerUpdate(_:)``.
        case announce(ReaderUpdateEvent)
        /// Find whether the run may start and, when it may, hold the terminal for it
        /// (``Event/started(_:)``).
        case validate
        /// Say ``UpdateStage/checkForUpdates`` and ask the gateway what is pending.
        case check
        case readBattery
        /// Close the link and reach the reader again (it answers ``Event/readerReached`` or
        /// ``Event/readerNotReached(message:)``).
        case reachReaderAgain
        case download(UpdateImage)
        case write([UInt8], UpdateImage)
        case restart(UpdateImage)
        case confirm(UpdateImage)
        /// The run ended: release the terminal, answer `result`.
        case finish(UpdateResult)
    }

    let selection: Selection
    /// The Ed25519 key images must be signed with.
    let signingKey: [UInt8]
    private(set) var state = State.validating

    init(selection: Selection, signingKey: [UInt8]) {
        self.selection = selection
        self.signingKey = signingKey
    }

    /// The result, once the run ended.
    var result: UpdateResult? {
        if case .finished(let result) = state { result } else { nil }
    }

    /// The actions that start the run (validation's progress).
    mutating func start() -> [Action] { [.progress(UpdateProgress(stage: .validation)), .validate] }

    mutating func handle(_ event: Event) -> [Action] {
        switch (state, event) {
        case (.validating, .started(let precondition)):
            switch precondition {
            case .met: return checkAgain(applied: [])
            case .notLoggedIn: return finish(.notLoggedIn, applied: [])
            case .readerNotReachableAgain:
                return finish(
                    .terminalNotSelected, applied: [],
                    message: "Connect the reader with reader.connect(secret:open:), so the terminal can reach it after it restarts.")
            case .notInitialized: return finish(.notInitialized, applied: [])
            case .terminalBusy: return finish(.terminalBusy, applied: [])
            }

        case (.checking(let applied), .cancelled):
            return finish(.cancelled, applied: applied)
        case (.checking(let applied), .checkFailed(let message)):
            return finish(.downloadFailed, applied: applied, message: "The gateway did not answer what is pending: \(message)")
        case (.checking(let applied), .checked(let status)):
            guard let image = selection.next(in: status) else {
                return finish(applied.isEmpty ? .upToDate : .success, applied: applied)
            }
            if image.kind == .firmware {
                state = .installing(image, .readingBattery(retried: false), applied: applied)
                return [.announce(.started(image)), .readBattery]
            }
            state = .installing(image, .downloading, applied: applied)
            return [.announce(.started(image)), .download(image)]

        case (.installing(let image, .readingBattery(false), let applied), .batteryUnreadable):
            // A link lost here is reached again, as during the write, and asked once more.
            state = .installing(image, .readingBattery(retried: true), applied: applied)
            return [.reachReaderAgain]
        case (.installing(_, .readingBattery(true), _), .readerReached):
            return [.readBattery]
        case (.installing(let image, .readingBattery(true), let applied), .readerNotReached(let message)),
            (.installing(let image, .readingBattery(true), let applied), .batteryUnreadable(let message)):
            return failed(image, .terminalNotSelected, applied: applied, message: message)
        case (.installing(let image, .readingBattery, let applied), .battery(let percentage)):
            guard percentage >= TerminalUpdates.firmwareBatteryMinimum else {
                return failed(
                    image, .batteryTooLow, applied: applied,
                    message:
                        "Firmware needs the reader at \(TerminalUpdates.firmwareBatteryMinimum) % or more, charging or not; it is at \(percentage) %."
                )
            }
            state = .installing(image, .downloading, applied: applied)
            return [.download(image)]

        case (.installing(let image, .downloading, let applied), .cancelled):
            return failed(image, .cancelled, applied: applied, message: "Cancelled before the download.")
        case (.installing(let image, .downloading, let applied), .downloadFailed(let message)):
            return failed(image, .downloadFailed, applied: applied, message: message)
        case (.installing(let image, .downloading, let applied), .downloaded(let bytes)):
            if let problem = TerminalUpdates.integrityProblem(of: bytes, image: image, key: signingKey) {
                return failed(image, .hashCheckFailed, applied: applied, message: problem)
            }
            state = .installing(image, .writing, applied: applied)
            return [.write(bytes, image)]

        case (.installing(let image, .writing, let applied), .cancelled):
            return failed(image, .cancelled, applied: applied, message: "Cancelled before the write.")
        case (.installing(let image, .writing, let applied), .writeFailed(let type, let message)):
            return failed(image, type, applied: applied, message: message)
        case (.installing(let image, .writing, let applied), .written):
            state = .installing(image, .restarting, applied: applied)
            return [.progress(UpdateProgress(stage: .terminalReboot, image: image)), .restart(image)]

        case (.installing(let image, .restarting, let applied), .restartFailed(let message)),
            (.installing(let image, .confirming, let applied), .confirmFailed(let message)):
            return failed(image, .confirmUpdateFailed, applied: applied, message: message)
        case (.installing(let image, .restarting, let applied), .restarted):
            state = .installing(image, .confirming, applied: applied)
            return [.progress(UpdateProgress(stage: .confirmUpdate, image: image)), .confirm(image)]
        case (.installing(let image, .confirming, let applied), .confirmed):
            return [.announce(.finished(image, succeeded: true))] + checkAgain(applied: applied + [image])

        default:
            // An answer to nothing asked (or after the end) changes nothing.
            return []
        }
    }

    private mutating func checkAgain(applied: [UpdateImage]) -> [Action] {
        state = .checking(applied: applied)
        return [.check]
    }

    private mutating func failed(_ image: UpdateImage, _ type: UpdateResultType, applied: [UpdateImage], message: String)
        -> [Action]
    {
        [.announce(.finished(image, succeeded: false))] + finish(type, applied: applied, message: message)
    }

    private mutating func finish(_ type: UpdateResultType, applied: [UpdateImage], message: String? = nil) -> [Action] {
        let result = UpdateResult(type: type, applied: applied, message: message)
        state = .finished(result)
        return [.finish(result)]
    }
}
