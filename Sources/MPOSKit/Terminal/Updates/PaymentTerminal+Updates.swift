import Crypto
import EMV
import Foundation
import GatewayAPI
import MPOSCore
import ReaderLink

/// Terminal management (the TSM seed): initialize with the gateway, then download and apply
/// what is pending, one image at a time, until the reader is up to date.
extension PaymentTerminal {
    /// The least battery a firmware update starts with; charging does not count, as the reader
    /// may be unplugged mid-write.
    static let firmwareBatteryMinimum = TerminalUpdates.firmwareBatteryMinimum
    /// The bytes of one piece written to the reader: the most whose request (id, kind, offset
    /// and length, 13 bytes) fills four secured frames of 1,000 data bytes exactly, under the
    /// protocol's 4 KiB limit; a 4 KiB piece would take a fifth frame for 109 bytes.
    static let updateChunkSize = 3_987
    /// The bytes of one download request.
    static let downloadPieceSize: Int64 = 256 * 1024

    /// Pins the Ed25519 public key (32 raw bytes) update images must be signed with; the
    /// sandbox gateway's published key (``UpdateSigning/sandboxPublicKeyHex``) until set.
    ///
    /// - Throws: ``MPOSError/invalidArgument`` for a key that is not a valid Ed25519 key.
    func pinUpdateSigningKey(_ rawKey: [UInt8]) throws(MPOSError) {
        guard (try? Curve25519.Signing.PublicKey(rawRepresentation: rawKey)) != nil else {
            throw MPOSError.invalidArgument.withMessage("An update signing key is 32 bytes of an Ed25519 public key.")
        }
        updateSettings.signingKey = rawKey
    }

    /// Sets the update channel of the terminal's readers (``UpdateChannel/production`` until
    /// set): a test reader takes only test images, and the reader checks the channel again in
    /// the image's signature (the Accept seed keeps test and production images apart).
    func setUpdateChannel(_ channel: UpdateChannel) {
        updateSettings.channel = channel
    }

    /// Logs the reader in with the gateway (the TSM seed's `initializeTerminal`): registers it
    /// at its first call and answers whether updates are pending and by when. When a deadline
    /// has passed, card payments are refused with ``MPOSError/updateRequired`` until
    /// ``downloadAndApplyUpdate(includeFirmware:window:)`` succeeds.
    ///
    /// ```swift
    /// let status = try await terminal.initializeTerminal()
    /// if status.hasUpdates { print("install before", status.updateDeadline ?? "any time") }
    /// ```
    ///
    /// - Throws: ``MPOSError/notLoggedIn``, ``MPOSError/readerNotConnected``,
    ///   ``MPOSError/gatewayUnreachable``, ``MPOSError/gatewayRefused``.
    func initializeTerminal() async throws(MPOSError) -> TerminalUpdateStatus {
        guard await client.isLoggedIn else { throw MPOSError.notLoggedIn }
        let info = try await deviceInfo()
        let answer = try await client.initializeTerminal(
            PaymentReader(info, channel: updateSettings.channel))
        let status = TerminalUpdateStatus(answer)
        updateSettings.reader.learned(status, reader: info.serialNumber)
        return status
    }

    /// Downloads and applies every pending image, one at a time: each is checked (size, SHA-256,
    /// the pinned key's signature) before a byte reaches the reader, written a window of
    /// pieces at a time, verified and committed by the reader, which then restarts; the terminal
    /// reconnects, initializes again and goes on until nothing is pending. Progress comes on
    /// ``UpdateOperation/progress``; ``UpdateOperation/cancel()`` stops between stages.
    ///
    /// Needs a reader connected with ``ReaderTools/connect(secret:reconnect:open:)`` (so that the
    /// terminal can reach it after its restart) and ``initializeTerminal()`` called first.
    ///
    /// - Parameters:
    ///   - includeFirmware: false applies configuration images only (the Accept seed: they may
    ///     run automatically; firmware only when the merchant asks).
    ///   - window: pieces in flight while writing (1 waits for each answer).
    nonisolated func downloadAndApplyUpdate(includeFirmware: Bool = true, window: Int = 16) -> UpdateOperation {
        let (progress, sink) = AsyncStream.makeStream(of: UpdateProgress.self)
        // Unstructured: the update outlives the call that starts it; `UpdateOperation.cancel()` cancels it.
        let task = Task {
            var result = await self.runUpdate(
                window: max(1, window), progress: sink,
                installing: { $0.pending.first { includeFirmware || $0.kind == .configuration } })
            // A cancel that lands inside a stage (a request the cancel cut short) is a cancel, not a failure.
            if Task.isCancelled, !result.isUpToDate { result.type = .cancelled }
            sink.finish()
            return result
        }
        return UpdateOperation(progress: progress, task: task)
    }

