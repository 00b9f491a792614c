import EMV
import Foundation
import GatewayAPI
import MPOSCore
import ReaderLink

/// The SDK's front door: one payment terminal (a gateway session and, once connected, a
/// card reader) that runs one operation at a time.
///
/// ```swift
/// let terminal = try PaymentTerminal(
///     environment: URL(string: "https://sandbox.example")!,
///     credentials: .login(user: "merchant", password: "…"), journalPath: journalFile)
/// try await terminal.login()
/// try await terminal.reader.connect(transport: transport, secret: secret)
/// let result = try await terminal.sale(PaymentParameters(amount: 1234, currency: .eur))
/// print(result.customerReceipt)
/// ```
///
/// Every sale is journaled before its gateway request leaves; a lost gateway answer is
/// looked up by the idempotency key; an approval the card declines is reversed; and
/// ``login()`` finishes whatever an earlier run left unfinished.
///
/// It is a facade: it keeps the gateway session and the payment pipeline (card payments
/// run by `CardReaderDevice` or `NetworkedTerminalDevice`, follow-ups, recovery), and
/// every other job belongs to a part that owns its state and its rules: ``reader``
/// (``CardReaderLink``), ``updates`` (``TerminalUpdates``), ``offline`` (``OfflinePayments``),
/// ``terminalAPI`` (``TerminalAPIAdapter``), ``accessories`` (``Accessories``), and the
/// gateway-side sub-clients ``accounts``, ``reports``, ``inventory`` and ``receipts``. One
/// `OperationGate` is the busy rule every part follows. The README maps each folder of
/// `Sources/MPOSKit/` to its part.
public actor PaymentTerminal {
    /// Every event, as it happens, filtered streams (``TerminalEvents/subscribe(_:)``) and
    /// handlers (``TerminalEvents/addHandler(_:_:)``).
    public nonisolated var events: TerminalEvents { hub }

    /// The events part: the stream above, filtered subscriptions and handlers.
    let hub: TerminalEvents
    /// The session part: credentials, token, renewal.
    let client: GatewayClient
    /// The developer log, off until the app turns it on.
    nonisolated let developerLog: DeveloperLog
    let clock: any Clock<Duration>
    /// The terminal's mode: its payment device, offline-only or not.
    var state = TerminalState()
    /// The one busy rule every part follows.
    nonisolated let gate = OperationGate()
    /// The payments part: the journal and the card operation running.
    var payments: PaymentsState
    /// The device checks and their reference.
    var security: DeviceSecurity

    /// The merchant user's account: the merchant's details, a forgotten user id or password,
    /// a new password.
    public nonisolated var accounts: Accounts { Accounts(client: client) }
    /// The merchant's transactions and turnover.
    public nonisolated var reports: Reports { Reports(client: client) }
    /// The merchant's inventory file, kept by the gateway in versions.
    public nonisolated var inventory: Inventory { Inventory(client: client) }
    /// Receipts of payments and recorded transactions, rendered or sent to the customer.
    public nonisolated var receipts: Receipts { Receipts(client: client) }

    /// The card reader: connecting, pairing, reconnecting, its description, battery, log and
    /// scanner, and discovery.
    public nonisolated let reader: CardReaderLink
    /// Terminal management: update checks, download and apply, deadlines.
    public nonisolated let updates: TerminalUpdates
    /// The cash drawer and accessory barcode scanners.
    public nonisolated let accessories: Accessories
    /// Terminal API (nexo) requests over the terminal's payment flow.
    public nonisolated let terminalAPI: TerminalAPIAdapter
    /// The sales approved offline: the store, the limits, the forward.
    public nonisolated let offline: OfflinePayments
    /// Finishing what the journal left unfinished, and the journaled attempts.
    public nonisolated let recovery: Recovery

    /// Creates a terminal.
    ///
    /// - Parameters:
    ///   - environment: the gateway's base URL, held to no named environment (the initializer
    ///     taking a ``PaymentEnvironment`` is).
    ///   - credentials: how to authenticate.
    ///   - journalPath: the SQLite file of the payment journal (created if missing).
    ///   - transport: the HTTP seam; URLSession by default.
    ///   - clock: the clock of timeouts and retries (a manual clock in tests).
    ///   - signatureTimeout: 45 s by default.
    ///   - safeRequestRetryDeadline: how long a safe request (login, the merchant, lookups,
    ///     reports, receipts) is sent again after lost connections, pausing 0.25 s, 0.5 s,
    ///     1 s … 8 s, before its error is thrown; 15 s by default, zero to never retry.
    ///     An answer from the gateway, even an error, and an untrusted certificate are not
    ///     retried.
    ///   - offlineKeys: the offline store's key; by default a 0600 file next to the journal
    ///     (`<journal>.offline-key`).
    ///   - deviceChecks: the device checks run before every card payment
    ///     (``DeviceChecks/standard``: the debugger, the clock against the gateway's, a restart
    ///     before offline sales, and on iOS the screen, passcode and jailbreak checks).
    ///   - deviceCredentials: where the device credential that a password login is granted is
    ///     kept; by default the Keychain on Apple platforms and a 0600 file next to the journal
    ///     elsewhere (`<journal>.device`). Renewals and later logins of the same user present it
    ///     instead of the password, so a user locked out by someone's guesses, or whose
    ///     password was reset, does not stop the terminal; revoking the device at the gateway does.
    /// - Throws: ``MPOSError/journalFailed`` when the journal cannot be opened.
    public init(
        environment: URL, credentials: GatewayCredentials, journalPath: String,
        transport: any GatewayTransport = URLSessionGatewayTransport(),
        clock: any Clock<Duration> = ContinuousClock(),
        signatureTimeout: Duration = .seconds(45),
        safeRequestRetryDeadline: Duration = .seconds(15), offlineKeys: (any OfflineStoreKeyProvider)? = nil,
        deviceChecks: DeviceChecks = .standard, deviceCredentials: (any DeviceCredentialStore)? = nil
    ) throws(MPOSError) {
        try self.init(
            gateway: environment, named: nil, credentials: credentials, journalPath: journalPath,
            transport: transport, clock: clock, signatureTimeout: signatureTimeout,
            safeRequestRetryDeadline: safeRequestRetryDeadline, offlineKeys: offlineKeys, deviceChecks: deviceChecks,
            deviceCredentials: deviceCredentials)
    }

    /// Creates a terminal for a named environment (``PaymentEnvironment/sandbox``, or
    /// ``PaymentEnvironment/production(_:)``), which ``login()`` holds the gateway to.
    ///
    /// The other parameters are those of the initializer that takes the gateway's URL.
    ///
    /// - Throws: ``MPOSError/journalFailed`` when the journal cannot be opened.
    public init(
        environment: PaymentEnvironment, credentials: GatewayCredentials, journalPath: String,
        transport: any GatewayTransport = URLSessionGatewayTransport(),
        clock: any Clock<Duration> = ContinuousClock(),
        signatureTimeout: Duration = .seconds(45),
        safeRequestRetryDeadline: Duration = .seconds(15), offlineKeys: (any OfflineStoreKeyProvider)? = nil,
        deviceChecks: DeviceChecks = .standard, deviceCredentials: (any DeviceCredentialStore)? = nil
    ) throws(MPOSError) {
        try self.init(
            gateway: environment.url, named: environment, credentials: credentials, journalPath: journalPath,
            transport: transport, clock: clock, signatureTimeout: signatureTimeout,
            safeRequestRetryDeadline: safeRequestRetryDeadline, offlineKeys: offlineKeys, deviceChecks: deviceChecks,
            deviceCredentials: deviceCredentials)
    }

    private init(
        gateway: URL, named environment: PaymentEnvironment?, credentials: GatewayCredentials, journalPath: String,
        transport: any GatewayTransport, clock: any Clock<Duration>, signatureTimeout: Duration,
        safeRequestRetryDeadline: Duration, offlineKeys: (any OfflineStoreKeyProvider)?, deviceChecks: DeviceChecks,
        deviceCredentials: (any DeviceCredentialStore)?
    ) throws(MPOSError) {
        payments = PaymentsState(journal: try PaymentJournal(path: journalPath), signatureTimeout: signatureTimeout)
        var retry = RetryPolicy.standard
        retry.safeRequestDeadline = safeRequestRetryDeadline
        let log = DeveloperLog()
        developerLog = log
        client = GatewayClient(
            baseURL: gateway, credentials: credentials,
            transport: LoggingGatewayTransport(base: transport, log: log),
            clock: clock, retry: retry, environment: environment,
            deviceCredentials: deviceCredentials ?? DeviceCredentials.standard(journalPath: journalPath))
        self.clock = clock
        let events = TerminalEvents()
        hub = events
        security = DeviceSecurity(checks: deviceChecks)
        reader = CardReaderLink(clock: clock, hub: events, gate: gate)
        updates = TerminalUpdates(client: client, reader: reader, gate: gate, events: events)
        accessories = Accessories(events: events)
        terminalAPI = TerminalAPIAdapter(client: client, journal: payments.journal, gate: gate, events: events)
        offline = OfflinePayments(
            store: OfflineStore(
                path: journalPath + ".offline", keys: offlineKeys ?? OfflineKeyFile(path: journalPath + ".offline-key")),
            client: client, gate: gate, events: events, clock: clock)
        recovery = Recovery(journal: payments.journal, client: client, gate: gate, offline: offline)
        // The reader's news, each taken in its own child task: taking one may need the link
        // again (an update on connect restarts the reader, which pairs and says so).
        Task { [weak self, news = reader.news] in
            await withDiscardingTaskGroup { group in
                for await message in news {
                    group.addTask { [weak self] in
                        guard let self else { return message.taken() }
                        await self.take(message)
                    }
                }
            }
        }
    }

    /// Sets who decides on signatures; the handler gets the merchant copy to sign. Without a
    /// handler nothing accepts the signature: as a Handpoint reader does when the app never
    /// answers, the payment is cancelled once the signature timeout (45 s by default) passes,
    /// and the host's approval is reversed.
    public func setSignatureHandler(_ handler: SignatureHandler?) { payments.signatureHandler = handler }

    /// Sets who picks the application on multi-application cards. Without a handler the
    /// first candidate is chosen.
    public func setApplicationSelectionHandler(_ handler: ApplicationSelectionHandler?) {
        payments.applicationHandler = handler
    }

    // MARK: - Session

    /// Authenticates with the gateway, then finishes whatever the journal holds unfinished
    /// (see ``recovery.recoverUnfinishedAttempts()``).
    ///
    /// - Returns: what recovery found and did, one report per attempt an earlier run left
    ///   unfinished (empty when there was none), for the app to tell the merchant.
    /// - Throws: ``MPOSError/gatewayUnauthorized``, ``MPOSError/gatewayUnreachable``;
    ///   ``MPOSError/journalOwnedElsewhere`` when the journal holds another gateway's or
    ///   merchant's attempts (the session is ended, and nothing in the journal changes).
    ///
    /// - Parameter offlineFallback: when the gateway cannot be reached (never when it refuses
    ///   the credentials) and an earlier online login of the same user at the same gateway is
    ///   within the offline window, come up offline-only instead of throwing: sales with
    ///   `offlineAllowed` go to the card's offline decision, everything else throws
    ///   ``MPOSError/onlineRequired`` (see ``TerminalStatus/isOfflineOnly``). Off by default.
    @discardableResult
    public func login(offlineFallback: Bool = false) async throws(MPOSError) -> [RecoveredAttempt] {
        let fallback =
            offlineFallback
            ? await offline.cachedSession(for: await client.credentials, now: await security.deviceState().date) : nil
        // Only whether a cached session is there matters to the login: why not is said below.
        do { try await client.login(resending: (try? fallback?.get()) == nil) } catch {
            guard let fallback, error.code == MPOSError.Code.gatewayUnreachable else { throw error }
            try await comeUpOfflineOnly(fallback, after: error)
            return []
        }
        state.wentOnline()
        await updates.forgetReaderStatus()
        await noteOnlineSession()
        if let terms = await client.offlinePolicy { await offline.setPolicy(terms) }
        await client.onRenewal { [weak self] in await self?.noteRenewedSession() }
        try await bindJournal()
        await offline.seal(credentials: await client.credentials, merchant: await client.merchant, checkpoint: security.checkpoint)
        let recovered = try await recovery.recoverUnfinishedAttempts()
        // After recovery, which hands the journal's attempts the store holds over to it.
        await offline.compact()
        await offline.startForwarderIfSalesWait()
        if await reader.link != nil, !gate.isBusy {
            // Terminal management's answer only sets deadlines; a gateway without it does not stop the login.
            _ = try? await updates.check()
        }
        return recovered
    }

    /// Sets the device checks run before every card payment (the initializer's
    /// `deviceChecks`). Set them before ``login()``: each login takes the reference of the
    /// clock and restart checks through their probe.
    func setDeviceChecks(_ checks: DeviceChecks) { security.checks = checks }

    /// An online login or a renewal: the device checks take their reference and the offline
    /// window starts again, both on the device's clock (the offline policy judges the window
    /// against the device's date at the sale).
    func noteOnlineSession() async {
        let device = await security.deviceState()
        let gatewayDate = await client.gatewayTime
        security.takeReference(device, gatewayDate: gatewayDate)
        await offline.wentOnline(at: device.date)
    }

    /// Closes the reader link and stops any reconnection; payments go to a card reader again.
    public func disconnect() async {
        await reader.letGo()
    }
}

extension PaymentTerminal {
    /// Takes in what the reader part says, passes it on to the parts it concerns, and answers
    /// the link.
    func take(_ message: ReaderLinkMessage) async {
        switch message.news {
        case .paired(let info):
            // Another reader's status never stands for this one's: ask for this one's now.
            if await updates.forgetUnlessKnown(reader: info?.serialNumber), !state.isOfflineOnly,
                await client.isLoggedIn
            {
                // Its deadlines are learned at the next payment when terminal management does not answer now.
                _ = try? await updates.check()
            }
            message.taken()
        case .connectedByApp:
            do throws(MPOSError) {
                try await updates.applyOnConnect(offlineOnly: state.isOfflineOnly)
                message.taken()
            } catch {
                message.taken(.failure(error))
            }
        case .letGo:
            state.useCardReader()
            await recovery.paymentsGo(to: nil)
            await terminalAPI.networkedTerminalChanged(to: nil)
            await updates.forgetReaderStatus()
            message.taken()
        }
    }
}
