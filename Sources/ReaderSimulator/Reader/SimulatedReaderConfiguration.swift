import EMV
import MPOSCore
import ReaderLink

/// How a `SimulatedReader` presents itself and behaves.
public struct SimulatedReaderConfiguration: Sendable {
    /// The card in a real reader that transactions run against instead of the sandbox card
    /// ``cardID`` (nil: the sandbox card in software).
    public var cardSource: (any ChipCardSource)?
    /// The shared secret the reader pairs with.
    public var secret: SharedSecret
    /// The name the reader announces to discovery.
    public var name = "Sandbox reader"
    /// What `getDeviceInfo` reports (the battery fields are filled in live).
    public var serialNumber = "MPSIM-000001"
    public var manufacturer = "MPOSKit"
    public var model = "Simulated Reader R1"
    public var applicationName = "mpos-sim"
    public var applicationVersion = "1.0.0"
    public var emvParameterVersion = "EMV-2026.11"
    public var publicKeyVersion = "CAPK-2026.11"
    public var generalParameterVersion = "GP-2026.11"
    /// The card presented to the next transaction, by `SandboxCards` id, and how.
    public var cardID = "visa-credit"
    public var entryMode: CardEntryMode = .chip
    /// When true, a transaction waits for `SimulatedReader.present(cardID:entryMode:)` (or a
    /// cancel) before it reads a card; when false, the configured card is read at once.
    public var waitsForCard = false
    /// A pause between the steps a person takes (reading the card, typing the PIN), so that a
    /// demo shows the prompts; zero in tests and benchmarks.
    public var humanDelay: Duration = .zero
    /// How long the reader waits for the merchant's signature verdict before it cancels.
    public var signatureTimeout: Duration = .seconds(45)
    /// What the cardholder draws on the reader's pad when a signature is due, sent with the
    /// signature prompt; nil for a reader without a pad (the signature is on paper).
    public var signaturePad: CardholderSignature? = SignaturePad.sample
    /// What the cardholder presses when a transaction offers a tip (``TipChoice``); no tip by
    /// default.
    public var tipChoice: TipChoice = .noTip
    /// The account the cardholder picks when the reader asks for one (`EFT_ACCOUNT_TYPE_SELECTION`,
    /// 0x0032, after the card is read); nil for a reader that does not ask. The choice goes
    /// to the host as tag 5F57.
    public var accountSelection: AccountType?
    /// What the customer answers to the questions the SDK asks on the reader's screen, in
    /// order; once used up, each question gets a default answer of its kind (yes, the first
    /// choice, an example e-mail address or phone number, "OK", a drawn signature).
    /// ``ReaderLink/CustomerInput/timedOut`` waits out the question's timeout first.
    public var customerAnswers: [CustomerInput] = []
    /// Whether the reader has a bar-code scanner; one without answers a scanner request with
    /// `EFT_SCANNER_IS_NOT_SUPPORTED` (0x002F), as the Heft seed's readers without one do.
    public var hasScanner = true
    /// Whether the reader asks the cardholder to confirm the amount before the card prompt
    /// (`EFT_AMOUNT_VALIDATION`, 0x0018); the cardholder presses OK, or C to cancel.
    public var confirmsAmount = false
    /// Whether a card was left in the reader by an earlier transaction: the next transaction
    /// ends with `EFT_WAITING_CARD_REMOVAL` (0x001B), the card is taken out, and the one after
    /// goes ahead, as the Heft seed's readers ask ("remove the card and restart the operation").
    public var cardLeftInReader = false
    /// What the cardholder does at a PIN prompt: types the card's PIN, or bypasses it.
    public var pinEntry: PINEntry = .cardsPIN
    /// The battery at power-on.
    public var battery = Battery()
    /// Faults injected into the reader's writes (drop, delay, corrupt, reboot, go silent).
    public var faults: FaultPlan = .none
    /// The link the reader sits behind: its rate, MTU and delay (``LinkProfile/unlimited`` by default).
    public var link: LinkProfile = .unlimited
    /// The largest update image the reader has room for, in bytes.
    public var updateCapacity = 16 * 1024 * 1024
    /// Update requests the reader refuses on purpose (a failing flash, other wording), in
    /// order of use: the first that applies to a request, and still has refusals left, answers it.
    public var updateRefusals: [UpdateRefusal] = []
    /// How many of the next committed images fail to boot: the restart after the commit comes
    /// back on the previous image (its other slot), as a reader whose new image crashes does.
    public var imagesFailingToBoot = 0
    /// Whether every transaction ends declined before the reader prompts for a card, as a
    /// reader whose configuration an update broke does (the TSM seed's troubleshooting list).
    public var declinesBeforeCardPrompt = false
    /// The update channel the reader belongs to (`test` or `production`): it installs only
    /// images signed for its own model and channel.
    public var updateChannel = "production"
    /// The Ed25519 public key (32 bytes) whose signature an update image must carry; the
    /// sandbox gateway's published key by default.
    public var updatePublicKey: [UInt8] = (try? Hex.decode(UpdateSigning.sandboxPublicKeyHex)) ?? []
    /// A directory that keeps the firmware and configuration slots, and a transfer in
    /// progress, across restarts (``FirmwareSlotStore``); nil keeps them in memory only.
    public var stateDirectory: String?
    /// Whether the sandbox's amount triggers (10.00 declined, 20.00 cancelled …) apply.
    public var appliesScenarios = true

    /// A configuration with the given secret and defaults for everything else.
    public init(secret: SharedSecret) {
        self.secret = secret
    }

    /// The published secret of the sandbox reader: 32 bytes 0x00, 0x01, … 0x1F. Test use only.
    public static let sandboxSecretHex = "000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F"
}

/// What the cardholder does at the reader's PIN prompt.
public enum PINEntry: String, Sendable, Hashable, CaseIterable {
    /// Types the card's PIN (or the wrong one a test set with `SimulatedReader.setNextPIN(_:)`).
    case cardsPIN
    /// Presses OK without a digit: the PIN is bypassed and the payment falls back to a signature
    /// (the Heft seed's `EFT_PIN_INPUT`).
    case bypass
}