    func runUpdate(
        window: Int, progress: AsyncStream<UpdateProgress>.Continuation?,
        installing next: @Sendable (TerminalUpdateStatus) -> UpdateImage?
    ) async -> UpdateResult {
        progress?.yield(UpdateProgress(stage: .validation))
        guard await client.isLoggedIn else { return UpdateResult(type: .notLoggedIn, applied: [], message: nil) }
        guard readerLink.connection != nil, let plan = readerLink.linkPlan else {
            return UpdateResult(
                type: .terminalNotSelected, applied: [],
                message: "Connect the reader with connectReader(secret:open:), so the terminal can reach it after it restarts.")
        }
        guard isInitialized else { return UpdateResult(type: .notInitialized, applied: [], message: nil) }
        do { try state.begin(.update) } catch { return UpdateResult(type: .terminalBusy, applied: [], message: nil) }
        defer { state.end(.update) }
        var applied: [UpdateImage] = []
        while true {
            if Task.isCancelled { return UpdateResult(type: .cancelled, applied: applied, message: nil) }
            progress?.yield(UpdateProgress(stage: .checkForUpdates))
            let status: TerminalUpdateStatus
            do { status = try await initializeTerminal() } catch {
                return UpdateResult(
                    type: .downloadFailed, applied: applied,
                    message: "The gateway did not answer what is pending: \(error.message)")
            }
            guard let image = next(status) else {
                return UpdateResult(type: applied.isEmpty ? .upToDate : .success, applied: applied, message: nil)
            }
            emit(.readerUpdate(.started(image)))
            let failure = await apply(image, window: window, plan: plan, progress: progress)
            emit(.readerUpdate(.finished(image, succeeded: failure == nil)))
            if let failure { return UpdateResult(type: failure.type, applied: applied, message: failure.message) }
            applied.append(image)
        }
    }

    /// One image, from the battery check to the confirmed install. Nil when installed.
    private func apply(
        _ image: UpdateImage, window: Int, plan: ReconnectPlan, progress: AsyncStream<UpdateProgress>.Continuation?
    ) async -> UpdateFailure? {
        if image.kind == .firmware {
            let battery: BatteryStatus
            do { battery = try await batteryLevel() } catch {
                // A link lost here is reached again, as during the write, and asked once more.
                await closeLink()
                if let failure = await reconnect(plan: plan) {
                    return UpdateFailure(type: .terminalNotSelected, message: failure)
                }
                do { battery = try await batteryLevel() } catch {
                    return UpdateFailure(type: .terminalNotSelected, message: error.message)
                }
            }
            guard Int(battery.percentage) >= Self.firmwareBatteryMinimum else {
                return UpdateFailure(
                    type: .batteryTooLow,
                    message:
                        "Firmware needs the reader at \(Self.firmwareBatteryMinimum) % or more, charging or not; it is at \(battery.percentage) %.")
            }
        }
        if Task.isCancelled { return UpdateFailure(type: .cancelled, message: "Cancelled before the download.") }
        let bytes: [UInt8]
        do { bytes = try await download(image, progress: progress) } catch {
            return UpdateFailure(type: .downloadFailed, message: error.message)
        }
        if let problem = Self.integrityProblem(of: bytes, image: image, key: updateSettings.signingKey) {
            return UpdateFailure(type: .hashCheckFailed, message: problem)
        }
        if Task.isCancelled { return UpdateFailure(type: .cancelled, message: "Cancelled before the write.") }
        if let failure = await write(bytes, of: image, window: window, plan: plan, progress: progress) { return failure }
        progress?.yield(UpdateProgress(stage: .terminalReboot, image: image))
        if let failure = await restart(onto: image, plan: plan) {
            return UpdateFailure(type: .confirmUpdateFailed, message: failure)
        }
        progress?.yield(UpdateProgress(stage: .confirmUpdate, image: image))
        if let failure = await confirm(image) { return UpdateFailure(type: .confirmUpdateFailed, message: failure) }
        return nil
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
        guard let publicKey = try? Curve25519.Signing.PublicKey(rawRepresentation: key),
            let signature = try? Hex.decode(image.signature),
            publicKey.isValidSignature(signature, for: image.signedMessage)
        else { return "The image's signature does not hold for the pinned update key." }
        return nil
    }
}
