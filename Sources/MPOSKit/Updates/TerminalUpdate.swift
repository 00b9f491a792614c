import GatewayAPI
import MPOSCore

/// What ``TerminalUpdates/check()`` learnt: the TSM seed's `EVOTerminalUpdate`,
/// with what is pending and whether payments are held until it is installed.
public struct TerminalUpdateStatus: Sendable, Hashable {
    /// Whether an image newer than what the reader runs is published for it.
    public var hasUpdates: Bool
    /// The earliest deadline among the pending images, after the grace period; `nil` when none
    /// has one.
    public var updateDeadline: Date?
    /// The pending images, configuration first.
    public var pending: [UpdateImage]
    /// Whether a deadline has passed: card payments are refused with
    /// ``MPOSError/updateRequired`` until ``TerminalUpdates/downloadAndApply(includeFirmware:window:)``
    /// brings the reader up to date.
    public var blocked: Bool
    /// The pending images the reader must install by a deadline (published with one, or
    /// superseding an image it lacks that has one): what ``UpdatesOnConnect/required`` installs.
    public var required: [UpdateImage]
    /// When the gateway first saw the reader.
    public var registeredAt: Date
    /// Until when deadlines are held off for a newly registered reader (three days).
    public var graceUntil: Date

    /// Whether card payments wait for the update at `date`: an image is pending and its
    /// deadline (after the grace period) is not later than `date`. ``blocked`` is the
    /// gateway's verdict when it answered; this is the same rule at any moment since.
    public func isBlocked(at date: Date) -> Bool {
        guard hasUpdates, let updateDeadline else { return false }
        return updateDeadline <= date
    }

    /// The reminder to show the merchant while updates are pending (the seed: at every
    /// initialize); nil when the reader is up to date.
    public var reminder: UpdateReminder? { hasUpdates ? UpdateReminder(deadline: updateDeadline) : nil }

    init(_ answer: TerminalInitializeResponse) {
        hasUpdates = answer.hasUpdates
        updateDeadline = answer.updateDeadline
        pending = answer.pending
        blocked = answer.blocked
        registeredAt = answer.registeredAt
        graceUntil = answer.graceUntil
        let required = answer.required.map(Set.init)
        self.required = answer.pending.filter { required?.contains($0.id) ?? ($0.deadline != nil) }
    }
}

/// The six stages of an update, in the TSM seed's order (`EVODownloadAndApplyProgressMessage…`).
public enum UpdateStage: String, Sendable, Hashable, CaseIterable {
    /// The terminal can and may update now (logged in, initialized, a reader, its battery).
    case validation
    /// Asking the gateway what is pending.
    case checkForUpdates
    /// Downloading the image (resumable), then checking its size, SHA-256 and signature.
    case downloadFile
    /// Writing it to the reader, a window of pieces at a time, resuming at the reader's offset.
    case writeFileToTerminal
    /// The reader restarts on the new image; the terminal reconnects.
    case terminalReboot
    /// The reader reports the new version and the gateway records the install.
    case confirmUpdate
}

/// One step of ``UpdateOperation/progress``.
public struct UpdateProgress: Sendable, Hashable {
    /// The stage.
    public var stage: UpdateStage
    /// The image it concerns (none during validation and the check).
    public var image: UpdateImage?
    /// Bytes downloaded or written so far, during those two stages.
    public var bytesDone: Int64?
    /// The image's size, during those two stages.
    public var bytesTotal: Int64?

    /// Creates a progress report.
    public init(stage: UpdateStage, image: UpdateImage? = nil, bytesDone: Int64? = nil, bytesTotal: Int64? = nil) {
        self.stage = stage
        self.image = image
        self.bytesDone = bytesDone
        self.bytesTotal = bytesTotal
    }
}

/// How an update ended: the TSM seed's eleven `EVODownloadAndApplyResult…` types, plus a
/// battery too low for firmware and a terminal busy with another operation.
public enum UpdateResultType: String, Sendable, Hashable, CaseIterable {
    /// Every pending image was installed.
    case success
    /// Nothing was pending.
    case upToDate
    /// The app cancelled between stages.
    case cancelled
    /// ``TerminalUpdates/check()`` was not called.
    case notInitialized
    /// The terminal is not logged in.
    case notLoggedIn
    /// No reader is connected, or it was connected without a way to reconnect after its reboot.
    case terminalNotSelected
    /// The reader has no room for the image.
    case notEnoughSpace
    /// The image could not be downloaded.
    case downloadFailed
    /// The image's size, SHA-256 or signature did not hold (checked before a byte reaches the
    /// reader, and again by the reader).
    case hashCheckFailed
    /// The reader did not take the image.
    case terminalWriteFailed
    /// The reader did not come back on the new version, or the gateway did not record it.
    case confirmUpdateFailed
    /// Firmware needs the battery at 50 % or more (charging does not count).
    case batteryTooLow
    /// Another operation (a payment, another update) runs.
    case terminalBusy
}

/// What ``UpdateOperation/result()`` answers.
public struct UpdateResult: Sendable, Hashable {
    /// How it ended.
    public var type: UpdateResultType
    /// The images installed, in order (some may be, even when a later one failed).
    public var applied: [UpdateImage]
    /// Why it failed, for a person; `nil` on success or up to date.
    public var message: String?

    /// Whether the reader is up to date now.
    public var isUpToDate: Bool { type == .success || type == .upToDate }
}

/// A running ``TerminalUpdates/downloadAndApply(includeFirmware:window:)``.
public final class UpdateOperation: Sendable {
    /// The stages as they happen, with bytes during download and write; finishes with the run.
    public let progress: AsyncStream<UpdateProgress>
    let task: Task<UpdateResult, Never>

    init(progress: AsyncStream<UpdateProgress>, task: Task<UpdateResult, Never>) {
        self.progress = progress
        self.task = task
    }

    /// How the update ended.
    public func result() async -> UpdateResult { await task.value }

    /// Stops the update at the next stage boundary (never while the reader restarts); the
    /// result is ``UpdateResultType/cancelled``. A transfer already begun resumes where it
    /// stopped the next time.
    public func cancel() { task.cancel() }
}
