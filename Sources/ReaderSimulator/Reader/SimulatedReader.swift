import CardCrypto
import EMV
import Foundation
import MPOSCore
import ReaderLink
import SandboxCards

/// A complete card reader in software, speaking ReaderLink on any transport: pairing, device
/// information, battery, logs, scanner, firmware and configuration slots, and card
/// transactions run by the EMV kernel with the sandbox's test cards and scenario amounts.
///
/// ```swift
/// let reader = SimulatedReader(configuration: SimulatedReaderConfiguration(secret: secret))
/// let (sdkSide, readerSide) = InProcessTransport.makePair()
/// Task { await reader.serve(readerSide) }
/// let connection = try await ReaderConnection.open(transport: sdkSide, secret: secret)
/// ```
///
/// The reader serves one SDK at a time, as a real reader does: while a link is paired,
/// another SDK that pairs is refused with the reason (`ReaderLinkError.readerInUse`, naming
/// the holder) and the first link carries on. A holder that vanished without closing its link
/// is replaced once it has been silent past `ReaderLinkProtocol.idleLinkLimit`. The reader's
/// state (battery, cards' ATCs, logs, slots) outlives links, as a real reader's does.
public actor SimulatedReader {
    /// What the SDK sends while a transaction waits for it.
    enum SDKInput: Sendable {
        case application(ApplicationChoice)
        case signature(SignatureResponse)
        case host(HostResponse)
        case cancelled
        case cardPresented
        case timedOut
    }

    var configuration: SimulatedReaderConfiguration
    let clock: any Clock<Duration>
    let now: @Sendable () -> Date

    var battery: Battery
    var log: ReaderLog
    var scanner = BarcodeScanner()
    /// Times the scanner out on the reader's clock after `timeoutSeconds` without a code.
    var scannerWatch: Task<Void, Never>?
    /// Counts the scanner's enables and codes, so that the watch sees activity.
    var scannerActivity = 0
    /// Update bytes received again at an offset the reader already held (a resume that went
    /// back further than it had to).
    public internal(set) var rewrittenUpdateBytes = 0
    var slots: FirmwareSlots
    /// The flash the slots are kept in, when the configuration names a state directory.
    let store: FirmwareSlotStore?
    /// Set by ``powerOff()``: nothing more reaches the flash.
    var poweredOff = false
    var cards: [String: SimulatedCard] = [:]
    /// Forwards the card source's insertions and removals as card events.
    var presenceWatch: Task<Void, Never>?
    /// Whether card events come from the card source rather than from each transaction.
    var cardSourceReportsPresence = false
    var dukpt: DUKPTReader?
    var nextPIN: String?
    var pendingSignatureVerdict: Bool?

    var session: ReaderDeviceSession?
    /// The SDK the reader is paired with, from its admission until its link closes.
    var holder: Holder?
    var nextHolderID = 0
    var transport: FaultInjectingTransport?
    var transaction: Task<Void, Never>?
    var transactionID: String?
    var cancelAllowed = false
    var waiter: CheckedContinuation<SDKInput, Never>?
    var waiterTimeout: Task<Void, Never>?
    var bufferedInputs: [SDKInput] = []
    var unresponsive = false
    /// The cart on the reader's screen, if one is shown.
    public internal(set) var displayedCart: ReaderCart?
    /// The questions asked of the customer, in order.
    public internal(set) var questionsAsked: [CustomerInputRequest] = []
    /// The question being asked, answered when the customer does.
    var customerQuestion: Task<Void, Never>?
    /// The customer's next answers, in order (``SimulatedReaderConfiguration/customerAnswers``, then ``answerNextQuestions(_:)``).
    var customerAnswers: [CustomerInput] = []
    /// Whether events wait in `heldEvents` instead of leaving at once: while a transaction
    /// works without waiting for anyone (reading the card, PIN digits with no human delay,
    /// the kernel's cryptogram), its events leave together when it next waits or ends.
    var holdingEvents = false
    var heldEvents: [ReaderMessage] = []
    /// The slot an update is being transferred to, between `updateBegin` and its commit.
    var updating: FirmwareSlots.Component?
    /// The announced image of the transfer in progress, whose signature `updateVerify` checks.
    var updateAnnouncement: UpdateBegin?
    /// The component whose image was committed and has not booted yet (the next restart does).
    var committedBeforeBoot: FirmwareSlots.Component?
    /// What the reader announces to discovery (name, serial number, model, protocol version).
    public nonisolated let announcement: ReaderAnnouncement
    /// Transactions the reader has finished since power-on.
    public internal(set) var completedTransactions = 0
    /// Times the reader rebooted (fault injection, or after a firmware commit).
    public internal(set) var reboots = 0

    /// A reader with the given configuration.
    ///
    /// - Parameters:
    ///   - clock: the clock that timeouts and human delays run on (a manual clock in tests).
    ///   - now: the date a transaction carries (9A).
    public init(
        configuration: SimulatedReaderConfiguration, clock: any Clock<Duration> = ContinuousClock(),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.configuration = configuration
        self.clock = clock
        self.now = now
        self.battery = configuration.battery
        self.customerAnswers = configuration.customerAnswers
        self.announcement = ReaderAnnouncement(
            name: configuration.name, serialNumber: configuration.serialNumber, model: configuration.model)
        self.log = ReaderLog(level: .info)
        let factory = FirmwareSlots(
            firmware: .init(version: configuration.applicationVersion, bytes: Array("firmware \(configuration.applicationVersion)".utf8)),
            configuration: .init(version: configuration.emvParameterVersion, bytes: Array("config \(configuration.emvParameterVersion)".utf8)))
        var startup: String?
        var store: FirmwareSlotStore?
        var slots = factory
        if let path = configuration.stateDirectory {
            do {
                store = try FirmwareSlotStore(path: path)
                slots = try store?.load(defaults: factory) ?? factory
            } catch {
                // A state directory that cannot be used leaves the reader on its factory images;
                // the emulator checks the directory before it builds a reader.
                store = nil
                startup = "state directory unusable, factory images: \(error)"
            }
        }
        self.store = store
        self.slots = slots
        // A device derivation ID of its own: each emulated reader (and each restart) gets a
        // fresh DUKPT key space, so its KSNs never repeat ones a long-lived gateway has seen.
        self.dukpt = try? EMVKernel.sandboxReader(derivationID: .random(in: 1...UInt32.max))
        if let startup { _ = log.append(.info, startup) }
    }

    // MARK: - Serving links

    /// Serves one link: pairs, then answers requests until the link closes. Returns when the
    /// link is gone (or pairing failed: a wrong secret, garbage, silence until the peer
    /// leaves, or another SDK holding the reader).
    public func serve(_ link: any ReaderTransport) async {
        let link: any ReaderTransport =
            configuration.link.isUnlimited ? link : ShapedTransport(link, profile: configuration.link)
        let faulty = FaultInjectingTransport(link, plan: configuration.faults, clock: clock) { [weak self] in
            await self?.rebooted()
        }
        nextHolderID += 1
        let claim = Holder(id: nextHolderID, peer: link.peerName ?? "another terminal")
        let device: ReaderDeviceSession
        do {
            device = try await ReaderDeviceSession.accept(
                transport: faulty, secret: configuration.secret, clock: clock
            ) { [weak self] in
                await self?.admit(claim) ?? .admit
            }
        } catch {
            record(.info, "pairing failed: \(error)")
            release(claim)
            return
        }
        if holder?.id == claim.id { holder?.session = device }
        session = device
        transport = faulty
        unresponsive = false
        record(.info, "paired, protocol version \(await device.version)")
        watchCardPresence()
        for await request in device.requests {
            await handle(request, on: device)
        }
        release(claim)
        if session === device {
            session = nil
            transport = nil
            record(.info, "link closed")
            // A transaction whose link dropped ends where it stands; the SDK recovers its
            // outcome from the host.
            abandonTransaction()
        }
    }

    // MARK: - Controls for tests and the emulator

    /// Presents a card to the running (or the next) transaction.
    public func present(cardID: String, entryMode: CardEntryMode = .chip) throws(SimulatedReaderError) {
        guard SandboxCards.card(id: cardID) != nil else { throw .unknownCard(cardID) }
        configuration.cardID = cardID
        configuration.entryMode = entryMode
        deliver(.cardPresented)
    }

    /// The PIN the cardholder types at the next PIN prompt (default: the card's own PIN);
    /// `nil` restores the default.
    public func setNextPIN(_ pin: String?) { nextPIN = pin }

    /// What the cardholder presses at the tip prompt of the transactions from now on
    /// (``SimulatedReaderConfiguration/tipChoice``).
    public func setTipChoice(_ choice: TipChoice) { configuration.tipChoice = choice }

    /// What the customer answers to the next questions on the reader's screen, in order
    /// (after any still scripted).
    public func answerNextQuestions(_ answers: [CustomerInput]) { customerAnswers += answers }

    /// Whether the cardholder answers the signature step on the reader itself: used when the
    /// SDK does not answer (nil waits for the SDK).
    public func setSignatureVerdictOnReader(_ accepted: Bool?) { pendingSignatureVerdict = accepted }

    /// Replaces the fault plan (counting continues on the current link).
    public func setFaults(_ plan: FaultPlan) {
        configuration.faults = plan
        transport?.replacePlan(plan)
    }

    /// Pulls the plug, as a power loss or `kill -9` would: nothing more reaches the state
    /// directory and the link drops. A new reader on the same ``SimulatedReaderConfiguration/stateDirectory``
    /// boots from what was stored.
    public func powerOff() async {
        poweredOff = true
        unresponsive = true
        let link = session
        session = nil
        transport = nil
        await link?.close()
    }

    /// Replaces the update refusals (``SimulatedReaderConfiguration/updateRefusals``).
    public func setUpdateRefusals(_ refusals: [UpdateRefusal]) { configuration.updateRefusals = refusals }

    /// Sets how many of the next committed images fail to boot
    /// (``SimulatedReaderConfiguration/imagesFailingToBoot``).
    public func setImagesFailingToBoot(_ count: Int) { configuration.imagesFailingToBoot = count }

    /// Whether every transaction ends declined before the card prompt
    /// (``SimulatedReaderConfiguration/declinesBeforeCardPrompt``).
    public func setDeclinesBeforeCardPrompt(_ declines: Bool) {
        configuration.declinesBeforeCardPrompt = declines
    }

    /// Whether transactions wait for `present(cardID:entryMode:)`.
    public func setWaitsForCard(_ waits: Bool) { configuration.waitsForCard = waits }

    /// Sets the battery level and charging state, reporting the change to the SDK.
    public func setBattery(percentage: Int, charging: Bool? = nil) async {
        var events = battery.set(percentage)
        if let charging { events += battery.setCharging(charging) }
        await report(batteryEvents: events)
    }

    /// A barcode put in front of the scanner (delivered only while the SDK has enabled it).
    ///
    /// - Parameter pressingButton: whether the operator presses the scan button for it, as
    ///   one does to scan (the default). In button mode (``ScannerConfiguration/buttonMode``)
    ///   a code is read only with the button pressed, or held (``pressScanButton()``); without
    ///   button mode the scanner reads it either way.
    /// - Returns: whether the scanner reported it (false while the scanner is off, or waits
    ///   for its button, so a caller feeding codes in order can offer the same one again later).
    @discardableResult
    public func scan(_ barcode: String, symbology: String = "EAN-13", pressingButton: Bool = true) async -> Bool {
        let wasEnabled = scanner.isEnabled
        let held = scanner.buttonHeld
        if pressingButton { scanner.buttonHeld = true }
        let events = scanner.feed(barcode, now: scannerTime)
        scanner.buttonHeld = held
        var reported = false
        for case .scanned(let code) in events {
            scannerActivity += 1
            await emit(.scan(ScanEvent(barcode: code, symbology: symbology)))
            reported = true
        }
        if wasEnabled, !scanner.isEnabled { await scannerStopped("single scan done") }
        return reported
    }

    /// The operator presses the scan button and holds it: in button mode the scanner reads
    /// what is put in front of it until ``releaseScanButton()``.
    public func pressScanButton() {
        scanner.buttonHeld = true
        record(.info, "scan button pressed")
    }

    /// The operator lets the scan button go.
    public func releaseScanButton() { scanner.buttonHeld = false }

    /// Cuts the current link now, as a radio drop does: the SDK sees it close; the reader keeps
    /// its state (an unfinished update transfer stays, to be resumed).
    public func dropLink() async {
        await transport?.close()
    }

    /// Time on the scanner's own timeline (its timeouts are wall-clock, like a real scanner's).
    var scannerTime: Duration { ContinuousClock.now - poweredOn }
    let poweredOn = ContinuousClock.now

    /// The reader's log lines (never card data).
    public var logLines: [String] { log.entries.map(\.message) }

    /// The active firmware and configuration versions.
    public func activeVersions() -> (firmware: String?, configuration: String?) {
        (slots.active(.firmware)?.version, slots.active(.configuration)?.version)
    }

    /// The active image of `component`, bytes included (to check what the reader runs).
    public func activeImage(_ component: FirmwareSlots.Component) -> FirmwareSlots.Image? { slots.active(component) }

    /// The messages the reader wrote on its current link, which ``FaultPlan`` message numbers
    /// count: a fault at `linkWriteCount + n` hits the n-th message from now.
    public var linkWriteCount: Int { transport?.writeCount ?? 0 }

    /// The battery as the SDK sees it.
    public var batteryStatus: BatteryStatus {
        BatteryStatus(
            percentage: UInt8(clamping: battery.percentage), isCharging: battery.isCharging,
            hasExternalPower: battery.isCharging, millivolts: UInt16(clamping: battery.millivolts))
    }
}


/// Why a control call on the simulated reader failed.
public enum SimulatedReaderError: Error, Sendable, Hashable {
    /// No sandbox card has this id.
    case unknownCard(String)
}
