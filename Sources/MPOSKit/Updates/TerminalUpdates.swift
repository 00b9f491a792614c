import Crypto
import EMV
import Foundation
import GatewayAPI
import MPOSCore
import ReaderLink

/// Terminal management (the TSM seed), reached as ``PaymentTerminal/updates``: check what is
/// pending for the connected reader and by when, download and apply it, and keep the reader's
/// configuration current by itself.
///
/// ```swift
/// let status = try await terminal.updates.check()
/// if status.hasUpdates {
///     let result = await terminal.updates.downloadAndApply().result()
///     print(result.type)
/// }
/// ```
public actor TerminalUpdates {
    let client: GatewayClient
    let reader: CardReaderLink
    let gate: OperationGate
    let events: TerminalEvents
    /// The channel, the key, what connecting installs, and what is known of each reader.
    var settings = UpdateSettings()

    init(client: GatewayClient, reader: CardReaderLink, gate: OperationGate, events: TerminalEvents) {
        self.client = client
        self.reader = reader
        self.gate = gate
        self.events = events
    }

    /// The least battery a firmware update starts with; charging does not count, as the reader
    /// may be unplugged mid-write.
    public static let firmwareBatteryMinimum = 50

    /// The bytes of one piece written to the reader: the most whose request (id, kind, offset
    /// and length, 13 bytes) fills four secured frames of 1,000 data bytes exactly, under the
    /// protocol's 4 KiB limit; a 4 KiB piece would take a fifth frame for 109 bytes.
    static let updateChunkSize = 3_987
    /// The bytes of one download request.
    static let downloadPieceSize: Int64 = 256 * 1024


    /// Logs the connected reader in with the gateway's terminal management (the TSM seed's
    /// `initializeTerminal`): registers it at its first call and answers whether updates are
    /// pending and by when. The terminal also does so at login and at connect. Once a deadline
    /// (after the grace period) has passed, card payments are refused with
    /// ``MPOSError/updateRequired`` until ``downloadAndApply(includeFirmware:window:)`` succeeds.
    ///
    /// - Throws: ``MPOSError/notLoggedIn``, ``MPOSError/readerNotConnected``,
    ///   ``MPOSError/gatewayUnreachable``, ``MPOSError/gatewayRefused``.
    public func check() async throws(MPOSError) -> TerminalUpdateStatus {
        guard await client.isLoggedIn else { throw MPOSError.notLoggedIn }
        let info = try await reader.deviceInfo()
        let answer = try await client.initializeTerminal(PaymentReader(info, channel: settings.channel))
        let status = TerminalUpdateStatus(answer)
        settings.reader.learned(status, reader: info.serialNumber)
        return status
    }

    /// Whether the connected reader is initialized with terminal management (the TSM seed's
    /// `isInitialized`): ``check()`` succeeded for it, at connect, at login or when called.
    public var isInitialized: Bool { get async { await status != nil } }

    /// The reminder to show the merchant for the connected reader (the TSM seed's pop-up):
    /// nil when its last check found nothing pending, or it was never checked.
    public var reminder: UpdateReminder? { get async { await status?.reminder } }

    /// What the last check said of the connected reader, if it was checked.
    var status: TerminalUpdateStatus? {
        get async { settings.reader.status(of: await reader.info?.serialNumber) }
    }

    /// Acts on the merchant's answer to the ``reminder``: ``UpdateReminder/Choice/beginUpdatesNow``
    /// starts ``downloadAndApply(includeFirmware:window:)`` and returns it;
    /// ``UpdateReminder/Choice/remindMeLater`` does nothing (the reminder comes again at the next
    /// check) and returns nil.
    public nonisolated func respond(to choice: UpdateReminder.Choice) -> UpdateOperation? {
        switch choice {
        case .beginUpdatesNow: downloadAndApply()
        case .remindMeLater: nil
        }
    }

    /// The troubles of the TSM seed's troubleshooting list the terminal has seen on the connected
    /// reader: ``UpdateTrouble/keepsRebooting`` once updates restarted it onto the same image three
    /// times (it does not stay installed), ``UpdateTrouble/decliningBeforeCardPrompt`` once three
    /// card payments in a row ended declined before it asked for a card. Each comes with the
    /// seed's advice (``UpdateTrouble/advice``); the list empties when another reader connects.
    public var troubles: [UpdateTrouble] { get async { settings.troubles.troubles(reader: await reader.info?.serialNumber) } }

    /// Downloads and applies every pending image, one at a time (the TSM seed's
    /// `downloadAndApplyUpdate`): each is checked (size, SHA-256, the pinned key's signature)
    /// before a byte reaches the reader, written a window of pieces at a time, verified and
    /// committed by the reader, which then restarts; the terminal reconnects, checks again and
    /// goes on until nothing is pending. Progress comes on ``UpdateOperation/progress``;
    /// ``UpdateOperation/cancel()`` stops between stages.
    ///
    /// Needs a reader connected with ``CardReaderLink/connect(secret:reconnect:open:)`` (so
    /// that the terminal can reach it after its restart).
    ///
    /// - Parameters:
    ///   - includeFirmware: false applies configuration images only (the Accept seed: they may
    ///     run automatically; firmware only when the merchant asks).
    ///   - window: pieces in flight while writing (1 waits for each answer).
    public nonisolated func downloadAndApply(includeFirmware: Bool = true, window: Int = 16) -> UpdateOperation {
        let (progress, sink) = AsyncStream.makeStream(of: UpdateProgress.self)
        // Unstructured: the update outlives the call that starts it; `UpdateOperation.cancel()` cancels it.
        let task = Task {
            var result = await self.runUpdate(
                .pending(includeFirmware: includeFirmware), window: max(1, window), progress: sink)
            // A cancel that lands inside a stage (a request the cancel cut short) is a cancel, not a failure.
            if Task.isCancelled, !result.isUpToDate { result.type = .cancelled }
            sink.finish()
            return result
        }
        return UpdateOperation(progress: progress, task: task)
    }

    /// Whether connecting a reader also installs its pending configuration images before it
    /// returns (``UpdatesOnConnect/configuration``), as the Accept seed allows. Off until set;
    /// needs a logged-in terminal. A failed update leaves the reader connected.
    public func setAutomaticConfigurationUpdates(_ enabled: Bool) {
        settings.onConnect = enabled ? .configuration : .none
    }

    /// Sets what connecting a reader installs before it returns (``UpdatesOnConnect/none``
    /// until set). ``UpdatesOnConnect/required`` is the ECP seed's connect: firmware and
    /// configuration published with a deadline are installed, and connect fails when one
    /// does not install.
    public func setUpdatesOnConnect(_ policy: UpdatesOnConnect) { settings.onConnect = policy }

    /// What connecting a reader installs before it returns.
    public var updatesOnConnect: UpdatesOnConnect { settings.onConnect }

    /// Sets the update channel of the terminal's readers (``UpdateChannel/production`` until
    /// set; set it before connecting): a test reader takes only test images.
    public func setChannel(_ channel: UpdateChannel) { settings.channel = channel }

    /// Pins the Ed25519 public key (32 raw bytes) update images must be signed with; the
    /// sandbox gateway's published key until set.
    ///
    /// - Throws: ``MPOSError/invalidArgument`` for a key that is not a valid Ed25519 key.
    public func pinSigningKey(_ rawKey: [UInt8]) throws(MPOSError) {
        // Why a key does not parse does not matter: any such key is refused.
        guard (try? Curve25519.Signing.PublicKey(rawRepresentation: rawKey)) != nil else {
            throw MPOSError.invalidArgument.withMessage("An update signing key is 32 bytes of an Ed25519 public key.")
        }
        settings.signingKey = rawKey
    }

    // MARK: - What the rest of the terminal asks

    /// Forgets what was learned of the reader's updates (another reader, or a new session).
    func forgetReaderStatus() { settings.reader.forget() }

    /// Forgets the reader's status unless it is of `serial`'s reader; true when it was forgotten.
    func forgetUnlessKnown(reader serial: String?) -> Bool {
        guard settings.reader.status(of: serial) == nil else { return false }
        settings.reader.forget()
        return true
    }

    /// Why a card payment on the connected reader must wait for an update at `date`, if it must.
    func refusal(at date: Date) async -> MPOSError? {
        settings.reader.refusal(reader: await reader.info?.serialNumber, at: date)
    }

    /// The channel the terminal's readers are on.
    var channel: UpdateChannel { settings.channel }

    /// A card payment ended on reader `serial`; payments declined before the card prompt count
    /// toward a trouble.
    func paymentEnded(declinedBeforeCardPrompt: Bool, reader serial: String) {
        settings.troubles.paymentEnded(declinedBeforeCardPrompt: declinedBeforeCardPrompt, reader: serial)
    }

    // MARK: - Download and apply

    /// Runs ``UpdateRunMachine`` for `selection`: carries out its actions, holding the
    /// terminal once validation passed, and answers its result.
    func runUpdate(
        _ selection: UpdateRunMachine.Selection, window: Int, progress: AsyncStream<UpdateProgress>.Continuation?
    ) async -> UpdateResult {
        var machine = UpdateRunMachine(selection: selection, signingKey: settings.signingKey)
        var hold: OperationGate.Hold?
        defer { if let hold { gate.end(hold) } }
        var actions = machine.start()
        while !actions.isEmpty {
            let action = actions.removeFirst()
            let event: UpdateRunMachine.Event?
            switch action {
            case .progress(let step):
                progress?.yield(step)
                event = nil
            case .announce(let update):
                events.emit(.readerUpdate(update))
                event = nil
            case .finish(let result):
                return result
            case .check where Task.isCancelled, .download where Task.isCancelled, .write where Task.isCancelled:
                event = .cancelled
            case .validate:
                var precondition = await precondition()
                if precondition == .met {
                    do { hold = try gate.begin(.update) } catch { precondition = .terminalBusy }
                }
                event = .started(precondition)
            case .check:
                progress?.yield(UpdateProgress(stage: .checkForUpdates))
                do { event = .checked(try await check()) } catch { event = .checkFailed(message: error.message) }
            case .readBattery:
                do { event = .battery(percentage: Int(try await reader.battery().percentage)) } catch {
                    event = .batteryUnreadable(message: error.message)
                }
            case .reachReaderAgain:
                await reader.close()
                event = await reader.reachAgain().map { .readerNotReached(message: $0) } ?? .readerReached
            case .download(let image):
                do { event = .downloaded(try await download(image, progress: progress)) } catch {
                    event = .downloadFailed(message: error.message)
                }
            case .write(let bytes, let image):
                event =
                    await write(bytes, of: image, window: window, progress: progress)
                    .map { .writeFailed($0.type, message: $0.message) } ?? .written
            case .restart(let image):
                event = await restart(onto: image).map { .restartFailed(message: $0) } ?? .restarted
            case .confirm(let image):
                event = await confirm(image).map { .confirmFailed(message: $0) } ?? .confirmed
            }
            if let event { actions += machine.handle(event) }
        }
        // The machine always ends with `finish`.
        return machine.result ?? UpdateResult(type: .cancelled, applied: [], message: nil)
    }

    /// Whether a run may start: a session, a reader that can be reached after its restart, and
    /// terminal management initialized for it (the terminal's gate is asked after these).
    private func precondition() async -> UpdateRunMachine.Precondition {
        guard await client.isLoggedIn else { return .notLoggedIn }
        guard await reader.link != nil, await reader.canBeReachedAgain else { return .readerNotReachableAgain }
        guard await isInitialized else { return .notInitialized }
        return .met
    }

    /// The whole image, a resumable range at a time.
    private func download(_ image: UpdateImage, progress: AsyncStream<UpdateProgress>.Continuation?)
        async throws(MPOSError) -> [UInt8]
    {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(image.size))
        progress?.yield(UpdateProgress(stage: .downloadFile, image: image, bytesDone: 0, bytesTotal: image.size))
        while Int64(bytes.count) < image.size {
            let length = min(Self.downloadPieceSize, image.size - Int64(bytes.count))
            let piece = try await client.downloadPiece(imageID: image.id, offset: Int64(bytes.count), length: length)
            guard !piece.isEmpty, Int64(bytes.count + piece.count) <= image.size else {
                throw MPOSError.gatewayRefused.withMessage(
                    "The gateway sent \(piece.count) bytes at offset \(bytes.count) of a \(image.size)-byte image.")
            }
            bytes.append(contentsOf: piece)
            progress?.yield(
                UpdateProgress(stage: .downloadFile, image: image, bytesDone: Int64(bytes.count), bytesTotal: image.size))
        }
        return bytes
    }

    /// Why `bytes` are not the signed image, or nil when size, SHA-256 and signature hold.
    static func integrityProblem(of bytes: [UInt8], image: UpdateImage, key: [UInt8]) -> String? {
        guard Int64(bytes.count) == image.size else {
            return "The image has \(bytes.count) bytes, the catalogue says \(image.size)."
        }
        guard Hex.encode(SHA256.hash(data: bytes)).lowercased() == image.sha256.lowercased() else {
            return "The image's SHA-256 is not the catalogue's."
        }
        // A key or signature that does not parse fails the check, as a wrong one does.
        guard let publicKey = try? Curve25519.Signing.PublicKey(rawRepresentation: key),
            let signature = try? Hex.decode(image.signature),
            publicKey.isValidSignature(signature, for: image.signedMessage)
        else { return "The image's signature does not hold for the pinned update key." }
        return nil
    }
}
